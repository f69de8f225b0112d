"""Gold programs of generated tasks: each template's steps, joined into the task's program.

A template knows which skills do its sub-task (a note is read with ``read_text_file`` and its
value picked out with ``extract_values``; an alarm is ``set_alarm``), so its fragment carries
the program steps for it, in the Manager's program format
(:class:`~pcagent.agents.program.ProgramStep`). The steps of one fragment are numbered from
``s1`` on their own; the value the sub-task before produced is the reference :func:`given`.
:func:`join_programs` numbers the steps of the whole task ``s1``, ``s2``… and turns each
``given`` into the reference to the step that produced the value, so a training task's
instruction comes with the program that does it (what long-term memory shows the Manager).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import JsonValue

from pcagent.agents.program import GUI, ProgramStep, is_reference
from pcagent.errors import BenchError

#: The step id a fragment's program uses for the sub-task before it (its value is ``given``).
GIVEN = "given"
#: The same inside a text argument ("{given} * 3"), written as the step's slot when joined.
GIVEN_SLOT = "{given}"


class ProgramJoinError(BenchError):
    """Fragments whose programs do not join (a value taken where none was produced)."""


@dataclass(frozen=True)
class FragmentProgram:
    """A fragment's part of the task's program.

    ``steps`` are numbered ``s1``… within the fragment; ``output`` is what the next sub-task
    takes from this one: a reference to the step whose value it is (``{"from": "s2", "key":
    "time"}``), or a literal where no step's value is it (``move_files`` gives every moved
    path, the next sub-task takes one of them), or None when the fragment produces nothing.
    """

    steps: tuple[ProgramStep, ...]
    output: JsonValue = None
    #: Whether the steps take the value the sub-task before produced.
    takes_given: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "takes_given", any(_mentions_given(s) for s in self.steps))


def given() -> dict[str, JsonValue]:
    """The reference to the value the sub-task before produced."""
    return {"from": GIVEN}


def reference(step_id: str, key: str = "") -> dict[str, JsonValue]:
    """``{"from": step_id}`` or, for one named value of an object, with ``"key"``."""
    return {"from": step_id, "key": key} if key else {"from": step_id}


def call(step_id: str, skill: str, **args: JsonValue) -> ProgramStep:
    """A step that calls ``skill`` with ``args`` (literals or references)."""
    return ProgramStep(id=step_id, skill=skill, args=args)


def file_read(path: str, names: Sequence[str], what: str) -> list[ProgramStep]:
    """The two steps that begin a program working on a note: s1 reads the file at ``path``,
    s2 picks the named values ``names`` (``what`` says what they are) out of its text."""
    return [
        call("s1", "read_text_file", path=path),
        call("s2", "extract_values", text=reference("s1"), names=list(names), what=what),
    ]


def gui(
    step_id: str, app: str, task: str, uses: Sequence[str] = (), outputs: Sequence[str] = ()
) -> ProgramStep:
    """A step done through the GUI where no skill fits: ``task`` in words, ``uses`` the ids
    of steps whose values it needs (``GIVEN`` for the sub-task before), ``outputs`` the names of
    the values it reports."""
    return ProgramStep(
        id=step_id, skill=GUI, app=app, task=task, uses=list(uses), outputs=list(outputs)
    )


def report(step_id: str, told: JsonValue) -> ProgramStep:
    """The step that tells the user a value (``told``: the reference to the step that found
    it), the answer a task that ends by telling a value is checked on."""
    return call(step_id, "tell_user", text=told)


def join_programs(programs: Sequence[FragmentProgram]) -> list[ProgramStep]:
    """The task's program: the fragments' steps in order, numbered ``s1``… across the task,
    each reference and ``uses`` rewritten to the new ids, and each :func:`given` replaced by
    the output of the fragment before.

    Raises :class:`ProgramJoinError` when a fragment takes a value the one before does not
    produce, or a GUI step ``uses`` a value that is a literal (it can only name steps).
    """
    steps: list[ProgramStep] = []
    previous: JsonValue = None
    for program in programs:
        if program.takes_given and previous is None:
            raise ProgramJoinError(
                "a sub-task takes the value of the one before, which produces none"
            )
        ids = {step.id: f"s{len(steps) + number}" for number, step in enumerate(program.steps, 1)}
        for step in program.steps:
            steps.append(
                step.model_copy(
                    update={
                        "id": ids[step.id],
                        "args": {
                            name: _renumbered(value, ids, previous)
                            for name, value in step.args.items()
                        },
                        "uses": [_used(use, ids, previous) for use in step.uses],
                    }
                )
            )
        previous = _renumbered(program.output, ids, previous)
    return steps


def _renumbered(value: JsonValue, ids: Mapping[str, str], previous: JsonValue) -> JsonValue:
    if is_reference(value):
        source = value["from"]  # type: ignore[index]
        if source == GIVEN:
            return previous
        return reference(ids.get(source, source), value.get("key", ""))  # type: ignore[union-attr,arg-type]
    if isinstance(value, str) and GIVEN_SLOT in value:
        return value.replace(GIVEN_SLOT, _as_slot(previous))
    if isinstance(value, dict):
        return {key: _renumbered(item, ids, previous) for key, item in value.items()}
    if isinstance(value, list):
        return [_renumbered(item, ids, previous) for item in value]
    return value


def _as_slot(previous: JsonValue) -> str:
    """The value before as it stands in a text: the slot of the step that produced it, or the
    literal itself."""
    if is_reference(previous):
        key = previous.get("key")  # type: ignore[union-attr]
        return f"{{{previous['from']}{'.' + key if key else ''}}}"  # type: ignore[index,operator]
    return str(previous)


def _used(step_id: str, ids: Mapping[str, str], previous: JsonValue) -> str:
    if step_id != GIVEN:
        return ids.get(step_id, step_id)
    if not is_reference(previous):
        raise ProgramJoinError(
            f"a gui step uses the value of the sub-task before, which is the literal {previous!r}"
            " (a gui step can only use steps' values)"
        )
    return previous["from"]  # type: ignore[index,return-value]


def _mentions_given(step: ProgramStep) -> bool:
    def walk(value: JsonValue) -> bool:
        if is_reference(value):
            return value["from"] == GIVEN  # type: ignore[index]
        if isinstance(value, str):
            return GIVEN_SLOT in value
        if isinstance(value, dict):
            return any(walk(item) for item in value.values())
        if isinstance(value, list):
            return any(walk(item) for item in value)
        return False

    return GIVEN in step.uses or any(walk(value) for value in step.args.values())
