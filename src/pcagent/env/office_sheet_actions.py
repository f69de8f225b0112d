"""The spreadsheet's actions carried out over UNO: read, set and sort cells, and the cell
addresses ("B3", "A1:C9") they speak in.

Part of the LibreOffice worker's actions (:mod:`pcagent.env.office_actions`); every answer is
read back from the live document after the change.
"""

from __future__ import annotations

import math
from typing import Any

from pcagent.env.office_connection import OfficeConnection, invalid

#: Most cells one sheet_read returns.
READ_LIMIT = 2000


def column_name(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def column_index(name: str) -> int:
    index = 0
    for letter in name.upper():
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def cell_position(address: str) -> tuple[int, int]:
    """ "B3" -> (column 1, row 2)."""
    text = address.replace("$", "").upper()
    letters = "".join(ch for ch in text if ch.isalpha())
    return column_index(letters), int(text[len(letters) :]) - 1


def shown_number(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


class SheetActions(OfficeConnection):
    """The spreadsheet's requests, on the connection to LibreOffice."""

    def active_sheet(self, document: Any) -> Any:
        return document.getCurrentController().getActiveSheet()

    def sheet_read(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        sheet = self.active_sheet(document)
        if request.get("range"):
            cells = sheet.getCellRangeByName(request["range"].replace("$", ""))
        else:
            cursor = sheet.createCursor()
            cursor.gotoStartOfUsedArea(False)
            cursor.gotoEndOfUsedArea(True)
            cells = cursor
        return {**self.describe(document), **read_cells(sheet, cells)}

    def sheet_set(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        sheet = self.active_sheet(document)
        left, top = cell_position(request["cell"])
        written = []
        for row_offset, row in enumerate(request["values"]):
            for column_offset, value in enumerate(row):
                column, row_index = left + column_offset, top + row_offset
                cell = sheet.getCellByPosition(column, row_index)
                if isinstance(value, str) and value.startswith("="):
                    cell.setFormula(swap_separators(value, ",", ";"))
                elif isinstance(value, str):
                    number = as_number(value)
                    if number is None:
                        cell.setString(value)
                    else:
                        cell.setValue(number)
                else:
                    cell.setValue(float(value))
                written.append(
                    {"address": f"{column_name(column)}{row_index + 1}", "wanted": value}
                    | read_cell(cell)
                )
        return {**self.describe(document), "sheet": sheet.getName(), "cells": written}

    def sheet_sort(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        sheet = self.active_sheet(document)
        cells = sheet.getCellRangeByName(request["range"].replace("$", ""))
        address = cells.getRangeAddress()
        column = column_index(request["column"])
        if not address.StartColumn <= column <= address.EndColumn:
            raise invalid(f"column {request['column'].upper()} is not in {request['range']}")
        before = [list(row) for row in cells.getDataArray()]
        field = self.uno.createUnoStruct("com.sun.star.table.TableSortField")
        field.Field = column - address.StartColumn
        field.IsAscending = not request["descending"]
        field.IsCaseSensitive = False
        descriptor = []
        for prop in cells.createSortDescriptor():
            if prop.Name == "SortFields":
                prop.Value = self.uno.Any("[]com.sun.star.table.TableSortField", (field,))
            elif prop.Name == "ContainsHeader":
                prop.Value = bool(request["header"])
            elif prop.Name == "IsSortColumns":
                prop.Value = False
            descriptor.append(prop)
        cells.sort(tuple(descriptor))
        after = [list(row) for row in cells.getDataArray()]
        return {
            **self.describe(document),
            "sheet": sheet.getName(),
            "before": before,
            "after": after,
            "key": field.Field,
            **read_cells(sheet, cells),
        }


def as_number(text: str) -> float | None:
    """The number a cell text spells ("12", "-3.5"), as Calc would take it; None for text."""
    try:
        number = float(text.strip())
    except ValueError:
        return None
    return number if math.isfinite(number) and text.strip() == text else None


def swap_separators(formula: str, old: str, new: str) -> str:
    """``formula`` with the argument separator ``old`` outside quoted text turned into ``new``.

    UNO's formula grammar separates arguments with ";"; the formulas a model writes, and the ones
    shown back to it, use "," as Excel and LibreOffice's English interface do.
    """
    parts = formula.split('"')
    # Even-numbered parts are outside quotes ("" inside a string splits into an empty odd part).
    return '"'.join(
        part.replace(old, new) if not index % 2 else part for index, part in enumerate(parts)
    )


def read_cell(cell: Any) -> dict[str, Any]:
    """What a cell holds (its formula, or its value) and what it shows."""
    kind = cell.getType().value  # EMPTY, VALUE, TEXT or FORMULA
    answer: dict[str, Any] = {"type": kind, "shown": cell.getString()}
    if kind == "FORMULA":
        answer["formula"] = swap_separators(cell.getFormula(), ";", ",")
        answer["error"] = int(cell.getError())
    elif kind == "VALUE":
        answer["value"] = float(cell.getValue())
    return answer


def read_cells(sheet: Any, cells: Any) -> dict[str, Any]:
    """The non-empty cells of a range, row by row, with their addresses; at most READ_LIMIT."""
    address = cells.getRangeAddress()
    formulas = cells.getFormulaArray()
    rows = []
    count = 0
    for row_offset, row in enumerate(formulas):
        entries = []
        for column_offset, formula in enumerate(row):
            if formula == "":
                continue
            column = address.StartColumn + column_offset
            row_index = address.StartRow + row_offset
            cell = sheet.getCellByPosition(column, row_index)
            entry = {"address": f"{column_name(column)}{row_index + 1}", **read_cell(cell)}
            entries.append(entry)
            count += 1
        if entries:
            rows.append(entries)
        if count >= READ_LIMIT:
            break
    return {
        "sheet": sheet.getName(),
        "range": f"{column_name(address.StartColumn)}{address.StartRow + 1}:"
        f"{column_name(address.EndColumn)}{address.EndRow + 1}",
        "rows": rows,
        "truncated": count >= READ_LIMIT,
    }
