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
import unicodedata
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
#: Words that say the quantity is a rating, a duration or a price.
_RATING_WORDS = re.compile(r"\b(?:rating|ratings|rated|score|scores|stars)\b", re.I)
_DURATION_WORDS = re.compile(r"\b(?:shortest|quickest|fastest|longest|slowest|time|flight)\b", re.I)
_PRICE_WORDS = re.compile(r"\b(?:cheapest|expensive|price|prices|cost)\b", re.I)
_PRICE = re.compile(r"[$€£¥]\s*(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s*(?:USD|EUR|dollars)\b")
#: "8.5/10", "Rated 8.5", "rating: 8.5", "4.5 stars" (not the year in "Heat (1995)").
_RATING = re.compile(
    r"(\d+(?:\.\d+)?)\s*/\s*(?:10|5|100)\b|\b(?:rated|rating|score)\s*:?\s*(\d+(?:\.\d+)?)"
    r"|(\d+(?:\.\d+)?)\s*stars?\b",
    re.I,
)
_NUMBER = re.compile(r"(?<![\d.:])(\d[\d,]*(?:\.\d+)?)(?![\d:])")
#: Most characters of a value taken for a list of things to compare.
_ITEMS_LIMIT = 200


def _quantity(line: str, kind: str) -> tuple[float, str] | None:
    """The first quantity of ``kind`` ("duration", "price", "rating", "number") in ``line``:
    its value (minutes, money, the number) and its text (a rating's number alone)."""
    if kind == "duration":
        duration = duration_minutes(line)
        return None if duration is None else (float(duration[0]), duration[1])
    pattern = {"price": _PRICE, "rating": _RATING}.get(kind, _NUMBER)
    match = pattern.search(line)
    if match is None:
        return None
    digits = next(group for group in match.groups() if group)
    shown = digits if kind == "rating" else match.group(0).strip()
    return float(digits.replace(",", "")), shown


def _kind(question: str) -> str:
    if _RATING_WORDS.search(question):
        return "rating"
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


def _plain(text: str) -> str:
    """``text`` without accents: a page writes "Léon" where the task wrote "Leon"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _naming(thing: str) -> re.Pattern[str]:
    """A pattern for a line that names ``thing`` (whole words, any case, no accents)."""
    return re.compile(rf"(?<!\w){re.escape(_plain(thing))}(?!\w)", re.I)


def _measure(
    thing: str, things: Sequence[str], lines: Sequence[str], kind: str
) -> tuple[float, str] | None:
    """The first quantity of ``kind`` on a line naming ``thing`` and no other compared thing,
    or on the few lines after it before one names another; None without one."""
    mine = _naming(thing)
    others = [_naming(o) for o in things if o != thing]
    lines = [_plain(line) for line in lines]
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


def _all_measured(
    text: str, values: Mapping[str, str], reading: str, task: str
) -> list[tuple[float, str, str]]:
    """(amount, thing, quantity as written) for each thing ``text`` compares (named in it or
    in ``task``, else the items of a value found before); [] when fewer than two, or when
    one has no line of ``reading`` or ``values`` giving its quantity."""
    found = [v for k, v in values.items() if not k.endswith("_read")]
    things = _things(f"{text}\n{task}", found)
    if len(things) < 2:
        return []
    kind = _kind(text)
    lines = "\n".join([reading, *values.values()]).splitlines()
    measured: list[tuple[float, str, str]] = []
    for thing in things:
        quantity = _measure(thing, things, lines, kind)
        if quantity is None:
            return []
        measured.append((quantity[0], thing, quantity[1]))
    return measured


def extremes(text: str, values: Mapping[str, str], reading: str, task: str = "") -> dict[str, str]:
    """The thing ``text`` asks for by an extreme ("which destination has the shortest flight"),
    as ``{word: "Thing (quantity)"}``; {} when it asks for none, or a compared thing (named in
    ``text`` or the whole ``task``, else the items of a value found before) has no line of
    ``reading`` or ``values`` that gives its quantity."""
    match = _ASKS.search(text)
    if match is None:
        return {}
    word = " ".join(match.group(1).lower().split())
    measured = _all_measured(text, values, reading, task)
    if not measured:
        return {}
    least = _EXTREMES[word]
    _amount, thing, shown = (min if least else max)(measured, key=lambda item: item[0])
    return {word.replace(" ", "_"): f"{thing} ({shown})"}


#: "sorted from highest to lowest", "from the cheapest to the most expensive", "highest
#: (rating) first", "in descending order": the words that ask for things in order, and which way.
_ORDER = re.compile(
    r"\bfrom\s+(?:the\s+)?(?P<start>highest|lowest|largest|smallest|biggest|best|worst|most|"
    r"least|cheapest|longest|shortest)\b[^.;]*?\bto\b"
    r"|\b(?P<first>highest|lowest|largest|smallest|biggest|best|worst|cheapest|longest|"
    r"shortest)(?:\s+\w+)?\s+first\b"
    r"|\b(?P<way>descending|ascending)\b",
    re.I,
)
_FALLING = {"highest", "largest", "biggest", "best", "most", "longest", "descending"}


def ordering(text: str, values: Mapping[str, str], reading: str, task: str = "") -> dict[str, str]:
    """The things ``text`` asks to have in order ("write them sorted from highest to lowest
    rating"), in that order with their quantities, as one known value:
    ``{"highest_first": "The Shawshank Redemption (9.3/10); Leon: The Professional (8.5/10)"}``;
    {} when it asks for no order or a thing's quantity is not known (as :func:`extremes`). With
    every rating read, the 1.5B model's Composer wrote one of them wrong and kept the order of
    the search results."""
    match = _ORDER.search(text)
    if match is None:
        return {}
    word = next(group for group in match.groups() if group).lower()
    measured = _all_measured(text, values, reading, task)
    if not measured:
        return {}
    falling = word in _FALLING
    ordered = sorted(measured, key=lambda item: item[0], reverse=falling)
    key = "highest_first" if falling else "lowest_first"
    return {key: "; ".join(f"{thing} ({shown})" for _amount, thing, shown in ordered)}
