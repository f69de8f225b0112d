"""Templates for the text editor: read a value from a note, write a value into a new file.

One module per application family, so a new template for the editor lands here and nowhere else.
"""

from __future__ import annotations

from typing import Literal

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.flow import FlowValue, ValueKind
from pcagent.bench.generate.notes import NOTE_TOPICS
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import (
    CITIES,
    NUMBERS,
    TEXT_FILE_STEMS,
    TIMES,
)
from pcagent.bench.generate.wording import clock_text
from pcagent.bench.tasks import FileFixture

# --- text editor: read a value from a note ---------------------------------------------------------

#: The kinds of value a note holds, one line each.
_NOTE_KINDS: tuple[ValueKind, ...] = ("number", "time", "city")


class NoteReading(TemplateAttributes):
    path: str
    title: str
    number_label: str
    number: int
    time_label: str
    hour: int
    minute: int
    city_label: str
    city: str
    asked: Literal["number", "time", "city"]
    description: str

    @property
    def value_text(self) -> str:
        if self.asked == "number":
            return str(self.number)
        if self.asked == "time":
            return clock_text(self.hour, self.minute)
        return self.city

    @property
    def lines(self) -> str:
        """The three values, a labelled line each."""
        return (
            f"{self.number_label}: {self.number}\n"
            f"{self.time_label}: {clock_text(self.hour, self.minute)}\n"
            f"{self.city_label}: {self.city}\n"
        )

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def draw_note_reading(source: Draw) -> NoteReading:
    """A topic's number, time and city, and which of them is asked for (the one the next
    sub-task needs, else any): what a note, or a mail, holds and a sub-task looks up."""
    topic_stem = source.names.pick(tuple(t.file_stem for t in NOTE_TOPICS), "note")
    topic = next(t for t in NOTE_TOPICS if t.file_stem == topic_stem)
    asked = source.wanted if source.wanted in _NOTE_KINDS else source.rng.choice(_NOTE_KINDS)
    hour, minute = source.rng.choice(TIMES)
    field = {"number": topic.number, "time": topic.time, "city": topic.city}[asked]
    return NoteReading(
        path=f"Documents/{topic.file_stem}.txt",
        title=topic.title,
        number_label=topic.number.label,
        number=source.rng.choice(NUMBERS),
        time_label=topic.time.label,
        hour=hour,
        minute=minute,
        city_label=topic.city.label,
        city=source.rng.choice(CITIES),
        asked=asked,
        description=field.description,
    )


class EditorReadValue(SubtaskTemplate[NoteReading], spec="editor_read_value"):
    """Open a note in the text editor and find one of its values (a number, a time, a city)."""

    def draw(self, source: Draw) -> NoteReading:
        return draw_note_reading(source)

    def build(self, attributes: NoteReading, slot: Slot) -> Fragment:
        a = attributes
        text = f"{a.title}\n\n{a.lines}"
        report_nodes, report_steps = parts.report_parts(slot, a.value_text, slot.node_id("opened"))
        return self.fragment(
            a,
            slot,
            f"Open {a.path} and find {a.description} ({a.value_text})",
            words={"file": a.file_name, "what": a.description},
            nodes=[
                parts.opened_node(slot, a.file_name, f"{a.file_name} is open in the editor"),
                *report_nodes,
            ],
            reference=[*gui.editor_open_file(a.path), *report_steps],
            reference_api=[gui.act("editor_open", path=a.path), *report_steps],
            # The value is named by its kind ("time"), as the Manager's own example names it.
            program=parts.lookup_program(
                slot,
                [programs.call("s1", "read_text_file", path=a.path)],
                a.asked,
                a.description,
            ),
            files=[FileFixture(path=a.path, text=text)],
            output=FlowValue(kind=a.asked, text=a.value_text, description=a.description),
        )


# --- text editor: write a value into a new file --------------------------------------------------


class NoteWriting(TemplateAttributes):
    path: str
    line: str
    kind: Literal["number", "time", "city"]
    value_text: str


class EditorWriteValue(SubtaskTemplate[NoteWriting], spec="editor_write_value"):
    """Write a value into a new text file in the text editor and save it under a name."""

    def draw(self, source: Draw) -> NoteWriting:
        path = f"Documents/{source.names.pick(TEXT_FILE_STEMS, 'text file name')}.txt"
        line = parts.line_to_write(source.rng, source.given, self.consumes, ": ")
        return NoteWriting(
            path=path,
            line=line.text,
            kind=line.kind,  # type: ignore[arg-type]
            value_text=line.value_text,
            reference_to_previous=line.reference_to_previous,
        )

    def build(self, attributes: NoteWriting, slot: Slot) -> Fragment:
        a = attributes
        name = a.path.rsplit("/", 1)[-1]
        what = a.reference_to_previous or f'the line "{a.line}"'
        if a.kind == "number":
            check = ("text_file_has_number", {"path": a.path, "value": a.value_text})
        else:
            check = ("text_file_contains", {"path": a.path, "texts": [a.value_text]})
        return self.fragment(
            a,
            slot,
            f"Write {a.value_text} into {a.path}",
            words={"what": what, "name": name},
            nodes=[
                parts.saved_node(slot, a.path),
                parts.node(slot, "value", *check, after=[slot.node_id("saved")]),
            ],
            reference=parts.new_document(
                "text_editor", a.line + "\n", gui.editor_save_new_file(a.path)
            ),
            reference_api=[
                gui.act("open_app", app="text_editor"),
                gui.act("type", text=a.line + "\n"),
                gui.act("editor_save_as", path=a.path),
            ],
            program=parts.writing_call("write_text_file", a.path, a.line, a.reference_to_previous),
            output=parts.file_output(a.path),
        )
