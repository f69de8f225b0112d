"""Intention rules and span location, on plain text (the real selections are in
test_perception_desktop.py)."""

from __future__ import annotations

import pytest

from pcagent.env.observation import Box
from pcagent.perception.text_intent import resolve_by_rule
from pcagent.perception.text_spans import (
    SelectionIntent,
    TextBlock,
    locate,
    span_of_units,
    text_units,
)

BOX = Box(x=0, y=0, width=10, height=10)
DOCUMENT = [
    TextBlock("Quarterly Travel Plan", BOX, "paragraph", 0),
    *[
        TextBlock(f"Paragraph {n}: the committee agreed on item {n}.", BOX, "paragraph", n)
        for n in range(1, 6)
    ],
]
EDITOR = [TextBlock("Shopping list\nbuy apples\n\ncall the bank\n", BOX, "text", 0)]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("the title", "Quarterly Travel Plan"),
        ("The last paragraph", "Paragraph 5: the committee agreed on item 5."),
        ("the first two paragraphs", "Paragraph 1: the committee agreed on item 1.\n"
         "Paragraph 2: the committee agreed on item 2."),
        ("the last 2 paragraphs", "Paragraph 4: the committee agreed on item 4.\n"
         "Paragraph 5: the committee agreed on item 5."),
        ("paragraph 3", "Paragraph 3: the committee agreed on item 3."),
        ("the second paragraph", "Paragraph 2: the committee agreed on item 2."),
    ],
)  # fmt: skip
def test_structural_targets_resolve_without_a_model(target: str, expected: str) -> None:
    units = text_units(DOCUMENT)
    chosen = resolve_by_rule(target, units)
    assert chosen is not None
    assert span_of_units(units, *chosen).text(DOCUMENT) == expected


@pytest.mark.parametrize(
    "target", ["the sentence about money", "the first ten paragraphs", "paragraph 9", ""]
)
def test_other_targets_are_left_to_the_model(target: str) -> None:
    assert resolve_by_rule(target, text_units(DOCUMENT)) is None


def test_an_editor_is_split_into_lines_with_exact_offsets() -> None:
    units = text_units(EDITOR)
    assert [u.text for u in units] == ["Shopping list", "buy apples", "call the bank"]
    chosen = resolve_by_rule("the last line", units)
    assert chosen is not None
    span = span_of_units(units, *chosen)
    assert (span.start, span.end) == (26, 39)
    assert span.text(EDITOR) == "call the bank"
    assert resolve_by_rule("line 1", units) == (0, 0)  # lines never skip a title


def test_locate_spans_blocks_ignoring_case_and_spacing() -> None:
    span = locate(SelectionIntent(start_text="COMMITTEE agreed  on item 2", end_text="Paragraph 4"),
                  DOCUMENT)  # fmt: skip
    assert span is not None
    assert (span.start_block, span.start, span.end_block, span.end) == (2, 17, 4, 11)
    assert span.text(DOCUMENT).endswith("item 3.\nParagraph 4")


def test_locate_falls_back_to_the_first_and_last_three_words() -> None:
    intent = SelectionIntent(
        start_text="Paragraph 3: the committee decided", end_text="said agreed on item 3."
    )
    span = locate(intent, DOCUMENT)
    assert span is not None
    assert span.text(DOCUMENT) == "Paragraph 3: the committee agreed on item 3."


def test_locate_returns_none_when_the_text_is_absent() -> None:
    assert locate(SelectionIntent(start_text="budget", end_text="approved"), DOCUMENT) is None
