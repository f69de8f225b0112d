"""Readings with their list items counted, for subtasks that pick an item by its place.

"Find the second event of the morning": a small model counts lines badly (it took the third,
or counted the "Morning" heading as the first). Progress sees each run of list
lines under its heading counted ("[2nd] 10:15 Call ..."), and
the count is taken off whatever value it copies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A list line: it starts with a digit (a time, a date, a number) or a bullet.
_ITEM = re.compile(r"^\s*(?:\d|[-*•·]\s)")
#: A list's own numbering or bullet before an item ("1. ", "2) ", "- ", "• "); "3.5 stars" and
#: "2001: A Space Odyssey" have none.
_MARKER = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•·])\s+")
#: The count put in front of an item, as Progress may copy it back.
_COUNT = re.compile(r"^\s*\[\d+(?:st|nd|rd|th)\]\s*")


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def counted_items(reading: str) -> str:
    """``reading`` with each run of list lines counted from 1; a heading, a blank line or any
    other line between them starts a new count."""
    lines = []
    count = 0
    for line in reading.splitlines():
        if _ITEM.match(line):
            count += 1
            lines.append(f"[{_ordinal(count)}] {line.strip()}")
        else:
            count = 0
            lines.append(line)
    return "\n".join(lines)


def uncounted(value: str) -> str:
    """``value`` without a count :func:`counted_items` put in front of it."""
    return _COUNT.sub("", value)


#: Where a found text lists several items: "131.38, 227.52, 415.26", "NVIDIA, Apple and
#: Microsoft", a line each (a comma with no space after it is a thousands separator, "1,299.00").
_ITEM_BREAK = re.compile(r",\s+|;\s*|\n+|\s+and\s+")


def listed_items(text: str) -> list[str]:
    """The items ``text`` lists, each stripped; one item where it lists none. One rule for the
    value skills (a model's answer that lists the items a reading holds) and for a program's
    slot that picks one item of a value found, which had each had their own."""
    return [item.strip() for item in _ITEM_BREAK.split(text) if item.strip()]


def without_marker(item: str) -> str:
    """A list item without the numbering or bullet the list wrote before it: an item of a
    note's numbered list, picked by its place, was searched for as "1. The Silent Harbor"
    (2026-12-02)."""
    return _MARKER.sub("", item, count=1)


def listed_things(value: object) -> object:
    """A list a program gives as one text (an extracted value, "Singapore, Bangkok and Dubai",
    or a note's numbered lines) as its items; anything else as it is."""
    if isinstance(value, str):
        return [without_marker(item) for item in listed_items(value)]
    return value


def without_things(words: str, things: Sequence[str]) -> str:
    """``words`` less each of ``things`` they name and the list breaks left between them:
    the words searched for beside each thing. A planner that wrote one search for all the
    things ("flight time from Beijing to Singapore, Bangkok, Dubai") and is then made to look
    each up (pc06, 2026-12-03) keeps its words without the names. ``words`` as written where
    they name none of ``things`` or are nothing besides."""
    rest = f" {words} "
    for thing in things:
        rest = (
            re.sub(re.escape(thing.strip()), " ", rest, flags=re.IGNORECASE)
            if thing.strip()
            else rest
        )
    if rest == f" {words} ":
        return words
    while (joined := _ITEM_BREAK.sub(" ", rest)) != rest:  # a break may leave another
        rest = joined
    return " ".join(rest.split()) or words
