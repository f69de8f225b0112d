"""Pieces that several sub-task templates build the same way.

Templates of different applications still share much of what they produce: a value carried from
the sub-task before or written out, a program of one skill call, a file handed on to the next
sub-task, the node and step that end a task by telling a value, the steps that look a value up
in text, and the sub-goal node every template checks its work with (:func:`node`). Each lives
here once, so every template words, checks and solves them alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.flow import FlowValue, ValueKind
from pcagent.bench.generate.programs import FragmentProgram, given
from pcagent.bench.generate.template_base import Slot
from pcagent.bench.generate.vocabulary import NUMBERS, SHEET_LABELS
from pcagent.bench.generate.wording import refer_to
from pcagent.bench.tasks import ReferenceStep, SubGoal


def capitalized(description: str) -> str:
    """A value's description as a label that starts a line ("Departure time: 06:35")."""
    return description[:1].upper() + description[1:]


def carried_or(reference_to_previous: str, literal: JsonValue) -> JsonValue:
    """A program argument: the value handed on by the step before when the instruction refers
    to it, else the literal the instruction gives."""
    return given() if reference_to_previous else literal


def one_call(skill: str, *, hands_on: bool = True, **args: JsonValue) -> FragmentProgram:
    """A program of one skill call; ``hands_on``: its result is the sub-task's output."""
    step = programs.call("s1", skill, **args)
    if hands_on:
        return FragmentProgram((step,), output=programs.reference("s1"))
    return FragmentProgram((step,))


def writing_call(skill: str, path: str, text: str, reference_to_previous: str) -> FragmentProgram:
    """A program of one call of the writing ``skill``: ``text`` (or the value handed on, when the
    instruction refers to it) into the file ``path``."""
    return one_call(skill, path=path, text=carried_or(reference_to_previous, text))


def file_output(path: str, kind: ValueKind = "file") -> FlowValue:
    """A saved file handed on to the next sub-task, named by its file name (``kind``: a file,
    or one of a kind a sub-task takes only, a script)."""
    return FlowValue(kind=kind, text=path, description=path.rsplit("/", 1)[-1])


def opened_node(slot: Slot, text: str, description: str, *, final: bool = False) -> SubGoal:
    """The node "a window whose title holds ``text`` is open": passing (the sub-task goes on
    in that window) unless ``final`` (opening is the sub-task)."""
    return node(
        slot,
        "opened",
        "window_title_contains",
        {"text": text},
        final=final,
        description=description,
    )


def folder_words(path: str) -> str:
    """Where a file in HOME is, as an instruction says it: "the Documents folder", or "the
    folder Documents/Trips"."""
    folder = path.rsplit("/", 1)[0]
    return "the Documents folder" if folder == "Documents" else f"the folder {folder}"


def new_document(app: str, text: str, save: list[ReferenceStep]) -> list[ReferenceStep]:
    """The reference steps that type ``text`` into a new document of ``app`` and save it."""
    return [gui.act("open_app", app=app), gui.act("type", text=text), *save]


#: How the application-action reference writes a new file and saves it, by application: the
#: action that puts the text in, and the one that saves it under a path.
_API_WRITES = {
    "text_editor": ("type", "editor_save_as"),
    "writer": ("writer_insert", "writer_save"),
}


def api_new_document(app: str, text: str, path: str) -> list[ReferenceStep]:
    """The application-action reference steps that write ``text`` into a new document of
    ``app`` (the text editor or the word processor) and save it as ``path``."""
    write, save = _API_WRITES[app]
    return [
        gui.act("open_app", app=app),
        gui.act(write, text=text),
        gui.act(save, path=path),
    ]


@dataclass(frozen=True)
class NewWriterDocument:
    """A sub-task's sub-goals and both its reference solutions (as
    :func:`new_writer_document` makes them for a new document)."""

    nodes: list[SubGoal]
    reference: list[ReferenceStep]
    reference_api: list[ReferenceStep]


def new_writer_document(
    slot: Slot, stem: str, text: str, checked: list[str], description: str
) -> NewWriterDocument:
    """A new word-processor document saved as ``Documents/<stem>.docx`` holding ``text``: its
    two sub-goals (saved, and holding ``checked``) and both reference solutions."""
    path = f"Documents/{stem}.docx"
    return NewWriterDocument(
        nodes=[
            node(slot, "saved", "file_exists", {"path": path}),
            node(
                slot,
                "written",
                "docx_contains",
                {"path": path, "texts": checked},
                after=[slot.node_id("saved")],
                description=description,
            ),
        ],
        reference=new_document(
            "writer", text + "\n", gui.office_save_new_document(f"Documents/{stem}", f"{stem}.docx")
        ),
        reference_api=api_new_document("writer", text, path),
    )


@dataclass(frozen=True)
class Line:
    """A line to write: the carried value labelled by its description, or a drawn number."""

    text: str
    kind: ValueKind
    value_text: str
    reference_to_previous: str = ""


def line_to_write(
    rng: random.Random, given_value: FlowValue | None, accepted: frozenset[ValueKind], joiner: str
) -> Line:
    """The line a writing template puts down: ``given_value`` when it is of an ``accepted``
    kind, else a drawn label and number joined by ``joiner`` (": ", " this week: ")."""
    if given_value is not None and given_value.kind in accepted:
        return Line(
            text=f"{capitalized(given_value.description)}: {given_value.text}",
            kind=given_value.kind,
            value_text=given_value.text,
            reference_to_previous=refer_to(given_value),
        )
    number = rng.choice(NUMBERS)
    return Line(
        text=f"{rng.choice(SHEET_LABELS)}{joiner}{number}", kind="number", value_text=str(number)
    )


def report_parts(
    slot: Slot, value: str, after: str | None
) -> tuple[list[SubGoal], list[ReferenceStep]]:
    """The answer node and step that end a task by telling ``value`` (none when the task goes
    on after this sub-task); the node comes after the node ``after`` of this sub-task, or,
    None, after the sub-task before (a sub-task whose reading no checker sees)."""
    if not slot.report:
        return [], []
    return (
        [
            node(
                slot,
                "reported",
                "answer_is",
                {"value": value},
                after=[after] if after is not None else None,
                description=f"the agent reported {value}",
            )
        ],
        [gui.act("answer", text=value)],
    )


def lookup_program(
    slot: Slot, opened: Sequence[ProgramStep], name: str, description: str
) -> FragmentProgram:
    """The steps that open a text (a file, a page), pick the value ``name`` out of it, and
    (when the task ends with it) tell it."""
    page = opened[-1].id
    found = f"s{len(opened) + 1}"
    steps = [
        *opened,
        programs.call(
            found, "extract_values", text=programs.reference(page), names=[name], what=description
        ),
    ]
    if slot.report:
        steps.append(programs.report(f"s{len(steps) + 1}", programs.reference(found, name)))
    return FragmentProgram(tuple(steps), output=programs.reference(found, name))


def saved_node(slot: Slot, path: str) -> SubGoal:
    """The sub-goal that ``path`` is saved (a new file the sub-task writes)."""
    return node(slot, "saved", "file_exists", {"path": path}, description=f"{path} is saved")


def node(
    slot: Slot,
    name: str,
    checker: str,
    params: dict[str, Any],
    *,
    after: list[str] | None = None,
    final: bool = True,
    description: str = "",
) -> SubGoal:
    """A sub-goal of ``slot``'s subtask. Without ``after`` it comes after the nodes of the
    sub-task it depends on (``slot.after``)."""
    return SubGoal(
        id=slot.node_id(name),
        subtask=slot.subtask_id,
        checker=checker,
        params=params,
        after=list(slot.after) if after is None else after,
        final=final,
        description=description,
    )
