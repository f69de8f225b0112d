"""sheet_read, sheet_set and sheet_sort on the active sheet of the spreadsheet in front (see
:mod:`pcagent.env.app_interfaces.office`): the requests sent to LibreOffice, and the check that
the cells read back hold what the action asked for."""

from __future__ import annotations

import math
from typing import Any

from pcagent.action_handlers import handles
from pcagent.app_actions import SheetRead, SheetSet, SheetSort
from pcagent.env.app_interfaces.office_handle import OfficeDocuments
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError


def cell_text(cell: dict[str, Any]) -> str:
    """ "B2: 12", "A1: Name", "B5: =SUM(B2:B4) -> 30": what a cell holds and, for a formula,
    what it shows."""
    if cell["type"] == "FORMULA":
        return f"{cell['address']}: {cell['formula']} -> {cell['shown']}"
    return f"{cell['address']}: {cell['shown']}"


def cell_table(answer: dict[str, Any]) -> str:
    """The non-empty cells read, one row a line."""
    lines = [f"sheet {answer['sheet']!r}, {answer['range']}:"]
    lines += [" | ".join(cell_text(cell) for cell in row) for row in answer["rows"]]
    if not answer["rows"]:
        lines.append("(no cells with content)")
    if answer["truncated"]:
        lines.append("[... more cells: read a smaller range]")
    return "\n".join(lines)


@handles(SheetRead)
def read_cells(interface: OfficeDocuments, action: SheetRead) -> ActionResult:
    answer = interface.on_document("sheet_read", "spreadsheet", range=action.range)
    return ActionResult(
        ok=True,
        message=f"{answer['title']}: read {answer['range']} of sheet {answer['sheet']!r}",
        output=cell_table(answer),
        verified=True,
    )


def _holds(cell: dict[str, Any]) -> bool:
    """Whether a cell read back holds the value written into it."""
    wanted = cell["wanted"]
    if isinstance(wanted, str) and wanted.startswith("="):
        # LibreOffice writes a formula its own way (upper case, no spaces): the cell must hold
        # one; what it shows is reported, errors included.
        return cell["type"] == "FORMULA"
    if isinstance(wanted, str) and wanted == "":
        return cell["type"] == "EMPTY"
    if cell["type"] == "VALUE":
        try:
            number = float(wanted)
        except ValueError:
            return False
        return math.isclose(cell["value"], number, rel_tol=1e-12, abs_tol=1e-12)
    return cell["type"] == "TEXT" and cell["shown"] == wanted


@handles(SheetSet)
def _set(interface: OfficeDocuments, action: SheetSet) -> ActionResult:
    values = [list(row) for row in action.values]
    answer = interface.on_document("sheet_set", "spreadsheet", cell=action.cell, values=values)
    wrong = [cell_text(cell) for cell in answer["cells"] if not _holds(cell)]
    if wrong:
        raise AppInterfaceError("cells read back differently: " + "; ".join(wrong[:10]))
    failing = [cell_text(cell) for cell in answer["cells"] if cell.get("error")]
    written = answer["cells"]
    message = (
        f"wrote {len(written)} cells from {action.cell.upper()} on sheet {answer['sheet']!r} of "
        f"{answer['title']} (not saved yet)"
    )
    if failing:
        message += "; these formulas show an error: " + "; ".join(failing[:10])
    return ActionResult(
        ok=True,
        message=message,
        output="\n".join(cell_text(cell) for cell in written[:200]),
        verified=True,
    )


def _sort_key(value: Any) -> tuple[int, Any]:
    """Calc's ascending order: numbers, then text (case-insensitive), then empty cells."""
    if isinstance(value, int | float):
        return (0, value)
    if value == "":
        return (2, "")
    return (1, str(value).casefold())


@handles(SheetSort)
def _sort(interface: OfficeDocuments, action: SheetSort) -> ActionResult:
    answer = interface.on_document(
        "sheet_sort",
        "spreadsheet",
        range=action.range,
        column=action.column,
        descending=action.descending,
        header=action.header,
    )
    start = 1 if action.header else 0
    key = answer["key"]
    before, after = answer["before"], answer["after"]
    if action.header and before[:1] != after[:1]:
        raise AppInterfaceError("the header row moved in the sort")
    keys = [row[key] for row in after[start:]]
    filled = [value for value in keys if value != ""]
    ordered = sorted(filled, key=_sort_key, reverse=action.descending)
    if [_sort_key(v) for v in filled] != [_sort_key(v) for v in ordered]:
        raise AppInterfaceError(f"column {action.column.upper()} is not in order after sorting")
    if sorted(map(_sort_key, keys)) != sorted(_sort_key(row[key]) for row in before[start:]):
        raise AppInterfaceError("the sorted rows are not the rows that were there")
    order = "descending" if action.descending else "ascending"
    return ActionResult(
        ok=True,
        message=f"sorted {answer['range']} by column {action.column.upper()}, {order}"
        + (", header kept on top" if action.header else "")
        + f" in {answer['title']} (not saved yet)",
        output=cell_table(answer),
        verified=True,
    )
