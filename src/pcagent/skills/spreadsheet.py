"""Skills in the spreadsheet: cells filled, workbooks read and sorted; each save is checked on
disk."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator

from pcagent import actions as act
from pcagent.app_actions import SheetOpen, SheetRead, SheetSave, SheetSet, SheetSort
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import SheetPath, SheetTarget, do, home_file, opened_and_read
from pcagent.skills.numbers_written import cell_value
from pcagent.skills.sheet_labels import filled_beside_labels

_Workbook = Annotated[
    SheetPath, Field(min_length=1, max_length=400, description='e.g. "Documents/a.xlsx".')
]


Cell = str | float


class FillCells(SkillParameters):
    path: SheetTarget = Field(
        "", max_length=400, description='Workbook to open first, e.g. "Documents/a.xlsx"; '
        "empty: a new sheet.",
    )  # fmt: skip
    cell: str = Field("A1", pattern=r"^[A-Za-z]{1,3}[1-9][0-9]{0,6}$", description="Top-left.")
    rows: list[list[Cell]] = Field(
        min_length=1,
        description='e.g. [["Name", "Price"], ["A", 3]].',
        json_schema_extra={"given": "cells"},
    )
    save_as: SheetTarget = Field(
        "", max_length=400, description="Path to save under; empty: in place."
    )

    @field_validator("rows", mode="after")
    @classmethod
    def _ratings_as_scores(cls, rows: list[list[Cell]]) -> list[list[Cell]]:
        return [[cell_value(cell) for cell in row] for row in rows]  # type: ignore[misc]


@skill(
    "Write rows of values or formulas into a spreadsheet from a cell on, then save it.",
    apps=("spreadsheet",),
    returns="the saved path",
    writes=("path", "save_as"),
)
def fill_cells(context: SkillContext, parameters: FillCells) -> SkillResult:
    # A new sheet saved over a workbook that is there is refused when saving, after the work:
    # told so, the re-plan of "enter both ratings into movie_rate.xlsx" had no way to the
    # workbook's cells (a rewording of pc11, 2026-12-03). Rows labelled as the workbook's own
    # rows are written beside those labels (sheet_labels); else it is said before anything.
    target = home_file(context, parameters.save_as) if parameters.save_as else None
    if not parameters.path and target is not None and target.is_file():
        beside = filled_beside_labels(context, parameters.save_as, parameters.rows)
        if beside is not None:
            return beside
        return SkillResult.failed(
            f"{parameters.save_as} is there already and a new sheet would replace it: to write "
            f'into it, give path="{parameters.save_as}" and the top-left cell (read_sheet shows '
            "its cells), or rows whose first values are labels its cells hold; to keep both, "
            "save_as another name"
        )
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
    "Open a workbook and read its used cells.",
    apps=("spreadsheet",),
    returns="the cells as text",
    reads=("path",),
    only_reads=True,
)
def read_sheet(context: SkillContext, parameters: ReadSheet) -> SkillResult:
    return opened_and_read(context, SheetOpen(path=parameters.path), SheetRead())


class SortSheet(SkillParameters):
    path: _Workbook
    range: str = Field(pattern=r"^[A-Za-z]{1,3}[1-9][0-9]{0,6}:[A-Za-z]{1,3}[1-9][0-9]{0,6}$")
    column: str = Field(pattern=r"^[A-Za-z]{1,3}$", description="Column to sort by.")
    descending: bool = False
    header: bool = True


@skill(
    "Sort a range of a workbook by one column and save it.",
    apps=("spreadsheet",),
    writes=("path",),
    reads=("path",),
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
