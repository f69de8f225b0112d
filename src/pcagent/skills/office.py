"""Skills in the word processor and the spreadsheet: documents written, read and formatted,
cells filled and sorted; each save is checked on disk."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationError, model_validator

from pcagent import actions as act
from pcagent.app_actions import (
    SheetOpen,
    SheetRead,
    SheetSave,
    SheetSet,
    SheetSort,
    WriterFormat,
    WriterInsert,
    WriterOpen,
    WriterRead,
    WriterSave,
)
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.desktop_apps import (
    DocumentPath,
    SheetPath,
    contains,
    do,
    document_text,
    home_file,
    opened_and_read,
)

_PATH = 'In HOME, e.g. "Documents/report.docx"; the suffix picks the format.'
_Document = Annotated[DocumentPath, Field(min_length=1, max_length=400, description=_PATH)]
_Workbook = Annotated[
    SheetPath, Field(min_length=1, max_length=400, description='e.g. "Documents/a.xlsx".')
]


class WriteDocument(SkillParameters):
    path: _Document
    text: str = Field(min_length=1, max_length=10_000, description="The text; \\n: new paragraph.")


@skill(
    "write_document",
    "Create a new word-processor document with the text and save it under path.",
    WriteDocument,
    apps=("writer",),
    returns="the saved path",
    writes=("path",),
)
def write_document(context: SkillContext, parameters: WriteDocument) -> SkillResult:
    do(context, act.OpenApp(app="writer"))
    do(context, WriterInsert(text=parameters.text))
    saved = do(context, WriterSave(path=parameters.path))
    path = (saved.output or parameters.path).removeprefix("~/")
    text = document_text(context, path)
    first = parameters.text.strip().splitlines()[0]
    if text is not None and not contains(text, first):
        return SkillResult.failed(f"{path} was saved without the text", text[:300])
    return SkillResult(True, path, evidence=f"{path} saved with the text")


class ReadDocument(SkillParameters):
    path: _Document


@skill(
    "read_document",
    "Open a word-processor document and read its paragraphs, numbered from 0.",
    ReadDocument,
    apps=("writer",),
    returns="the numbered paragraphs",
)
def read_document(context: SkillContext, parameters: ReadDocument) -> SkillResult:
    return opened_and_read(context, WriterOpen(path=parameters.path), WriterRead())


class FormatParagraphs(SkillParameters):
    path: _Document
    paragraphs: list[int] = Field(
        default_factory=list,
        max_length=200,
        description="Paragraph numbers from 0 (as read_document numbers them); -1 is the last.",
    )
    matching: str = Field("", max_length=200, description="Or: paragraphs containing this text.")
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    alignment: Literal["left", "center", "right", "justify"] | None = None
    line_spacing: float | None = Field(None, ge=0.5, le=4)
    font_size: float | None = Field(None, ge=1, le=400)
    save: bool = Field(True, description="true: save the document afterwards.")

    @model_validator(mode="after")
    def _something(self) -> FormatParagraphs:
        if not self.paragraphs and not self.matching:
            raise ValueError("name the paragraphs (numbers) or a text they contain (matching)")
        return self


@skill(
    "format_paragraphs",
    "Format paragraphs of a document (bold, italic, underline, alignment, line spacing, font "
    "size) and save it. One call per set of paragraphs with the same format.",
    FormatParagraphs,
    apps=("writer",),
    writes=("path",),
)
def format_paragraphs(context: SkillContext, parameters: FormatParagraphs) -> SkillResult:
    opened = do(context, WriterOpen(path=parameters.path))
    count = (opened.output or "").count("\n") + 1 if opened.output else 0
    numbers = tuple(n if n >= 0 else count + n for n in parameters.paragraphs)
    if any(n < 0 for n in numbers):
        return SkillResult.failed(f"the document has {count} paragraphs")
    change = parameters.model_dump(
        include={"bold", "italic", "underline", "alignment", "line_spacing", "font_size"},
        exclude_none=True,
    )
    try:
        action = WriterFormat(paragraphs=numbers, matching=parameters.matching, **change)
    except ValidationError as error:
        return SkillResult.failed(f"format_paragraphs: {error.errors()[0]['msg']}")
    formatted = do(context, action)
    if parameters.save:
        do(context, WriterSave())
    if not formatted.verified:
        return SkillResult.failed("the format could not be read back from the document")
    return SkillResult(True, parameters.path, evidence=formatted.message)


Cell = str | float


class FillCells(SkillParameters):
    path: str = Field(
        "", max_length=400, description='Workbook to open first, e.g. "Documents/a.xlsx"; '
        "empty: a new sheet.",
    )  # fmt: skip
    cell: str = Field("A1", pattern=r"^[A-Za-z]{1,3}[1-9][0-9]{0,6}$", description="Top-left.")
    rows: list[list[Cell]] = Field(min_length=1, description='e.g. [["Name", "Price"], ["A", 3]].')
    save_as: str = Field("", max_length=400, description="Path to save under; empty: in place.")


@skill(
    "fill_cells",
    "Write rows of values or formulas into a spreadsheet from a cell on, then save it.",
    FillCells,
    apps=("spreadsheet",),
    returns="the saved path",
    writes=("path", "save_as"),
)
def fill_cells(context: SkillContext, parameters: FillCells) -> SkillResult:
    rows = tuple(tuple(row) for row in parameters.rows if row)
    if parameters.path:
        do(context, SheetOpen(path=parameters.path))
    else:
        do(context, act.OpenApp(app="spreadsheet"))
    do(context, SheetSet(cell=parameters.cell, values=rows))
    saved = do(context, SheetSave(path=parameters.save_as))
    path = (saved.output or parameters.save_as or parameters.path).removeprefix("~/")
    file = home_file(context, path)
    if file is not None and not file.is_file():
        return SkillResult.failed(f"{path} is not on disk after saving")
    return SkillResult(True, path, evidence=saved.message)


class ReadSheet(SkillParameters):
    path: _Workbook


@skill(
    "read_sheet",
    "Open a workbook and read its used cells.",
    ReadSheet,
    apps=("spreadsheet",),
    returns="the cells as text",
)
def read_sheet(context: SkillContext, parameters: ReadSheet) -> SkillResult:
    return opened_and_read(context, SheetOpen(path=parameters.path), SheetRead())


class SortSheet(SkillParameters):
    path: _Workbook
    range: str = Field(pattern=r"^[A-Za-z]{1,3}[1-9][0-9]*:[A-Za-z]{1,3}[1-9][0-9]*$")
    column: str = Field(pattern=r"^[A-Za-z]{1,3}$", description="Column to sort by.")
    descending: bool = False
    header: bool = True


@skill(
    "sort_sheet",
    "Sort a range of a workbook by one column and save it.",
    SortSheet,
    apps=("spreadsheet",),
    writes=("path",),
)
def sort_sheet(context: SkillContext, parameters: SortSheet) -> SkillResult:
    do(context, SheetOpen(path=parameters.path))
    sorted_ = do(
        context,
        SheetSort(
            range=parameters.range,
            column=parameters.column,
            descending=parameters.descending,
            header=parameters.header,
        ),
    )
    do(context, SheetSave())
    return SkillResult(True, parameters.path, evidence=sorted_.message)
