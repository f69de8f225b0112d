"""The text a selection can target: the blocks of document text on screen, the paragraph-like
units a target counts in, and the span of characters a target means once located.

Kept apart from the selector (:mod:`pcagent.perception.text_selection`) so the reading and
locating can be tested on plain text, without a desktop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from pcagent.env.observation import Box, Observation
from pcagent.env.protocol import Environment, TextAccess
from pcagent.perception.ocr import OcrWord, group_lines
from pcagent.text import single_spaced

#: Roles whose elements hold document text a selection can target.
BLOCK_ROLES = frozenset({"paragraph", "heading"})
#: Other text elements count only when multi-line (an editor's text area, not a toolbar entry).
MULTI_LINE_ROLES = frozenset({"text", "document text", "entry", "document web", "section"})


class SelectionIntent(BaseModel):
    """Which text an instruction refers to, as the model answers it."""

    start_text: str = Field(
        min_length=1, description="The first three to six words of the span, copied exactly."
    )
    end_text: str = Field(
        min_length=1, description="The last three to six words of the span, copied exactly."
    )


@dataclass(frozen=True)
class TextUnit:
    """A paragraph-like piece of visible text: a paragraph element, or one line of a multi-line
    element. ``start``/``end`` are character offsets in its element's text."""

    block: int
    start: int
    end: int
    text: str
    role: str


@dataclass(frozen=True)
class TextBlock:
    """One element's full text (or, for OCR, one line), and where it sits."""

    text: str
    box: Box
    role: str
    element_id: int | None = None
    words: tuple[OcrWord, ...] = ()


@dataclass(frozen=True)
class TextSpan:
    """A span from (block, offset) to (block, offset), end exclusive."""

    start_block: int
    start: int
    end_block: int
    end: int

    def text(self, blocks: Sequence[TextBlock]) -> str:
        if self.start_block == self.end_block:
            return blocks[self.start_block].text[self.start : self.end]
        parts = [blocks[self.start_block].text[self.start :]]
        parts += [blocks[i].text for i in range(self.start_block + 1, self.end_block)]
        parts.append(blocks[self.end_block].text[: self.end])
        return "\n".join(parts)


@dataclass
class SelectionResult:
    """What was selected, and how. ``selected`` is read back from the application ("" where it
    cannot be read back, e.g. OCR on an application without accessible text)."""

    target: str
    expected: str
    selected: str
    method: Literal["accessibility", "drag", "ocr-drag"]
    intent_source: Literal["rule", "model"]
    duration_ms: float = 0.0
    model_ms: float = 0.0
    scrolls: int = 0

    @property
    def matches(self) -> bool:
        return single_spaced(self.selected) == single_spaced(self.expected)


def text_blocks(observation: Observation, environment: Environment) -> list[TextBlock]:
    """Document text of the focused window, in reading order, with full live text where the
    environment offers it (observations cut long texts)."""
    blocks = []
    for element in observation.elements:
        multi_line = element.role in MULTI_LINE_ROLES and "multi-line" in element.states
        if element.role not in BLOCK_ROLES and not multi_line:
            continue
        if "editable" not in element.states and element.role not in BLOCK_ROLES | {"document web"}:
            continue
        text = element.text
        if isinstance(environment, TextAccess):
            text = environment.text_state(element.id).text
        blocks.append(
            TextBlock(text=text, box=element.box, role=element.role, element_id=element.id)
        )
    return blocks


def ocr_blocks(words: Sequence[OcrWord]) -> list[TextBlock]:
    """OCR lines as blocks (one per line), keeping their words' boxes."""
    return [
        TextBlock(text=line.text, box=line.box, role="ocr line", words=line.words)
        for line in group_lines(words)
    ]


def text_units(blocks: Sequence[TextBlock]) -> list[TextUnit]:
    """Paragraph-like units: each paragraph block whole, each non-empty line of other blocks."""
    units = []
    for index, block in enumerate(blocks):
        if block.role in BLOCK_ROLES or block.role == "ocr line":
            if block.text.strip():
                units.append(TextUnit(index, 0, len(block.text), block.text, block.role))
            continue
        offset = 0
        for line in block.text.split("\n"):
            if line.strip():
                units.append(TextUnit(index, offset, offset + len(line), line, block.role))
            offset += len(line) + 1
    return units


def _pattern(words: Sequence[str]) -> re.Pattern[str]:
    return re.compile(r"\s+".join(re.escape(word) for word in words), re.IGNORECASE)


def locate(intent: SelectionIntent, blocks: Sequence[TextBlock]) -> TextSpan | None:
    """The span from the first occurrence of ``start_text`` to the first end of ``end_text`` at
    or after it, across blocks; whitespace and case are ignored. When the exact words are not
    found, the first (or last) three words are tried, so a model's slightly off quote still
    lands. None when nothing matches."""
    flat = "\n".join(block.text for block in blocks)
    starts = [0]
    for block in blocks[:-1]:
        starts.append(starts[-1] + len(block.text) + 1)

    def position(offset: int) -> tuple[int, int]:
        index = max(i for i, start in enumerate(starts) if start <= offset)
        return index, offset - starts[index]

    start_words, end_words = intent.start_text.split(), intent.end_text.split()
    for start_try, end_try in (
        (start_words, end_words),
        (start_words[:3], end_words[-3:]),
    ):
        if not start_try or not end_try:
            continue
        start_match = _pattern(start_try).search(flat)
        if start_match is None:
            continue
        end_match = _pattern(end_try).search(flat, start_match.start())
        if end_match is None:
            continue
        first_block, first = position(start_match.start())
        last_block, last = position(end_match.end() - 1)
        return TextSpan(first_block, first, last_block, last + 1)
    return None


def span_of_units(units: Sequence[TextUnit], first: int, last: int) -> TextSpan:
    return TextSpan(units[first].block, units[first].start, units[last].block, units[last].end)
