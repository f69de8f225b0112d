"""An extraction's values checked against the text they came from: a value the text does not
hold is refused, not passed on (a small model writes values of its own, or copies a line and
then strays)."""

from __future__ import annotations

from pydantic import BaseModel

from pcagent.skills.lists import listed_items
from pcagent.skills.typed_replies import each_of, replied_values
from pcagent.text import contains, same_date_written


def held_values(
    reply: BaseModel, names: list[str], text: str
) -> tuple[dict[str, str | list[str]], list[str]]:
    """A reply's values (each cut to what ``text`` holds where it says more) and the names of
    those ``text`` does not hold."""
    values = {
        name: cut_to_held(text, value) or value
        for name, value in replied_values(reply, names).items()
    }
    unseen = [
        name for name, value in values.items() if not all(held(text, one) for one in each_of(value))
    ]
    return values, unseen


def cut_to_held(text: str, value: object) -> str:
    """A value of several lines whose last line goes astray, cut back to what ``text`` holds:
    every line but the last held whole, the last cut to its longest held beginning of more
    than half its words (or left out); "" where the value is held as it is, is one line, or
    an earlier line is not held. Why: asked for the tourist attractions a page lists, a line
    each, the 1.5B model copied three lines and most of a fourth, then wrote "at once at"
    where the page says "at once each time", and the whole look-up failed as not found (pc20
    at 2e14a63, 2026-12-05). What is kept is the text's own words."""
    if not isinstance(value, str) or held(text, value):
        return ""
    lines = [line for line in value.splitlines() if line.strip()]
    if len(lines) < 2 or not all(held(text, line) for line in lines[:-1]):
        return ""
    words = lines[-1].split()
    for end in range(len(words) - 1, len(words) // 2, -1):  # at least half of it, or none
        if held(text, part := " ".join(words[:end])):
            return "\n".join([*lines[:-1], part])
    return "\n".join(lines[:-1])


def held(text: str, value: str) -> bool:
    """Whether ``text`` holds the model's ``value``: as written, as a date written another way,
    or as a list of items each of which it holds. Asked for three companies' share prices, the
    1.5B model answered "131.38, 227.52, 415.26", each the price on the page, and the whole was
    refused for the text never writing the three in a row (pc07, 2026-11-29)."""
    if contains(text, value) or same_date_written(value, text):
        return True
    items = listed_items(value)
    return len(items) > 1 and all(
        contains(text, item) or same_date_written(item, text) for item in items
    )
