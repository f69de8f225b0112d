"""Templates for translating a document in the word processor: the English translation added
below the text, or saved as a new document.

Why: translating is one of the language steps a program takes (``translate_text``), and memory
held no program that does; shown only programs that open and format a document, the 1.5B
planner formatted the document it was asked to translate. The checks hold English words any
right translation of the note holds, so a translation in other words passes too.
"""

from __future__ import annotations

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import DOCUMENT_STEMS, FOREIGN_NOTES, ForeignNote
from pcagent.bench.tasks import DocumentSpec, FileFixture


class Translation(TemplateAttributes):
    #: Which of the vocabulary's notes (its index).
    note: int
    #: The new document's name without its ending ("" where the translation goes below).
    target: str = ""

    @property
    def source(self) -> ForeignNote:
        return FOREIGN_NOTES[self.note]

    @property
    def path(self) -> str:
        return f"Documents/{self.source.file_stem}.docx"

    @property
    def target_path(self) -> str:
        return f"Documents/{self.target}.docx"


class WriterTranslateBelow(SubtaskTemplate[Translation], spec="writer_translate_below"):
    """Add the English translation of a document's text below it, and save the document."""

    def draw(self, source: Draw) -> Translation:
        stem = source.names.pick(tuple(n.file_stem for n in FOREIGN_NOTES), "foreign note")
        return Translation(note=next(i for i, n in enumerate(FOREIGN_NOTES) if n.file_stem == stem))

    def build(self, attributes: Translation, slot: Slot) -> Fragment:
        a, note = attributes, attributes.source
        name = f"{note.file_stem}.docx"
        done = parts.NewWriterDocument(
            nodes=[
                parts.opened_node(slot, note.file_stem, f"{name} is open"),
                parts.node(
                    slot,
                    "translated",
                    "docx_text_after",
                    {"path": a.path, "anchor": note.anchor, "texts": list(note.words)},
                    after=[slot.node_id("opened")],
                    description=f"an English translation follows the {note.language} text",
                ),
            ],
            reference=[
                *gui.writer_open_file(a.path),
                gui.act("hotkey", keys=["ctrl", "end"]),
                gui.act("press", key="enter"),
                gui.act("type", text=note.english),
                gui.act("hotkey", keys=["ctrl", "s"]),
                gui.act("wait", seconds=2),
            ],
            reference_api=[
                gui.act("writer_open", path=a.path),
                gui.act("writer_insert", text=note.english),
                gui.act("writer_save"),
            ],
        )
        return self._fragment(a, slot, done, written=a.path)

    def _fragment(
        self, a: Translation, slot: Slot, done: parts.NewWriterDocument, *, written: str
    ) -> Fragment:
        """The parts both ways of translating share: the note as a fixture, and the program
        that reads it, translates it and writes the translation (below it when ``written`` is
        the note itself); ``done``: the sub-goals and reference solutions of the way taken."""
        note = a.source
        calls = (
            programs.call("s1", "read_document", path=a.path),
            programs.call(
                "s2", "translate_text", text=programs.reference("s1"), language="English"
            ),
            programs.call(
                "s3",
                "write_document",
                path=written,
                text=programs.reference("s2"),
                **({"append": True} if written == a.path else {}),
            ),
        )
        return self.fragment(
            a,
            slot,
            f"Translate {a.path} into English into {written}",
            words={"name": f"{note.file_stem}.docx", "language": note.language, "target": a.target},
            nodes=done.nodes,
            reference=done.reference,
            reference_api=done.reference_api,
            program=FragmentProgram(calls, output=programs.reference("s3")),
            files=[
                FileFixture(
                    path=a.path,
                    docx=DocumentSpec(title=note.title, paragraphs=list(note.paragraphs)),
                )
            ],
            output=parts.file_output(written),
        )


class WriterTranslateInto(WriterTranslateBelow, spec="writer_translate_into"):
    """Save the English translation of a document's text as a new document."""

    def draw(self, source: Draw) -> Translation:
        drawn = super().draw(source)
        target = source.names.pick(DOCUMENT_STEMS, "document name")
        return drawn.model_copy(update={"target": target})

    def build(self, attributes: Translation, slot: Slot) -> Fragment:
        a, note = attributes, attributes.source
        saved = parts.new_writer_document(
            slot,
            a.target,
            note.english,
            list(note.words),
            f"{a.target_path} holds an English translation",
        )
        return self._fragment(a, slot, saved, written=a.target_path)
