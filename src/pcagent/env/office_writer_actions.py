"""The word processor's actions carried out over UNO: read, insert and format paragraphs.

Part of the LibreOffice worker's actions (:mod:`pcagent.env.office_actions`); every change
goes to the live document model and every answer is read back from it after the change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pcagent.env.office_connection import OfficeConnection, invalid

BOLD, NORMAL_WEIGHT = 150.0, 100.0
#: LibreOffice's list of font sizes (the font size box's list), in points: a size step moves to
#: the next entry up or down.
FONT_SIZES = (6, 7, 8, 9, 10, 10.5, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 26, 28, 32, 36, 40,
              44, 48, 54, 60, 66, 72, 80, 88, 96)  # fmt: skip
ALIGNMENTS = {"left": "LEFT", "right": "RIGHT", "justify": "BLOCK", "center": "CENTER"}
#: ParagraphAdjust's numbers, for a LibreOffice that reads ParaAdjust back as a number.
ALIGNMENT_NUMBERS = {"LEFT": 0, "RIGHT": 1, "BLOCK": 2, "CENTER": 3}


class WriterActions(OfficeConnection):
    """The word processor's requests, on the connection to LibreOffice."""

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
