"""Templates for the office applications: a new document, formatting a document, a new workbook."""

from __future__ import annotations

from typing import ClassVar

from pydantic import JsonValue

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.formattings import (
    FORMAT_WORDS,
    Formatting,
    draw_formattings,
    format_calls,
    format_parts,
)
from pcagent.bench.generate.programs import FragmentProgram, given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import (
    ARTICLES,
    DOCUMENT_STEMS,
    NUMBERS,
    SHEET_LABELS,
    WORKBOOK_STEMS,
)
from pcagent.bench.generate.wording import refer_to
from pcagent.bench.tasks import DocumentSpec, FileFixture


class _OfficeFile(TemplateAttributes):
    """Attributes of a sub-task on one office file in Documents, named by its stem."""

    stem: str
    suffix: ClassVar[str] = ".docx"

    @property
    def path(self) -> str:
        return f"Documents/{self.stem}{self.suffix}"


# --- writer: a new document holding a value ------------------------------------------------------


class NewDocument(_OfficeFile):
    text: str
    value_text: str


class WriterNewDocument(SubtaskTemplate[NewDocument], spec="writer_new_document"):
    """Write a value into a new word-processor document and save it as .docx under a name."""

    def draw(self, source: Draw) -> NewDocument:
        stem = source.names.pick(DOCUMENT_STEMS, "document name")
        line = parts.line_to_write(source.rng, source.given, self.consumes, " this week: ")
        return NewDocument(
            stem=stem,
            text=line.text,
            value_text=line.value_text,
            reference_to_previous=line.reference_to_previous,
        )

    def build(self, attributes: NewDocument, slot: Slot) -> Fragment:
        a = attributes
        what = a.reference_to_previous or f'the sentence "{a.text}"'
        saved = parts.new_writer_document(
            slot, a.stem, a.text, [a.value_text], f"{a.path} holds {a.value_text}"
        )
        return self.fragment(
            a,
            slot,
            f"Write {a.value_text} into {a.path}",
            words={"what": what, "stem": a.stem},
            nodes=saved.nodes,
            reference=saved.reference,
            reference_api=saved.reference_api,
            program=parts.writing_call("write_document", a.path, a.text, a.reference_to_previous),
            output=parts.file_output(a.path),
        )


# --- writer: format paragraphs of an existing document ----------------------------------------


class DocumentFormatting(_OfficeFile):
    title: str
    paragraphs: list[str]
    #: One or two formattings, in the order the instruction names them.
    formattings: list[Formatting]
    #: Whether the sub-task before wrote and opened the document (no file of this one's own).
    given_document: bool = False


class WriterFormatDocument(SubtaskTemplate[DocumentFormatting], spec="writer_format_document"):
    """Open a document in the word processor, format one or two of its paragraphs, and save it."""

    def draw(self, source: Draw) -> DocumentFormatting:
        given = source.given_as("document")
        if given is not None:
            stem = given.file_name.removesuffix(".docx")
        else:
            stem = source.names.pick(tuple(a.file_stem for a in ARTICLES), "article")
        article = next(a for a in ARTICLES if a.file_stem == stem)
        return DocumentFormatting(
            stem=stem,
            title=article.title,
            paragraphs=list(article.paragraphs),
            formattings=draw_formattings(source.rng),
            given_document=given is not None,
        )

    def build(self, attributes: DocumentFormatting, slot: Slot) -> Fragment:
        a = attributes
        name = f"{a.stem}.docx"
        opened = slot.node_id("opened")
        formats = [format_parts(f, a.path, a.paragraphs[-1]) for f in a.formattings]
        words = " and ".join(FORMAT_WORDS[f][0] for f in a.formattings)
        result = " and ".join(FORMAT_WORDS[f][1] for f in a.formattings)
        calls = format_calls(given() if a.given_document else a.path, formats)
        return self.fragment(
            a,
            slot,
            f"Open {a.path}, {words}, save",
            words={"name": name, "change": words, "result": result},
            nodes=[
                parts.opened_node(slot, a.stem, f"{name} is open"),
                *(
                    parts.node(
                        slot,
                        "formatted" if number == 0 else f"formatted_{number + 1}",
                        part.checker,
                        part.params,
                        after=[opened],
                        description=FORMAT_WORDS[formatting][0],
                    )
                    for number, (formatting, part) in enumerate(
                        zip(a.formattings, formats, strict=True)
                    )
                ),
            ],
            reference=[
                *gui.writer_open_file(a.path),
                *(step for part in formats for step in part.steps),
                gui.act("hotkey", keys=["ctrl", "s"]),
                gui.act("wait", seconds=2),
            ],
            reference_api=[
                gui.act("writer_open", path=a.path),
                *(part.api for part in formats),
                gui.act("writer_save"),
            ],
            program=FragmentProgram(calls, output=programs.reference(calls[-1].id)),
            files=[]
            if a.given_document
            else [
                FileFixture(path=a.path, docx=DocumentSpec(title=a.title, paragraphs=a.paragraphs))
            ],
            output=parts.file_output(a.path),
        )


class WriterFormatOpened(WriterFormatDocument, spec="writer_format_opened"):
    """Format the document the file manager opened in the sub-task before (its own phrasings
    speak of "it"), and save it."""


# --- spreadsheet: values into cells ----------------------------------------------------------


class SheetFilling(_OfficeFile):
    suffix: ClassVar[str] = ".xlsx"
    rows: list[tuple[str, int]]


class SpreadsheetFillCells(SubtaskTemplate[SheetFilling], spec="spreadsheet_fill_cells"):
    """Put labels and numbers into a new spreadsheet and save it as .xlsx under a name."""

    def draw(self, source: Draw) -> SheetFilling:
        stem = source.names.pick(WORKBOOK_STEMS, "workbook name")
        labels = source.rng.sample(SHEET_LABELS, 2)
        if (given := source.given_as("number")) is not None:
            return SheetFilling(
                stem=stem,
                rows=[(labels[0], int(given.text))],
                reference_to_previous=refer_to(given),
            )
        return SheetFilling(
            stem=stem, rows=[(label, source.rng.choice(NUMBERS)) for label in labels]
        )

    def build(self, attributes: SheetFilling, slot: Slot) -> Fragment:
        a = attributes
        # A carried value is the only row's, named the way the sub-task before gave it.
        cells = " and ".join(
            f'"{label}" in cell A{row} and {a.reference_to_previous or value} in cell B{row}'
            for row, (label, value) in enumerate(a.rows, start=1)
        )
        typed = "".join(f"{label}\t{value}\n" for label, value in a.rows)
        shown = ", ".join(f"{label} {value}" for label, value in a.rows)
        return self.fragment(
            a,
            slot,
            f"Write {shown} into {a.path}",
            words={"cells": cells, "stem": a.stem},
            nodes=[
                parts.node(
                    slot,
                    "sheet",
                    "xlsx_rows",
                    {"path": a.path, "rows": [[label, str(value)] for label, value in a.rows]},
                    description=f"{a.path} has the rows {shown}",
                ),
            ],
            reference=parts.new_document(
                "spreadsheet",
                typed,
                gui.office_save_new_document(f"Documents/{a.stem}", f"{a.stem}.xlsx"),
            ),
            reference_api=[
                gui.act("open_app", app="spreadsheet"),
                gui.act("sheet_set", cell="A1", values=[[label, value] for label, value in a.rows]),
                gui.act("sheet_save", path=a.path),
            ],
            program=parts.one_call("fill_cells", rows=self._rows(a), save_as=a.path),
            output=parts.file_output(a.path),
        )

    @staticmethod
    def _rows(a: SheetFilling) -> list[JsonValue]:
        """The rows for ``fill_cells``: a carried value is the only row's number."""
        if a.reference_to_previous:
            return [[label, given()] for label, _ in a.rows]
        return [[label, value] for label, value in a.rows]
