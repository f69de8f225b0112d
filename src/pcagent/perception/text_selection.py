"""PC-Agent's Select action: "select the last two paragraphs" turned into an exact selection.

Three steps:
  1. **Intention**: which text does the target mean? Structural targets ("the title", "the last
     paragraph", "the first two paragraphs", "paragraph 3", "all text") are resolved by rules over
     the visible text, with no model call. Anything else asks the model for the first and the
     last words of the span, quoted from the numbered text it is shown.
  2. **Locating**: the span is found in the live text of the application (accessibility Text
     interface), or, where the application exposes none, in OCR words.
  3. **Selecting**, exact means first: within one element, AT-SPI sets the selection by character
     offsets; across elements (paragraphs) the mouse drags from the first character's box to the
     last one's, both boxes given by the application; OCR word boxes are the last resort. The
     selection is then read back from the application and compared with what was meant.

When the span is not on screen, the document is scrolled down, then up, to look for it, and a
:class:`TextNotFoundError` says what was visible when nothing matched. Rule-based targets are
resolved over the text on screen: "the last paragraph" of a long document means the last one
visible unless the caller scrolls to the end first.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from pcagent import actions as act
from pcagent.env.observation import Box, Observation
from pcagent.env.protocol import Environment, TextAccess
from pcagent.errors import SelectionFailedError, TextNotFoundError
from pcagent.models.messages import Message
from pcagent.models.structured import ChatModel
from pcagent.perception.ocr import OcrWord, TesseractOcr, group_lines

#: Roles whose elements hold document text a selection can target.
BLOCK_ROLES = frozenset({"paragraph", "heading"})
#: Other text elements count only when multi-line (an editor's text area, not a toolbar entry).
MULTI_LINE_ROLES = frozenset({"text", "document text", "entry", "document web", "section"})
MAX_SCROLLS = 8
SCROLL_AMOUNT = 10

_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip


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
        return _normalise(self.selected) == _normalise(self.expected)


def _normalise(text: str) -> str:
    return " ".join(text.split())


# --- what is on screen ---------------------------------------------------------------------------


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


# --- intention -----------------------------------------------------------------------------------


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word)


def _is_title(unit: TextUnit, units: Sequence[TextUnit]) -> bool:
    """A heading, or a short first line without a closing full stop followed by more text."""
    if unit.role == "heading":
        return True
    text = unit.text.strip()
    return (
        unit is units[0]
        and len(units) > 1
        and len(text.split()) <= 12
        and not text.endswith((".", ":", ";", ","))
    )


def resolve_by_rule(target: str, units: Sequence[TextUnit]) -> tuple[int, int] | None:
    """First and last unit (indices into ``units``) of a structural target, or None.

    Understood: "the title"/"the heading", "all (the) text"/"everything", "the first/last
    paragraph", "the first/last N paragraphs", "paragraph N", "the Nth paragraph", "the
    first/last line", "line N" (lines are the units of an editor). Paragraph counts skip a title.
    """
    if not units:
        return None
    words = re.findall(r"[a-z0-9]+", target.lower())
    phrase = " ".join(words)
    if re.fullmatch(r"(the )?(document )?(title|heading)", phrase):
        titles = [i for i, unit in enumerate(units) if _is_title(unit, units)]
        return (titles[0], titles[0]) if titles else None
    if re.fullmatch(
        r"(select )?(all|everything|the whole (text|document)|all (the )?text)", phrase
    ):
        return (0, len(units) - 1)
    # Paragraph counts skip a title; line counts (an editor's lines) do not.
    skip_title = "line" not in phrase and _is_title(units[0], units)
    body = list(range(1 if skip_title else 0, len(units)))
    if not body:
        return None
    unit_words = r"(paragraphs?|lines?)"
    edge = re.fullmatch(rf"(?:the )?(first|last) (?:(\w+) )?{unit_words}", phrase)
    if edge:
        amount = _count(edge.group(2)) if edge.group(2) else 1
        if amount is None or not 1 <= amount <= len(body):
            return None
        chosen = body[:amount] if edge.group(1) == "first" else body[-amount:]
        return (chosen[0], chosen[-1])
    ordinal = re.fullmatch(rf"(?:the )?(\w+) {unit_words}", phrase)
    numbered = re.fullmatch(rf"(?:the )?{unit_words} (\w+)", phrase)
    word = ordinal.group(1) if ordinal else numbered.group(2) if numbered else None
    if word is not None:
        position = _count(word)
        if position is None or not 1 <= position <= len(body):
            return None
        return (body[position - 1], body[position - 1])
    return None


INTENT_SYSTEM = (
    "You find which text on the screen an instruction refers to. You are shown the visible text, "
    "one numbered paragraph or line per row. Answer with the first few words and the last few "
    "words of the text to select, copied exactly as they appear."
)


def intent_messages(target: str, units: Sequence[TextUnit], limit: int = 200) -> list[Message]:
    """The intention step's prompt: the target and the numbered visible text."""
    rows = []
    for number, unit in enumerate(units, start=1):
        text = unit.text.strip()
        rows.append(f"[{number}] {text if len(text) <= limit else text[:limit] + '…'}")
    return [
        Message.system(INTENT_SYSTEM),
        Message.user("Visible text:\n" + "\n".join(rows) + f"\n\nText to select: {target}"),
    ]


# --- locating ------------------------------------------------------------------------------------


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


# --- selecting -----------------------------------------------------------------------------------


@dataclass
class TextSelector:
    """Selects text in the environment's focused window.

    ``model`` answers the intention step for targets the rules do not understand; without one,
    such targets must quote the text ("from 'Paragraph 2' to 'item 3.'" is not parsed: pass a
    :class:`SelectionIntent` to :meth:`select_intent` instead).
    """

    environment: Environment
    model: ChatModel | None = None
    ocr: TesseractOcr = field(default_factory=TesseractOcr)
    max_scrolls: int = MAX_SCROLLS

    def select(self, target: str) -> SelectionResult:
        """Select the text ``target`` describes; raises :class:`TextNotFoundError` when it is
        not on screen even after scrolling, :class:`SelectionFailedError` when the application
        would not select it."""
        return self._run(target, None)

    def select_intent(self, intent: SelectionIntent, target: str = "") -> SelectionResult:
        """Select the span from ``intent.start_text`` to ``intent.end_text``."""
        return self._run(target or f"{intent.start_text} … {intent.end_text}", intent)

    def execute(self, action: act.SelectText) -> SelectionResult:
        """Carry out a ``select_text`` action."""
        return self.select(action.target)

    # --- the steps ----------------------------------------------------------------------------

    def _run(self, target: str, intent: SelectionIntent | None) -> SelectionResult:
        started = time.perf_counter()
        model_ms = 0.0
        scrolls = 0
        use_ocr: bool | None = None  # decided on the first screen, kept while scrolling
        direction = "down"
        moves_left = self.max_scrolls
        previous_screen = b""
        units: list[TextUnit] = []
        while True:
            observation = self.environment.observe()
            if use_ocr is None:
                use_ocr = not text_blocks(observation, self.environment)
            blocks = self._blocks(observation, use_ocr)
            units = text_units(blocks)
            span = None
            source: Literal["rule", "model"] = "model"
            if intent is None:
                chosen = resolve_by_rule(target, units)
                if chosen is not None:
                    span, source = span_of_units(units, *chosen), "rule"
                elif units:
                    asked = time.perf_counter()
                    intent = self._ask_intent(target, units)
                    model_ms += (time.perf_counter() - asked) * 1000
            if span is None and intent is not None:
                span = locate(intent, blocks)
            if span is not None:
                result = self._select(span, blocks, use_ocr)
                result.target, result.intent_source = target, source
                result.model_ms, result.scrolls = model_ms, scrolls
                result.duration_ms = (time.perf_counter() - started) * 1000
                return result
            if intent is None and not units:
                break
            # Not on screen: scroll down to look, then back up past the start; a direction ends
            # when its moves are spent or the screen stops moving.
            screen = observation.screenshot.tobytes()
            if moves_left <= 0 or screen == previous_screen:
                if direction == "up":
                    break
                direction, moves_left = "up", scrolls + self.max_scrolls
            previous_screen = screen
            self._scroll(observation, direction)
            scrolls += 1
            moves_left -= 1
        visible = " | ".join(unit.text.strip()[:40] for unit in units[:6]) or "no text"
        wanted = f"'{intent.start_text}' … '{intent.end_text}'" if intent else repr(target)
        raise TextNotFoundError(
            f"could not find {wanted} on screen, nor by scrolling {scrolls} times; "
            f"visible text: {visible}"
        )

    def _blocks(self, observation: Observation, use_ocr: bool) -> list[TextBlock]:
        if not use_ocr:
            return text_blocks(observation, self.environment)
        region = observation.focused_window.box if observation.focused_window else None
        return ocr_blocks(self.ocr.recognize(observation.screenshot, region).words)

    def _ask_intent(self, target: str, units: Sequence[TextUnit]) -> SelectionIntent:
        if self.model is None:
            raise TextNotFoundError(
                f"{target!r} is not a structural target (title, paragraph N, first/last N "
                "paragraphs...) and no model is configured to find it; quote the text with "
                "select_intent() or configure a model"
            )
        result = self.model.ask(intent_messages(target, units), SelectionIntent, role="select")
        if result.value is None:
            reason = result.failure.message if result.failure else "no answer"
            raise TextNotFoundError(
                f"the model could not say which text {target!r} means: {reason}"
            )
        return result.value

    def _scroll(self, observation: Observation, direction: str) -> None:
        """Turn the wheel over the middle of the focused window (where documents are)."""
        width, height = observation.screen_size
        window = observation.focused_window
        x, y = window.box.center if window else (width // 2, height // 2)
        x, y = min(max(x, 0), width - 1), min(max(y, 0), height - 1)
        self.environment.execute(
            act.Scroll(x=x, y=y, direction=direction, amount=SCROLL_AMOUNT)  # type: ignore[arg-type]
        )

    def _select(
        self, span: TextSpan, blocks: Sequence[TextBlock], from_ocr: bool
    ) -> SelectionResult:
        expected = span.text(blocks)
        environment = self.environment
        exact = isinstance(environment, TextAccess) and not from_ocr
        if exact and span.start_block == span.end_block:
            element_id = blocks[span.start_block].element_id
            assert element_id is not None
            if environment.select_text_range(element_id, span.start, span.end):  # type: ignore[union-attr]
                selected = self._read_back(span, blocks)
                if _normalise(selected) == _normalise(expected):
                    return SelectionResult("", expected, selected, "accessibility", "rule")
        if exact:
            start_box, end_box = self._character_boxes(span, blocks)
            method: Literal["drag", "ocr-drag"] = "drag"
            # A drag that starts inside selected text moves that text instead of selecting, so
            # collapse any selection first to an empty one where the drag starts. (Moving the
            # caret is not enough: LibreOffice then extends the selection from its anchor.)
            first_id = blocks[span.start_block].element_id
            assert first_id is not None
            environment.select_text_range(first_id, span.start, span.start)  # type: ignore[union-attr]
        else:
            start_box, end_box = self._word_boxes(span, blocks)
            method = "ocr-drag"
        environment.execute(
            act.Drag(
                start_x=start_box.x + 1,
                start_y=start_box.center[1],
                end_x=max(end_box.right - 1, end_box.x),
                end_y=end_box.center[1],
            )
        )
        selected = self._read_back(span, blocks)
        if selected and _normalise(selected) != _normalise(expected):
            raise SelectionFailedError(
                f"tried to select {expected[:200]!r} by dragging, but the application selected "
                f"{selected[:200]!r}"
            )
        return SelectionResult("", expected, selected, method, "rule")

    def _character_boxes(self, span: TextSpan, blocks: Sequence[TextBlock]) -> tuple[Box, Box]:
        access: TextAccess = self.environment  # type: ignore[assignment]
        first, last = blocks[span.start_block], blocks[span.end_block]
        assert first.element_id is not None and last.element_id is not None
        (start_box,) = access.character_boxes(first.element_id, [span.start])
        (end_box,) = access.character_boxes(last.element_id, [max(span.end - 1, 0)])
        if start_box is None or end_box is None:
            raise SelectionFailedError(
                "the application gave no screen position for the span's first or last character; "
                "it may be scrolled out of view"
            )
        return start_box, end_box

    @staticmethod
    def _word_boxes(span: TextSpan, blocks: Sequence[TextBlock]) -> tuple[Box, Box]:
        """Boxes of the OCR words holding the span's first and last characters."""

        def word_at(block: TextBlock, offset: int) -> OcrWord:
            position = 0
            for word in block.words:
                if offset < position + len(word.text) + 1:
                    return word
                position += len(word.text) + 1
            return block.words[-1]

        first = word_at(blocks[span.start_block], span.start)
        last = word_at(blocks[span.end_block], max(span.end - 1, 0))
        return first.box, last.box

    def _read_back(self, span: TextSpan, blocks: Sequence[TextBlock]) -> str:
        """The selection as the application reports it: each element's selected ranges joined
        by newlines, or the PRIMARY selection; "" when the environment cannot tell."""
        environment = self.environment
        if not isinstance(environment, TextAccess):
            return ""
        parts = []
        for index in range(span.start_block, span.end_block + 1):
            element_id = blocks[index].element_id
            if element_id is None:
                continue
            selected = environment.text_state(element_id).selected_text
            if selected:
                parts.append(selected)
        if parts:
            return "\n".join(parts)
        return environment.primary_selection()
