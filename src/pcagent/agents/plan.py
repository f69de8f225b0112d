"""The Manager's plan: parameterised subtasks with named inputs and outputs, forming a DAG.

Why explicit names: PC-Agent's subtasks depend on each other through values ("the meeting time
found in subtask 1" is typed into the calendar by subtask 2). Each subtask says which values it
``outputs``; a later one lists them as ``inputs`` and writes ``{name}`` in its description. The
communication hub (:mod:`pcagent.agents.hub`) fills those in once the values exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from pcagent.errors import PlanError

#: ``{name}`` placeholders in a subtask description.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"


class SubtaskSpec(BaseModel):
    """One subtask as the Manager writes it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(
        min_length=1,
        max_length=20,
        description='Short unique id, e.g. "s1".',
        pattern=r"^[A-Za-z0-9_.-]+$",
    )
    description: str = Field(
        min_length=1,
        max_length=400,
        description="What to do, in one sentence; write {name} where an input value goes.",
    )
    app: str = Field(
        "", max_length=40, description='Logical app the subtask works in, e.g. "writer".'
    )
    inputs: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Names of values this subtask needs from earlier subtasks.",
    )
    outputs: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Names of values this subtask finds and reports, e.g. meeting_time.",
    )
    depends_on: list[str] = Field(
        default_factory=list, max_length=12, description="Ids of subtasks that must finish first."
    )
    environment: str = Field(
        "",
        max_length=40,
        pattern=r"^([a-z][a-z0-9_-]*)?$",
        description="The desktop the subtask works on, in a task across several desktops, e.g. "
        '"laptop"; empty: the first (or only) one.',
    )

    files: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Files in HOME the instruction asks this subtask to change, replace or "
        'delete, e.g. "Documents/old.txt"; a change to any other file is undone.',
    )
    skill: str = Field(
        "", max_length=40, description="The skill this subtask calls; empty: done through the GUI."
    )
    args: dict[str, JsonValue] = Field(
        default_factory=dict, description="The skill's arguments; references to earlier steps."
    )
    doubt: str = Field(
        "",
        max_length=1000,
        description="What evidence doubts in this step's arguments (an address the instruction "
        "does not give): set by pcagent on a program kept with it, never by the model.",
    )
    #: Whether code changed this skill call from every one the Manager's model wrote (a mend,
    #: or a model's reading set by code): its call is then code's decision, not the model's.
    #: Set by the run's planner (:mod:`pcagent.agents.step_origins`), never by the model.
    mended: bool = False
    #: Literal values of this subtask's call that the application refused when it ran (a site
    #: that answered "Unknown city: 'Howie'"): a re-plan that sends one again repeats the
    #: failure. Set by the Manager from the failure (:mod:`pcagent.agents.refused_values`).
    refused: list[str] = Field(default_factory=list)
    #: On the step that just failed, as a re-plan is given it: the skill calls that failed
    #: earlier in the run, which a re-plan must not write again either (a date minus a city
    #: refused by the calculator, then its screen retry given up, then the same call written
    #: again: a rewording of pc23, twice, 2026-12-07). Set by the run, never by the model;
    #: never recorded.
    failed_before: list[SubtaskSpec] = Field(default_factory=list, exclude=True)

    @field_validator("inputs", "outputs")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        for name in names:
            if not re.match(_NAME, name):
                raise ValueError(f"{name!r} is not a value name; use letters, digits and _")
        return names

    def placeholders(self) -> list[str]:
        """The ``{name}`` placeholders used in the description, in order, without repeats."""
        return list(dict.fromkeys(PLACEHOLDER.findall(self.description)))


@dataclass(frozen=True)
class Doubt:
    """A step's argument that only evidence judges, and judged it wrong: an address the
    instruction does not give, a number nobody found, one value where a list is wanted.

    The Manager is re-asked with it; a program still holding it on the last ask is kept, and
    the step carries it (:attr:`SubtaskSpec.doubt`), so a run whose steps each checked their
    own effect still ends "unverified": a check that the invented page opened does not show
    that the instruction's page did."""

    step: str
    problem: str
    #: Skills a program could take up to answer it (an application asked for and unused: that
    #: application's skills), so the re-ask can show a remembered program that uses one.
    skills: tuple[str, ...] = ()
    #: The step itself is wrong as written (a literal nobody gave, an example's value, an
    #: application's name as a value): writing that step again may answer the doubt.
    own: bool = False
    #: The parameter of the step whose value is doubted, where the remedy is another step's
    #: value passed to it by reference (a text to compose first): a step written again as that
    #: other step is then put before the step and feeds it (:mod:`focused_steps`).
    argument: str = ""
    #: The path of a file or folder the step names that neither the instruction nor a value
    #: found names (an example's): a step that would make it is cut (:mod:`doubted_changes`).
    unnamed_path: str = ""
    #: Where the remedy is a step of :attr:`skills` (or :attr:`wanted_steps`) put in after this
    #: step id ("" for before the first): an example's step the program leaves out
    #: (:mod:`left_out_of_examples`).
    wanted_after: str | None = None
    #: How many steps are wanted there: two where an example's two steps in a row are left out.
    wanted_steps: int = 1
    #: The way the step works is in doubt, not what it gives (a screen step where a skill
    #: would do the work: :mod:`screen_steps`): the Manager is asked again, and a program kept
    #: with it runs as if it had none.
    asks_only: bool = False
    #: What the step does is right, the skill doing it is not: the remedy is the step written
    #: again as a call of one of :attr:`skills` (a file written in an application not asked
    #: for, where the one asked for has a skill that writes it: :mod:`written_elsewhere`).
    skill_instead: bool = False

    def __str__(self) -> str:
        return f"{self.step}: {self.problem}"


def with_doubts(plan: Plan, doubts: Sequence[Doubt]) -> Plan:
    """``plan`` with each doubt carried by the subtask of its step (but those that only ask
    again, :attr:`Doubt.asks_only`)."""
    by_step: dict[str, list[str]] = {}
    for doubt in doubts:
        if not doubt.asks_only:
            by_step.setdefault(doubt.step, []).append(doubt.problem)
    return Plan(
        subtasks=[
            s.model_copy(update={"doubt": "; ".join(by_step[s.id])[:1000]})
            if s.id in by_step
            else s
            for s in plan.subtasks
        ]
    )


class Plan(BaseModel):
    """The Manager's decomposition of an instruction."""

    model_config = ConfigDict(extra="forbid")

    subtasks: list[SubtaskSpec] = Field(min_length=1, max_length=20)


def check_plan(plan: Plan, known_values: Iterable[str] = (), known_ids: Iterable[str] = ()) -> None:
    """Raise :class:`PlanError` unless ``plan`` is a DAG whose every input is produced.

    ``known_values`` are values already in the hub and ``known_ids`` subtasks already finished
    (when re-planning the rest of a run). A placeholder must be a declared input; an input must be
    an output of a subtask it depends on (directly or transitively) or already known.
    """
    ids = [subtask.id for subtask in plan.subtasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise PlanError(f"subtask ids repeat: {duplicates}; give every subtask its own id")
    by_id = {subtask.id: subtask for subtask in plan.subtasks}
    finished = set(known_ids)
    for subtask in plan.subtasks:
        unknown = [d for d in subtask.depends_on if d not in by_id and d not in finished]
        if unknown:
            raise PlanError(f"subtask {subtask.id} depends on unknown subtasks {unknown}")
    order = topological_order(plan)
    available = set(known_values)
    produced_before: dict[str, set[str]] = {}
    for subtask_id in order:
        subtask = by_id[subtask_id]
        upstream: set[str] = set(available)
        for dependency in subtask.depends_on:
            if dependency in by_id:
                upstream |= produced_before[dependency] | set(by_id[dependency].outputs)
        produced_before[subtask_id] = upstream
        undeclared = [p for p in subtask.placeholders() if p not in subtask.inputs]
        if undeclared:
            raise PlanError(
                f"subtask {subtask.id} writes {undeclared} in its description but does not list "
                "them as inputs"
            )
        missing = [name for name in subtask.inputs if name not in upstream]
        if missing:
            raise PlanError(
                f"subtask {subtask.id} needs {missing}, which no subtask it depends on outputs"
            )


def topological_order(plan: Plan) -> list[str]:
    """Subtask ids so that each comes after its dependencies; ties keep the plan's order.

    Raises :class:`PlanError` naming the subtasks on a cycle.
    """
    by_id = {subtask.id: subtask for subtask in plan.subtasks}
    remaining = {s.id: {d for d in s.depends_on if d in by_id} for s in plan.subtasks}
    order: list[str] = []
    while remaining:
        ready = [i for i in by_id if i in remaining and not remaining[i]]
        if not ready:
            raise PlanError(f"the subtasks {sorted(remaining)} depend on each other in a cycle")
        for subtask_id in ready:
            del remaining[subtask_id]
            order.append(subtask_id)
        for dependencies in remaining.values():
            dependencies.difference_update(ready)
    return order


@dataclass(frozen=True)
class PlanOutcome:
    """A checked plan; ``fallback`` is True when the model's programs were unusable and the
    whole instruction became one GUI task, with ``problem`` saying why."""

    plan: Plan
    fallback: bool = False
    problem: str = ""
    #: Why nothing is left to try ("" while something is): a re-plan with no usable program
    #: after a step that needs no application failed (a value not found in a text, a time not
    #: worked out); retried on the screen, no role has a window to do it in, and the run spent
    #: its remaining steps clicking at random (pc03, 2026-11-29). ``plan`` is then the retry
    #: that would have run, for the record.
    nothing_left: str = ""


@dataclass(frozen=True)
class Replanning:
    """What a re-plan starts from: the subtasks ``finished`` (not redone; their values, in
    ``hub`` by id, may be referred to) and the subtask that ``failed``, with the ``reason``."""

    instruction: str
    finished: Sequence[SubtaskSpec]
    hub: Mapping[str, str]
    failed: SubtaskSpec
    reason: str


def single_subtask_plan(instruction: str, app: str = "") -> Plan:
    """The plan of the ablation without a Manager (and the fallback): the whole instruction as
    one GUI task."""
    return Plan(subtasks=[SubtaskSpec(id="s1", description=instruction.strip()[:400], app=app)])


#: What the whole instruction run as one GUI step carries: its checks cover single actions.
FALLBACK_DOUBT = (
    "no usable program: the whole instruction ran as one GUI step, and a check of its last "
    "action does not show the whole instruction done"
)


def fallback_plan(instruction: str, app: str = "", environment: str = "") -> Plan:
    """The whole instruction as one GUI step (in ``app`` where it is known, on the desktop
    ``environment`` of a run across several), where the Manager had no usable program.

    The step carries a doubt: with no usable program, nothing typed says what the instruction
    asks, and the check of the one action before its ``done`` (an alarm set, a value on the
    calculator's display) shows that action, not the whole instruction; so a run of it ends
    "unverified" at best."""
    (only,) = single_subtask_plan(instruction, app).subtasks
    return Plan(
        subtasks=[only.model_copy(update={"environment": environment, "doubt": FALLBACK_DOUBT})]
    )
