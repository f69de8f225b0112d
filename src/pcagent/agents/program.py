"""The Manager's plan as a typed program: an ordered list of skill calls and GUI tasks.

Each step is either a call of a skill from the catalog (``{"id": "s2", "skill": "set_alarm",
"args": {"time": {"from": "s1", "key": "event_time"}, "minutes_before": 60}}``) or, where no
skill fits, a task in words for the Decision loop in one application (``{"id": "s3", "skill":
"gui", "app": "writer", "task": "...", "uses": ["s2"]}``). Arguments are literals or references
to earlier steps' values (``{"from": "s1"}``, with ``"key"`` for one field of an object value).

The model writes the program under a grammar made from the skills' own parameter schemas
(:func:`~pcagent.agents.program_grammar.program_schema`); :func:`check_program` validates it (skills known and on this desktop,
literal arguments of the right type and bounds, references to earlier steps, applications
present) before anything runs, and :func:`program_plan` turns it into the run's subtasks, so
records, resume, rewind and replay keep working on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from pcagent.agents.plan import Plan, SubtaskSpec
from pcagent.errors import PlanError
from pcagent.skills import Skill, SkillCatalog

#: The pseudo-skill of a step the Decision loop does through the GUI.
GUI = "gui"
#: A step's id, and a value's name, as the grammar and the checks take them.
STEP_ID = r"^s[0-9]{1,2}$"
#: The longest program the grammar lets the Manager write: a loop repeating steps ends here.
MAX_STEPS = 12
#: The most requests a program lists, and the longest one (characters).
MAX_REQUESTS = 8
REQUEST_CHARS = 150
VALUE_NAME = r"^[a-z][a-z0-9_]{0,39}$"


class ProgramStep(BaseModel):
    """One step as recorded (the model's reply is checked into this shape)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=STEP_ID)
    skill: str = Field(min_length=1, max_length=40)
    args: dict[str, JsonValue] = Field(default_factory=dict)
    app: str = Field("", max_length=40)
    task: str = Field("", max_length=400)
    uses: list[str] = Field(default_factory=list, max_length=8)
    #: A GUI step's values to report, by name (it reports them with ``answer``).
    outputs: list[str] = Field(default_factory=list, max_length=8)
    #: A GUI step's files in HOME the instruction asks it to change, replace or delete (the
    #: effect checks put any other file back).
    files: list[str] = Field(default_factory=list, max_length=20)
    environment: str = Field("", max_length=40)


class Program(BaseModel):
    """The Manager's program; its JSON schema for the model comes from
    :func:`~pcagent.agents.program_grammar.program_schema`."""

    model_config = ConfigDict(extra="forbid")

    #: What the instruction asks, one thing each, as the model read it before writing the steps
    #: (when asked for: see ``program_grammar``); the steps alone are the program.
    requests: list[str] = Field(default_factory=list, max_length=MAX_REQUESTS)
    steps: list[ProgramStep] = Field(min_length=1, max_length=MAX_STEPS)
    #: The grammar the model writes under; set per catalog by ``program_grammar``.
    reply_schema: ClassVar[dict[str, Any] | None] = None

    def step(self, step_id: str) -> ProgramStep | None:
        """The step of id ``step_id``; None where the program has none."""
        return next((step for step in self.steps if step.id == step_id), None)

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        if cls.reply_schema is not None:
            return cls.reply_schema
        return super().model_json_schema(*args, **kwargs)


#: A value of an earlier step inside a text argument: ``"{s1} * 60"``, ``"at {s2.time}"``.
#: A step's id and, after a dot, a key of its value: the inside of a slot.
STEP_AND_KEY = r"(s[0-9]{1,2})(?:\.([a-z][a-z0-9_]{0,39}))?"
#: A slot may pick one item of a list found by its place from 0 (``{s2.prices[1]}``, the
#: third group): a small model writes a list's items into cells so.
SLOT = re.compile(rf"\{{{STEP_AND_KEY}(?:\[([0-9])\])?\}}")


def skill_of(step: ProgramStep, catalog: SkillCatalog) -> Skill[Any] | None:
    """The skill ``step`` calls; None for a GUI step or a name the catalog lacks (the program
    check names those), so that each judgement of a step's skill asks in one way."""
    if step.skill == GUI or step.skill not in catalog:
        return None
    return catalog.get(step.skill)


def skill_steps(
    program: Program, catalog: SkillCatalog
) -> Iterator[tuple[ProgramStep, Skill[Any]]]:
    """Each step of ``program`` that calls a skill of the catalog, with that skill, in order."""
    for step in program.steps:
        one = skill_of(step, catalog)
        if one is not None:
            yield step, one


def parameter_schemas(skill: Skill[Any]) -> dict[str, Any]:
    """Each parameter's JSON schema, by name, as the model sees it."""
    return skill.parameters.model_json_schema().get("properties", {})


def is_reference(value: object) -> bool:
    """Whether an argument is a reference ``{"from": "s1"[, "key": "name"]}``."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("from"), str)
        and set(value) <= {"from", "key"}
    )


def written_path(path: str) -> PurePosixPath:
    """A path as a program writes it, one way: ``~/Documents/a.txt`` is ``Documents/a.txt``
    (both name the same file of HOME, and the checks of a program compare them)."""
    return PurePosixPath(path.strip().removeprefix("~/"))


def literal_texts(value: JsonValue) -> Iterator[str]:
    """Every literal in a step's arguments, as text; references are step ids, not values (the
    "12" of "s12" is no value), and true/false say nothing of what a step works on."""
    if is_reference(value):
        return
    if isinstance(value, dict):
        for item in value.values():
            yield from literal_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from literal_texts(item)
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def references(args: Mapping[str, JsonValue]) -> list[str]:
    """The step ids the arguments refer to, anywhere inside them, in order."""
    return list(dict.fromkeys(value["from"] for value in reference_values(args)))


def check_program(
    program: Program,
    catalog: SkillCatalog,
    apps: Sequence[str],
    environments: Sequence[str] = (),
    known: Sequence[str] = (),
    done: Sequence[ProgramStep] = (),
) -> None:
    """Raise :class:`PlanError` with every problem found, before anything runs. ``known`` are
    ids of steps that already ran (a re-plan may refer to their values); ``done``, the calls
    among them, whose values' keys a reference must name as any step's (a re-plan searched
    for ``{s2.place}`` where s2 had found only a time, and failed when it ran)."""
    problems: list[str] = []
    seen: list[str] = list(known)
    keys = {call.id: value_keys(call, catalog) for call in done}
    # A re-plan's finished steps may have left a page open; a gui step in the application of
    # the skills that work on a page (the browser) may open one.
    page_open = bool(known)
    paged = {app for one in catalog if one.on_page for app in one.apps}
    for step in program.steps:
        problems += _key_problems(step, keys)
        keys[step.id] = value_keys(step, catalog)
        if step.id in seen:
            problems.append(f"step id {step.id} repeats")
        earlier = set(seen)
        seen.append(step.id)
        if environments and step.environment and step.environment not in environments:
            problems.append(f"{step.id}: no desktop {step.environment!r}")
        if step.skill == GUI:
            page_open = page_open or step.app in paged
            if apps and step.app not in apps:
                problems.append(f"{step.id}: no application {step.app!r}; one of {list(apps)}")
            if not step.task.strip():
                problems.append(f"{step.id}: a gui step needs a task")
            problems += [
                f"{step.id}: uses {u}, not an earlier step" for u in step.uses if u not in earlier
            ]
            continue
        if step.skill not in catalog:
            problems.append(f"{step.id}: no skill {step.skill!r}")
            continue
        one = catalog.get(step.skill)
        if one.on_page and not page_open:
            problems.append(
                f"{step.id}: {step.skill} works on the page in front, and no step before it opens "
                "one (open_page of an address, or web_search)"
            )
        page_open = page_open or one.navigates or one.on_page
        lacking = [app for app in one.apps if apps and app not in apps]
        if lacking:
            problems.append(f"{step.id}: {step.skill} needs {lacking}, not on this desktop")
        problems += _argument_problems(step, one.parameters, earlier)
        problems += [
            f"{step.id}: {slot} is no reference: write {{s2}}, {{s2.name}} or {{s2.name[0]}}"
            for text in literal_texts(dict(step.args))
            for slot in _LIKE_A_SLOT.findall(text)
            if not SLOT.fullmatch(slot)
        ]
    if problems:
        raise PlanError("; ".join(problems))


#: What a model means as a slot: braces around a step's id and anything after it. One SLOT
#: does not read would be written into a file or a form as it stands.
_LIKE_A_SLOT = re.compile(r"\{s[0-9]{1,2}(?![0-9])[^{}]{0,60}\}")


def value_keys(step: ProgramStep, catalog: SkillCatalog) -> frozenset[str] | None:
    """The fields of a step's value when it is an object; None when it is one value."""
    if step.skill == GUI:
        return frozenset(step.outputs) if len(step.outputs) > 1 else None
    if step.skill not in catalog:
        return None
    one = catalog.get(step.skill)
    if one.value_keys:
        return frozenset(one.value_keys)
    named = step.args.get(one.keys_argument) if one.keys_argument else None
    if isinstance(named, list) and all(isinstance(name, str) for name in named):
        return frozenset(named)  # type: ignore[arg-type]
    return None


def _key_problems(step: ProgramStep, keys: Mapping[str, frozenset[str] | None]) -> list[str]:
    """References whose "key" the step they name does not give."""
    problems = []
    for value in reference_values(step.args):
        source, key = value["from"], value.get("key")
        if source not in keys:
            continue  # an unknown step is named by the argument check
        fields = keys[source]
        if key and fields is None:
            problems.append(
                f"{step.id}: {source}'s value is one value, not an object: refer to it as "
                f'{{"from": "{source}"}} without "key"'
            )
        elif key and fields is not None and key not in fields:
            problems.append(f"{step.id}: {source} gives {sorted(fields)}, not {key!r}")
    return problems


def reference_values(args: Mapping[str, JsonValue]) -> list[dict[str, Any]]:
    """Every reference in the arguments: reference objects, and slots in texts (a slot that
    picks an item of a list found says which under "item": ``{s2.films[1]}``)."""
    found: list[dict[str, Any]] = []

    def walk(value: object) -> None:
        if is_reference(value):
            found.append(value)  # type: ignore[arg-type]
        elif isinstance(value, str):
            found.extend(
                {
                    "from": m.group(1),
                    **({"key": m.group(2)} if m.group(2) else {}),
                    **({"item": int(m.group(3))} if m.group(3) else {}),
                }
                for m in SLOT.finditer(value)
            )
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for value in args.values():
        walk(value)
    return found


def _argument_problems(
    step: ProgramStep, parameters: type[BaseModel], earlier: set[str]
) -> list[str]:
    problems = []
    fields = parameters.model_fields
    for name in step.args:
        if name not in fields:
            problems.append(
                f"{step.id}: {step.skill} has no parameter {name!r} ({', '.join(fields)})"
            )
    for name, info in fields.items():
        if name not in step.args:
            if info.is_required():
                problems.append(f"{step.id}: {step.skill} needs {name!r}")
            continue
        value = step.args[name]
        unknown = [ref for ref in references({name: value}) if ref not in earlier]
        if unknown:
            problems.append(f"{step.id}: {name} refers to {unknown}, not an earlier step")
        if references({name: value}):
            continue  # checked against the parameter when the value exists
        try:
            TypeAdapter(info.rebuild_annotation()).validate_python(value)
        except ValidationError as error:
            message = error.errors()[0]["msg"]
            problems.append(f"{step.id}: {name}={json.dumps(value)[:60]}: {message}")
    if not problems and not references(step.args):
        problems += _whole_call_problems(step, parameters)
    return problems


def _whole_call_problems(step: ProgramStep, parameters: type[BaseModel]) -> list[str]:
    """What a call of literals only breaks across its parameters (a move naming no file, a
    formatting naming no paragraph): each field passes alone, the call never could. Why: such
    a call failed only when it ran, after the steps before it, and the re-plan redid those
    (``move_files(into="Documents")``, a rewording of pc11, 2026-12-06)."""
    try:
        parameters.model_validate(step.args)
    except ValidationError as error:
        message = str(error.errors()[0]["msg"]).removeprefix("Value error, ")
        return [f"{step.id}: {step.skill}: {message}"]
    return []


def steps_used(step: ProgramStep) -> list[str]:
    """The ids of the earlier steps whose values ``step`` uses, in order: a GUI step's
    ``uses``, a skill step's references (slots in its texts included)."""
    return list(step.uses) if step.skill == GUI else references(step.args)


def step_text(step: ProgramStep) -> str:
    """A step as one readable line (records, logs, the viewer)."""
    if step.skill == GUI:
        uses = "".join(f" [{u}: {{{u}}}]" for u in step.uses)
        return f"{step.task}{uses}"
    arguments = ", ".join(f"{k}={_shown(v)}" for k, v in step.args.items())
    return f"{step.skill}({arguments})"


def _shown(value: JsonValue) -> str:
    if is_reference(value):
        key = value.get("key")  # type: ignore[union-attr]
        return f"<{value['from']}{'.' + key if key else ''}>"  # type: ignore[index]
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def step_description(step: ProgramStep) -> str:
    """A step's subtask's description: its line (:func:`step_text`), at most 400 characters."""
    return step_text(step)[:400]


def step_apps(step: ProgramStep, catalog: SkillCatalog) -> tuple[str, ...]:
    """The applications a step works in: a GUI step's own, a skill's declared ones (none for a
    skill of no application, such as ``days_between``, or one the catalog lacks)."""
    if step.skill == GUI:
        return (step.app,) if step.app else ()
    return catalog.get(step.skill).apps if step.skill in catalog else ()


def program_plan(program: Program, catalog: SkillCatalog) -> Plan:
    """The run's subtasks: one per step, in order, each depending on the one before and on the
    steps it refers to; a skill step carries its call, a GUI step its words."""
    subtasks = []
    previous: str | None = None
    for step in program.steps:
        needed = steps_used(step)
        apps = step_apps(step, catalog)
        app = apps[0] if len(apps) == 1 else ""
        depends = list(dict.fromkeys([*([previous] if previous else []), *needed]))
        # A call's line shows what a model may write: the check arguments code fills in
        # (``uses``, ``numbers``) are the call's, not words for a re-plan or a screen step.
        one = catalog.get(step.skill) if step.skill in catalog else None
        shown = step.model_copy(update={"args": one.written_by_a_model(step.args)}) if one else step
        subtasks.append(
            SubtaskSpec(
                id=step.id,
                description=step_description(shown),
                app=app,
                # A GUI step's description shows the values it uses where they exist (its
                # placeholders); it never waits for one that an earlier step did not report.
                inputs=[],
                outputs=list(step.outputs),
                depends_on=depends,
                environment=step.environment,
                skill="" if step.skill == GUI else step.skill,
                args=dict(step.args) if step.skill != GUI else {},
                files=list(step.files) if step.skill == GUI else [],
            )
        )
        previous = step.id
    return Plan(subtasks=subtasks)
