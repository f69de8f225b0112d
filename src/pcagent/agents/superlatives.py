"""Which of several named things has the most or least of something, worked out by the run.

"Tell me which destination has the shortest flight", "write the shop with the lowest price":
with every flight time or price found, the 1.5B model reported the numbers and not the one
they pick out. Where a subtask asks such a question, the run finds, for each thing it compares
(named in its words, or the items of a value found before), the line of what was read that
names it with a quantity (a duration, a price, a number), and hands the extreme on as one more
known value: ``shortest = Bangkok (5 h 5 min)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pcagent.agents.evidence import listed_names
from pcagent.agents.time_offsets import duration_minutes

#: The words that ask for an extreme, and whether the least (True) or the most is wanted.
_EXTREMES = {
    "shortest": True,
    "quickest": True,
    "fastest": True,
    "cheapest": True,
    "lowest": True,
    "smallest": True,
    "fewest": True,
    "least": True,
    "longest": False,
    "slowest": False,
    "highest": False,
    "largest": False,
    "biggest": False,
    "most expensive": False,
    "most": False,
}
_ASKS = re.compile(
    r"\b(?:which|the\s+\w+(?:\s+\w+)?\s+with\s+the)\b[^.?;]*?\b("
    + "|".join(sorted((re.escape(word) for word in _EXTREMES), key=len, reverse=True))
    + r")\b",
    re.I,
)
#: Words that say the quantity is a duration or a price.
_DURATION_WORDS = re.compile(r"\b(?:shortest|quickest|fastest|longest|slowest|time|flight)\b", re.I)
_PRICE_WORDS = re.compile(r"\b(?:cheapest|expensive|price|prices|cost)\b", re.I)
_PRICE = re.compile(r"[$€£¥]\s*(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s*(?:USD|EUR|dollars)\b")
_NUMBER = re.compile(r"(?<![\d.:])(\d[\d,]*(?:\.\d+)?)(?![\d:])")
#: Most characters of a value taken for a list of things to compare.
_ITEMS_LIMIT = 200


def _quantity(line: str, kind: str) -> tuple[float, str] | None:
    """The first quantity of ``kind`` ("duration", "price", "number") in ``line``: its value
    (minutes, money, the number) and its text."""
    if kind == "duration":
        duration = duration_minutes(line)
        return None if duration is None else (float(duration[0]), duration[1])
    pattern = _PRICE if kind == "price" else _NUMBER
    match = pattern.search(line)
    if match is None:
        return None
    digits = next(group for group in match.groups() if group)
    return float(digits.replace(",", "")), match.group(0).strip()


def _kind(question: str) -> str:
    if _PRICE_WORDS.search(question):
        return "price"
    if _DURATION_WORDS.search(question):
        return "duration"
    return "number"


def _things(text: str, found: Sequence[str]) -> list[str]:
    """The things compared: those the words list by name, else the items of a short value
    found before ("Singapore; Bangkok; Dubai")."""
    named = listed_names(text)
    if len(named) >= 2:
        return named
    for value in found:
        if len(value) > _ITEMS_LIMIT:
            continue
        items = [item.strip(" .") for item in re.split(r";|,|\band\b", value) if item.strip(" .")]
        if len(items) >= 2 and all(len(item.split()) <= 4 for item in items):
            return items
    return []


#: Lines after the one naming a thing in which its quantity may stand (a search result's
#: title names the shop, its snippet two lines on gives the price).
_NEARBY_LINES = 3


def _measure(
    thing: str, things: Sequence[str], lines: Sequence[str], kind: str
) -> tuple[float, str] | None:
    """The first quantity of ``kind`` on a line naming ``thing`` and no other compared thing,
    or on the few lines after it before one names another; None without one."""
    mine = re.compile(rf"\b{re.escape(thing)}\b", re.I)
    others = [re.compile(rf"\b{re.escape(o)}\b", re.I) for o in things if o != thing]
    for index, line in enumerate(lines):
        if not mine.search(line) or any(o.search(line) for o in others):
            continue
        for near in lines[index : index + 1 + _NEARBY_LINES]:
            if near is not line and (mine.search(near) or any(o.search(near) for o in others)):
                break
            quantity = _quantity(near, kind)
            if quantity is not None:
                return quantity
    return None


def extremes(text: str, values: Mapping[str, str], reading: str, task: str = "") -> dict[str, str]:
    """The thing ``text`` asks for by an extreme ("which destination has the shortest flight"),
    as ``{word: "Thing (quantity)"}``; {} when it asks for none, or a compared thing (named in
    ``text`` or the whole ``task``, else the items of a value found before) has no line of
    ``reading`` or ``values`` that gives its quantity."""
    match = _ASKS.search(text)
    if match is None:
        return {}
    word = " ".join(match.group(1).lower().split())
    found = [v for k, v in values.items() if not k.endswith("_read")]
    things = _things(f"{text}\n{task}", found)
    if len(things) < 2:
        return {}
    kind = _kind(text)
    lines = "\n".join([reading, *values.values()]).splitlines()
    measured: list[tuple[float, str, str]] = []
    for thing in things:
        quantity = _measure(thing, things, lines, kind)
        if quantity is None:
            return {}
        measured.append((quantity[0], thing, quantity[1]))
    least = _EXTREMES[word]
    _amount, thing, shown = (min if least else max)(measured, key=lambda item: item[0])
    return {word.replace(" ", "_"): f"{thing} ({shown})"}
