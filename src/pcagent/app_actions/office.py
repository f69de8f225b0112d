"""The application actions of LibreOffice: the word processor and the spreadsheet."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from pcagent import applications
from pcagent.action_base import Int
from pcagent.app_actions.base import AppAction, HomePath, OpensFile, ReadsFront

# --- word processor ------------------------------------------------------------------------------


class WriterOpen(OpensFile, application=applications.WRITER):
    """Open a document in the word processor by its path."""

    kind: Literal["writer_open"] = "writer_open"


class WriterRead(ReadsFront, application=applications.WRITER):
    """Read the paragraphs of the document in front, numbered from 0 (the title is usually 0)."""

    kind: Literal["writer_read"] = "writer_read"


class WriterInsert(AppAction, application=applications.WRITER):
    """Insert text into the document in front: at the end, before or after a paragraph, or in
    place of a paragraph's text."""

    kind: Literal["writer_insert"] = "writer_insert"
    text: str = Field(min_length=1, max_length=10_000, description="Text; \\n starts a paragraph.")
    where: Literal["end", "after", "before", "replace"] = Field(
        "end", description="Where the text goes, relative to paragraph."
    )
    paragraph: Int | None = Field(
        None, ge=0, description="Paragraph number (from writer_read); not for where=end."
    )

    @model_validator(mode="after")
    def _paragraph_when_needed(self) -> WriterInsert:
        if self.where != "end" and self.paragraph is None:
            raise PydanticCustomError(
                "paragraph_missing", "where={where} needs a paragraph number", {"where": self.where}
            )
        return self


class WriterFormat(AppAction, application=applications.WRITER):
    """Format whole paragraphs of the document in front, chosen by number or by the text they
    contain: bold, italic, underline, alignment, line spacing, font size or a size step."""

    kind: Literal["writer_format"] = "writer_format"
    paragraphs: tuple[Int, ...] = Field((), description="Paragraph numbers, e.g. [1, 2].")
    matching: str = Field("", description="Or: every paragraph containing this text.")
    bold: bool | None = Field(None, description="true: bold; false: not bold.")
    italic: bool | None = Field(None, description="true: italic; false: not italic.")
    underline: bool | None = Field(None, description="true: underlined; false: not.")
    alignment: Literal["left", "center", "right", "justify"] | None = Field(
        None, description="Paragraph alignment."
    )
    line_spacing: float | None = Field(
        None, ge=0.5, le=4, description="Proportional line spacing, e.g. 1.5."
    )
    font_size: float | None = Field(None, ge=1, le=400, description="Font size in points.")
    size_step: Literal["larger", "smaller"] | None = Field(
        None, description="One step of the font size list up or down."
    )

    @model_validator(mode="after")
    def _target_and_change(self) -> WriterFormat:
        if not self.paragraphs and not self.matching:
            raise PydanticCustomError(
                "no_target", "name the paragraphs (numbers) or text they contain (matching)"
            )
        changes = (self.bold, self.italic, self.underline, self.alignment, self.line_spacing)
        if all(value is None for value in (*changes, self.font_size, self.size_step)):
            raise PydanticCustomError("no_change", "give at least one format to apply")
        if any(number < 0 for number in self.paragraphs):
            raise PydanticCustomError("paragraph_negative", "paragraph numbers start at 0")
        return self


class WriterSave(AppAction, application=applications.WRITER):
    """Save the document in front; with path, save a copy under that name (save as). The format
    follows the path's suffix (.docx unless it says otherwise)."""

    kind: Literal["writer_save"] = "writer_save"
    path: HomePath = Field("", description="Empty: save where it is. Else the new path in HOME.")


# --- spreadsheet ---------------------------------------------------------------------------------

_CELL = r"^\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6}$"
_RANGE = r"^\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6}(:\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6})?$"


class SheetOpen(OpensFile, application=applications.SPREADSHEET):
    """Open a workbook in the spreadsheet by its path."""

    kind: Literal["sheet_open"] = "sheet_open"


class SheetRead(ReadsFront, application=applications.SPREADSHEET):
    """Read the cells of the sheet in front: a range such as "A1:C10", or all used cells."""

    kind: Literal["sheet_read"] = "sheet_read"
    # One anchored pattern, the whole of it optional: llama.cpp's grammar converter warns about
    # anchors inside a pattern ("...$|^$") on every call.
    range: str = Field(
        "", pattern=f"^({_RANGE[1:-1]})?$", description='e.g. "A1:C10"; empty: all used.'
    )


class SheetSet(AppAction, application=applications.SPREADSHEET):
    """Write values or formulas (text starting with "=") into the sheet in front, row by row,
    starting at cell."""

    kind: Literal["sheet_set"] = "sheet_set"
    cell: str = Field(pattern=_CELL, description='Top-left cell, e.g. "B2".')
    values: tuple[tuple[str | float, ...], ...] = Field(
        min_length=1, description='Rows of values, e.g. [["Total", "=SUM(B2:B9)"]].'
    )

    @field_validator("values")
    @classmethod
    def _rows_not_empty(
        cls, values: tuple[tuple[str | float, ...], ...]
    ) -> tuple[tuple[str | float, ...], ...]:
        if any(not row for row in values):
            raise PydanticCustomError("row_empty", "every row needs at least one value")
        if sum(len(row) for row in values) > 10_000:
            raise PydanticCustomError("too_many_cells", "at most 10000 cells per action")
        return values


class SheetSort(AppAction, application=applications.SPREADSHEET):
    """Sort the rows of a range of the sheet in front by one column."""

    kind: Literal["sheet_sort"] = "sheet_sort"
    range: str = Field(pattern=_RANGE, description='e.g. "A1:C20".')
    column: str = Field(pattern=r"^[A-Za-z]{1,3}$", description='Column to sort by, e.g. "B".')
    descending: bool = Field(False, description="true: largest first.")
    header: bool = Field(True, description="true: the first row is a header and stays on top.")


class SheetSave(AppAction, application=applications.SPREADSHEET):
    """Save the workbook in front; with path, save a copy under that name (save as). The format
    follows the path's suffix (.xlsx unless it says otherwise)."""

    kind: Literal["sheet_save"] = "sheet_save"
    path: HomePath = Field("", description="Empty: save where it is. Else the new path in HOME.")
