"""Carries out the word processor's and the spreadsheet's application actions inside the running
LibreOffice, over UNO, in a process of its own.

Run as ``python -m pcagent.env.office_actions_worker PIPE_NAME``; it speaks JSON lines on
stdin/stdout (see :class:`pcagent.env.accessibility.WorkerProcess`). It needs only the standard
library and LibreOffice's ``uno``, because it runs under the system's Python as the sandbox's
user (LibreOffice's pipe is that user's alone), and it is a process apart because a UNO call has
no timeout: a hung LibreOffice hangs this worker, which its caller kills, not the caller.

Every change goes to the live document model, so the window shows it at once and the document is
marked modified until a save; every answer is read back from the model after the change.

Answers carry ``unavailable`` (LibreOffice or the document is not there: the GUI cannot do better)
or ``invalid`` (the request names something the document does not have) instead of their fields
when the request cannot be carried out; ``error`` is left for the unexpected.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable
from typing import Any

from pcagent.env.worker_protocol import (
    UNO_BRIDGE_MISSING,
    error_answer,
    refuse_to_start,
    run_worker,
    timed,
)
from pcagent.env.worker_protocol import serve as serve_lines

TEXT = "com.sun.star.text.TextDocument"
SPREADSHEET = "com.sun.star.sheet.SpreadsheetDocument"
KINDS = {"text": TEXT, "spreadsheet": SPREADSHEET}
KIND_NAMES = {"text": "text document", "spreadsheet": "spreadsheet"}
BOLD, NORMAL_WEIGHT = 150.0, 100.0
#: LibreOffice's list of font sizes (the font size box's list), in points: a size step moves to
#: the next entry up or down.
FONT_SIZES = (6, 7, 8, 9, 10, 10.5, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 26, 28, 32, 36, 40,
              44, 48, 54, 60, 66, 72, 80, 88, 96)  # fmt: skip
ALIGNMENTS = {"left": "LEFT", "right": "RIGHT", "justify": "BLOCK", "center": "CENTER"}
#: ParagraphAdjust's numbers, for a LibreOffice that reads ParaAdjust back as a number.
ALIGNMENT_NUMBERS = {"LEFT": 0, "RIGHT": 1, "BLOCK": 2, "CENTER": 3}
#: Most cells one sheet_read returns.
READ_LIMIT = 2000


class Refused(Exception):
    """A request that cannot be carried out; ``field`` says whose fault (see the module doc)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def unavailable(message: str) -> Refused:
    return Refused("unavailable", message)


def invalid(message: str) -> Refused:
    return Refused("invalid", message)


# --- cell addresses --------------------------------------------------------------------------------


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


class OfficeActions:
    """The connection to one LibreOffice and the actions carried out in it."""

    def __init__(self, pipe_name: str) -> None:
        import uno
        from com.sun.star.connection import NoConnectException
        from com.sun.star.lang import DisposedException
        from com.sun.star.uno import Exception as UnoException
        from com.sun.star.uno import RuntimeException

        self.uno = uno
        self.NoConnectException = NoConnectException
        self.UnoException = UnoException
        self.RuntimeException = RuntimeException
        self.DisposedException = DisposedException
        self.pipe_name = pipe_name
        self.local = uno.getComponentContext()
        self.bridge: Any = None
        self.desktop: Any = None

    # --- connection -------------------------------------------------------------------------------

    def connect(self) -> None:
        manager = self.local.ServiceManager
        connector = manager.createInstanceWithContext(
            "com.sun.star.connection.Connector", self.local
        )
        try:
            connection = connector.connect(f"pipe,name={self.pipe_name}")
        except self.NoConnectException as error:
            raise unavailable(f"LibreOffice is not running ({error.Message})") from error
        factory = manager.createInstanceWithContext("com.sun.star.bridge.BridgeFactory", self.local)
        self.bridge = factory.createBridge("", "urp", connection, None)
        context = self.bridge.getInstance("StarOffice.ComponentContext")
        self.desktop = context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", context
        )

    def disconnect(self) -> None:
        bridge, self.bridge, self.desktop = self.bridge, None, None
        if bridge is not None:
            # A bridge whose LibreOffice is gone is disposed already: the expected case.
            with contextlib.suppress(self.RuntimeException):
                bridge.dispose()

    def run(
        self, handler: Callable[[dict[str, Any]], dict[str, Any]], request: dict[str, Any]
    ) -> dict[str, Any]:
        """``handler`` on a live connection, run once (a change must not be made twice).

        A bridge cached from an earlier request is dead when LibreOffice was restarted, which
        shows only when it is used: it is tried with a call that changes nothing first.
        """
        if self.desktop is not None:
            try:
                self.desktop.getComponents()
            except self.RuntimeException:
                self.disconnect()
        if self.desktop is None:
            self.connect()
        try:
            return handler(request)
        except self.DisposedException as error:
            self.disconnect()
            message = f"the connection to LibreOffice broke: {error.Message}"
            raise unavailable(message) from error

    # --- documents ----------------------------------------------------------------------------------

    def documents(self, kind: str) -> list[Any]:
        found = []
        components = self.desktop.getComponents().createEnumeration()
        while components.hasMoreElements():
            component = components.nextElement()
            supports = getattr(component, "supportsService", None)
            if supports is not None and supports(KINDS[kind]):
                found.append(component)
        return found

    def front_document(self, request: dict[str, Any]) -> Any:
        """The document of ``request["kind"]`` whose window is highest in ``request["titles"]``
        (LibreOffice's window titles, topmost first); LibreOffice's current one when no title
        matches."""
        kind = request["kind"]
        documents = self.documents(kind)
        if not documents:
            raise unavailable(f"no {KIND_NAMES[kind]} is open in LibreOffice")
        by_title = {frame_title(document): document for document in documents}
        for title in request.get("titles", []):
            if title in by_title:
                return by_title[title]
        current = self.desktop.getCurrentComponent()
        if current is not None and any(current == document for document in documents):
            return current
        return documents[0]

    def describe(self, document: Any) -> dict[str, Any]:
        return {
            "title": frame_title(document),
            "url": document.getLocation(),
            "modified": bool(document.isModified()),
        }

    def open(self, request: dict[str, Any]) -> dict[str, Any]:
        """Load a file (or find it already loaded) and bring its window forward."""
        url = self.uno.systemPathToFileUrl(request["path"])
        document = None
        for kind in KINDS:
            for candidate in self.documents(kind):
                if candidate.getLocation() == url:
                    document = candidate
        if document is None:
            document = self.desktop.loadComponentFromURL(
                url, "_default", 0, (self.property("Hidden", False),)
            )
        if document is None or document.getLocation() != url:
            raise unavailable(f"LibreOffice did not load {request['path']}")
        frame = document.getCurrentController().getFrame()
        frame.getContainerWindow().setVisible(True)
        frame.activate()
        kind = next(
            (name for name, service in KINDS.items() if document.supportsService(service)), "other"
        )
        return {**self.describe(document), "kind": kind}

    def property(self, name: str, value: object) -> Any:
        prop = self.uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name = name
        prop.Value = value
        return prop

    # --- saving -----------------------------------------------------------------------------------

    def save(self, request: dict[str, Any]) -> dict[str, Any]:
        """Save in place with the document's own filter, or under a new path with ``filter``:
        ``copy`` exports (PDF, CSV, text: the window keeps its document), else the window's
        document becomes the new file (Save As)."""
        document = self.front_document(request)
        path = request.get("path", "")
        if not path:
            if not document.getLocation():
                raise invalid("the document has never been saved, so it has no place to save to")
            if document.isReadonly():
                raise invalid("the document is open read-only; save it under a new path")
            document.store()
        else:
            url = self.uno.systemPathToFileUrl(path)
            arguments = [self.property("FilterName", request["filter"])]
            arguments.append(self.property("Overwrite", True))
            if request.get("options"):
                arguments.append(self.property("FilterOptions", request["options"]))
            if request.get("copy"):
                document.storeToURL(url, tuple(arguments))
            else:
                document.storeAsURL(url, tuple(arguments))
        answer = self.describe(document)
        answer["filter"] = filter_of(document)
        return answer

    # --- the word processor ---------------------------------------------------------------------

    def paragraphs(self, document: Any) -> list[Any]:
        """The body's paragraphs in order, as python-docx numbers them (tables are skipped)."""
        found = []
        elements = document.getText().createEnumeration()
        while elements.hasMoreElements():
            element = elements.nextElement()
            if element.supportsService("com.sun.star.text.Paragraph"):
                found.append(element)
        return found

    def writer_read(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        texts = [paragraph.getString() for paragraph in self.paragraphs(document)]
        return {**self.describe(document), "paragraphs": texts}

    def writer_insert(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        text = document.getText()
        before = [paragraph.getString() for paragraph in self.paragraphs(document)]
        lines = request["text"].replace("\r\n", "\n").replace("\r", "\n").split("\n")
        where, number = request["where"], request.get("paragraph")
        if where != "end" and not 0 <= number < len(before):
            raise invalid(
                f"the document has paragraphs 0 to {len(before) - 1}; there is no {number}"
            )
        brk = self.uno.getConstantByName("com.sun.star.text.ControlCharacter.PARAGRAPH_BREAK")
        paragraphs = self.paragraphs(document)
        if where == "end":
            cursor = text.createTextCursorByRange(text.getEnd())
            start_new = bool(before and before[-1])
            expected = before + lines if start_new else before[:-1] + lines
        elif where == "after":
            cursor = text.createTextCursorByRange(paragraphs[number].getEnd())
            start_new = True
            expected = before[: number + 1] + lines + before[number + 1 :]
        elif where == "before":
            cursor = text.createTextCursorByRange(paragraphs[number].getStart())
            start_new = False
            expected = before[:number] + lines + before[number:]
        else:
            cursor = text.createTextCursorByRange(paragraphs[number])
            cursor.setString("")
            start_new = False
            expected = before[:number] + lines + before[number + 1 :]
        if start_new:
            text.insertControlCharacter(cursor, brk, False)
        for index, line in enumerate(lines):
            if index:
                text.insertControlCharacter(cursor, brk, False)
            text.insertString(cursor, line, False)
        if where == "before":
            text.insertControlCharacter(cursor, brk, False)
        after = [paragraph.getString() for paragraph in self.paragraphs(document)]
        return {**self.describe(document), "paragraphs": after, "expected": expected}

    def writer_format(self, request: dict[str, Any]) -> dict[str, Any]:
        document = self.front_document(request)
        paragraphs = self.paragraphs(document)
        chosen = self.chosen_paragraphs(paragraphs, request)
        changes = request["changes"]
        text = document.getText()
        for number in chosen:
            paragraph = paragraphs[number]
            cursor = text.createTextCursorByRange(paragraph)
            for name, value in self.character_values(changes).items():
                cursor.setPropertyValue(name, value)
            if changes.get("size_step"):
                for portion in text_portions(paragraph):
                    size = float(portion.getPropertyValue("CharHeight"))
                    step = text.createTextCursorByRange(portion)
                    step.setPropertyValue("CharHeight", next_size(size, changes["size_step"]))
            for name, value in self.paragraph_values(changes).items():
                paragraph.setPropertyValue(name, value)
        read = []
        for number in chosen:
            paragraph = self.paragraphs(document)[number]
            read.append(
                {"paragraph": number, "text": paragraph.getString(), **read_format(paragraph)}
            )
        return {**self.describe(document), "formats": read}

    def chosen_paragraphs(self, paragraphs: list[Any], request: dict[str, Any]) -> list[int]:
        numbers = set(request.get("paragraphs", []))
        wrong = sorted(number for number in numbers if not 0 <= number < len(paragraphs))
        if wrong:
            raise invalid(
                f"the document has paragraphs 0 to {len(paragraphs) - 1}; there is no "
                + ", ".join(str(number) for number in wrong)
            )
        matching = request.get("matching", "").casefold()
        if matching:
            found = {
                index
                for index, paragraph in enumerate(paragraphs)
                if matching in paragraph.getString().casefold()
            }
            if not found:
                raise invalid(f"no paragraph contains {request['matching']!r}")
            numbers |= found
        return sorted(numbers)

    def character_values(self, changes: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        if changes.get("bold") is not None:
            values["CharWeight"] = BOLD if changes["bold"] else NORMAL_WEIGHT
        if changes.get("italic") is not None:
            slant = "ITALIC" if changes["italic"] else "NONE"
            values["CharPosture"] = self.uno.Enum("com.sun.star.awt.FontSlant", slant)
        if changes.get("underline") is not None:
            values["CharUnderline"] = 1 if changes["underline"] else 0
        if changes.get("font_size") is not None:
            values["CharHeight"] = float(changes["font_size"])
        return values

    def paragraph_values(self, changes: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        if changes.get("alignment"):
            adjust = ALIGNMENTS[changes["alignment"]]
            values["ParaAdjust"] = self.uno.Enum("com.sun.star.style.ParagraphAdjust", adjust)
        if changes.get("line_spacing") is not None:
            spacing = self.uno.createUnoStruct("com.sun.star.style.LineSpacing")
            spacing.Mode = 0  # PROP: a percentage of single spacing
            spacing.Height = round(changes["line_spacing"] * 100)
            values["ParaLineSpacing"] = spacing
        return values

    # --- the spreadsheet --------------------------------------------------------------------------

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

    # --- requests ---------------------------------------------------------------------------------

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "open": self.open,
            "front": lambda request: self.describe(self.front_document(request)),
            "save": self.save,
            "writer_read": self.writer_read,
            "writer_insert": self.writer_insert,
            "writer_format": self.writer_format,
            "sheet_read": self.sheet_read,
            "sheet_set": self.sheet_set,
            "sheet_sort": self.sheet_sort,
        }
        try:
            if request["op"] == "ping":
                return {"pong": True}
            return timed(lambda request: self.run(handlers[request["op"]], request), request)
        except Refused as refused:
            return {refused.field: str(refused)}
        except self.UnoException as error:
            return {"error": f"{type(error).__name__}: {error.Message}"}
        except Exception as error:
            return error_answer(error)


def frame_title(document: Any) -> str:
    """The title of the document's window ("report.docx - LibreOffice Writer"); "" without one."""
    controller = document.getCurrentController()
    if controller is None or controller.getFrame() is None:
        return ""
    return str(controller.getFrame().getTitle())


def filter_of(document: Any) -> str:
    for argument in document.getArgs():
        if argument.Name == "FilterName":
            return str(argument.Value)
    return ""


def text_portions(paragraph: Any) -> list[Any]:
    """The runs of text of a paragraph (fields, frames and marks left out)."""
    found = []
    portions = paragraph.createEnumeration()
    while portions.hasMoreElements():
        portion = portions.nextElement()
        if portion.TextPortionType == "Text" and portion.getString():
            found.append(portion)
    return found


def next_size(size: float, step: str) -> float:
    """One entry up or down LibreOffice's size list from ``size`` (a size between entries goes
    to the nearest entry in that direction)."""
    if step == "larger":
        return float(next((entry for entry in FONT_SIZES if entry > size + 0.01), size))
    return float(next((entry for entry in reversed(FONT_SIZES) if entry < size - 0.01), size))


def read_format(paragraph: Any) -> dict[str, Any]:
    """The format of a paragraph as its text shows it: a character property is reported when all
    its runs agree, else as "mixed"."""
    runs = text_portions(paragraph) or [paragraph]

    def common(read: Callable[[Any], Any]) -> Any:
        values = {read(run) for run in runs}
        return values.pop() if len(values) == 1 else "mixed"

    adjust = paragraph.getPropertyValue("ParaAdjust")
    adjust_name = getattr(adjust, "value", None) or next(
        (name for name, number in ALIGNMENT_NUMBERS.items() if number == adjust), str(adjust)
    )
    spacing = paragraph.getPropertyValue("ParaLineSpacing")
    return {
        "bold": common(lambda run: float(run.getPropertyValue("CharWeight")) >= BOLD),
        "italic": common(lambda run: run.getPropertyValue("CharPosture").value != "NONE"),
        "underline": common(lambda run: int(run.getPropertyValue("CharUnderline")) != 0),
        "font_size": common(lambda run: round(float(run.getPropertyValue("CharHeight")), 2)),
        "alignment": {value: key for key, value in ALIGNMENTS.items()}.get(adjust_name, "left"),
        "line_spacing": spacing.Height / 100 if spacing.Mode == 0 else None,
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


def serve(pipe_name: str, stdin: Any, stdout: Any) -> None:
    try:
        office = OfficeActions(pipe_name)
    except ImportError as error:
        refuse_to_start(stdout, f"{error}. {UNO_BRIDGE_MISSING}")
        return
    serve_lines(stdin, stdout, office.answer)
    office.disconnect()


def main() -> None:
    run_worker(lambda protocol_out: serve(sys.argv[1], sys.stdin, protocol_out))


if __name__ == "__main__":
    main()
