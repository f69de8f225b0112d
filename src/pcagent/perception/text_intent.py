"""Which text a selection target means: structural targets ("the title", "the last two
paragraphs", "paragraph 3", "all text") resolved by rules over the units on screen, and the
messages that ask the model for the first and last words of any other span.

Part of the Select action (:mod:`pcagent.perception.text_selection`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pcagent.models.messages import Message
from pcagent.perception.text_spans import TextUnit

_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip


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
