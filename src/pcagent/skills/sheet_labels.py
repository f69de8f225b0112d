"""Rows whose first values are labels a workbook already holds, written beside those labels.

Why: told to look two films' ratings up and "fill in the two ratings" of movie_rate.xlsx, whose
first column lists the films with their rating cells empty, the 1.5B planner wrote what the
skills offer, ``fill_cells(rows=[["Interstellar", 8.7], ["12 Angry Men", 9.0]],
save_as="Documents/movie_rate.xlsx")``: a new sheet saved over the workbook. That is refused
(the person's workbook would be replaced), and no re-plan found the cells (pc11 and both its
rewordings at 5c481a6, 2026-12-06): a program is written before the sheet is seen, and which
cell is B2 is on the sheet. Where every row's first value is the text of exactly one cell of the
workbook, the rows can only mean "these values beside these labels": each row's other values are
written into the cells right of its label, and the workbook is saved in place. Anything else (a
label the sheet lacks or holds twice) leaves the refusal as it was, before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.app_actions import SheetOpen, SheetRead, SheetSave, SheetSet
from pcagent.env.office_sheet_actions import cell_position, column_name
from pcagent.skills.base import SkillContext, SkillResult
from pcagent.skills.common import do
from pcagent.text import comparable

#: A cell as rows hold it: a text or a number.
Value = str | float


def sheet_cells(reading: str) -> dict[str, str]:
    """The cells of a sheet reading (``sheet_read``'s lines: "A1: Movie | B1: Rating"), each
    address with what it shows (a formula's result after its "->")."""
    cells: dict[str, str] = {}
    for line in reading.splitlines()[1:]:
        for entry in line.split(" | "):
            address, _, shown = entry.partition(": ")
            if address and address.isalnum() and shown:
                cells[address] = shown.rsplit(" -> ", 1)[-1]
    return cells


def label_places(cells: dict[str, str], rows: Sequence[Sequence[Value]]) -> list[str] | None:
    """The address of the cell right of each row's label (its first value, a text), where each
    label is the text of exactly one cell; None where one is not."""
    places = []
    for row in rows:
        label = row[0] if row else None
        if not isinstance(label, str) or not label.strip() or len(row) < 2:
            return None
        found = [
            address for address, shown in cells.items() if comparable(shown) == comparable(label)
        ]
        if len(found) != 1:
            return None
        column, row_index = cell_position(found[0])
        places.append(f"{column_name(column + 1)}{row_index + 1}")
    return places


def filled_beside_labels(
    context: SkillContext, path: str, rows: Sequence[Sequence[Value]]
) -> SkillResult | None:
    """``rows`` written beside their labels in the workbook at ``path`` and saved in place;
    None where the labels do not each name one cell of it (nothing is written then)."""
    reading = do(context, SheetOpen(path=path), SheetRead()).output or ""
    cells = sheet_cells(reading)
    places = label_places(cells, rows)
    if places is None:
        return None
    replaced = []
    for place, row in zip(places, rows, strict=True):
        column, row_index = cell_position(place)
        for offset, value in enumerate(row[1:]):
            address = f"{column_name(column + offset)}{row_index + 1}"
            if address in cells and comparable(cells[address]) != comparable(str(value)):
                replaced.append(f"{address} was {cells[address]!r}")
        do(context, SheetSet(cell=place, values=(tuple(row[1:]),)))
    saved = do(context, SheetSave())
    said = f"written beside their labels in {path} ({', '.join(places)})"
    if replaced:
        said += "; replaced: " + ", ".join(replaced)
    return SkillResult(True, path, evidence=f"{said}; {saved.message}")
