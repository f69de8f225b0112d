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

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pcagent import actions as act
from pcagent.env.observation import Box, Observation
from pcagent.env.protocol import Environment, TextAccess
from pcagent.errors import SelectionFailedError, TextNotFoundError
from pcagent.models.structured import ChatModel
from pcagent.perception.ocr import OcrWord, TesseractOcr
from pcagent.perception.text_intent import intent_messages, resolve_by_rule
from pcagent.perception.text_spans import (
    SelectionIntent,
    SelectionResult,
    TextBlock,
    TextSpan,
    TextUnit,
    locate,
    ocr_blocks,
    span_of_units,
    text_blocks,
    text_units,
)
from pcagent.text import single_spaced

MAX_SCROLLS = 8
SCROLL_AMOUNT = 10


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
                if single_spaced(selected) == single_spaced(expected):
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
        if selected and single_spaced(selected) != single_spaced(expected):
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
