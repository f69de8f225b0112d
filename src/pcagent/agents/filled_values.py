"""An argument's references filled in with the values earlier steps found, before a call.

Why apart from :mod:`pcagent.agents.program`: the program's types and checks are what the
Manager's side reads; this is what the run does with a step when its turn comes, and how a
value written by a page becomes a number or a text in a call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import JsonValue

from pcagent.agents.program import SLOT, is_reference
from pcagent.errors import PlanError
from pcagent.skills.lists import listed_items, without_marker
from pcagent.text import ARITHMETIC_CHARACTERS, without_notes

#: What an arithmetic expression holds besides its slots.
_ARITHMETIC = re.compile(f"{ARITHMETIC_CHARACTERS}*")
#: The number a found value begins with, after a currency sign: "$1,299.00 incl. tax".
_LEADING_NUMBER = re.compile(r"\s*[$€£¥]?\s*(-?\d[\d,]*(?:\.\d+)?)(?![\d.:/-])")
#: A digit: where what follows the leading number holds one, the value is no number with words
#: after it ("4 July 2025").
_DIGIT = re.compile(r"\d")


def _found(values: Mapping[str, JsonValue], source: str, key: str) -> JsonValue:
    """The value of step ``source`` (under ``key``; an object of one named value, referred to
    whole, gives that value). Raises :class:`PlanError` when it does not exist (yet)."""
    if source not in values:
        raise PlanError(f"step {source} has no value (it has not run, or found none)")
    value = values[source]
    if not key:
        # One value picked out under one name ({"price": "$5"}) stands for that value.
        one = list(value.values()) if isinstance(value, dict) else []
        return one[0] if len(one) == 1 else value
    if isinstance(value, dict) and key in value:
        return value[key]
    raise PlanError(f"step {source}'s value has no {key!r}: {json.dumps(value)[:200]}")


def _item(found: JsonValue, place: int, slot: str) -> JsonValue:
    """The item at ``place`` (from 0) of a list found, or of a text that lists several (each
    without the list's numbering or bullet)."""
    items = found if isinstance(found, list) else None
    if isinstance(found, str):
        items = [without_marker(item).strip() for item in listed_items(found)]
    if items is None or place >= len(items):
        count = "no list" if items is None else f"{len(items)} item(s)"
        raise PlanError(f"{slot} picks item {place}, and the value found has {count}")
    return items[place]


def _slot_text(values: Mapping[str, JsonValue], match: re.Match[str]) -> str:
    found = _found(values, match.group(1), match.group(2) or "")
    if match.group(3):
        found = _item(found, int(match.group(3)), match.group(0))
    return found if isinstance(found, str) else json.dumps(found, ensure_ascii=False)


def resolve(args: Mapping[str, JsonValue], values: Mapping[str, JsonValue]) -> dict[str, Any]:
    """The arguments with every reference replaced by the value it names (an object of one
    named value, referred to whole, gives that value; a value in arithmetic, its leading number).

    Raises :class:`PlanError` when a referenced value or key does not exist (yet)."""

    def value_of(reference: Mapping[str, Any]) -> JsonValue:
        return _found(values, reference["from"], reference.get("key") or "")

    def as_text(match: re.Match[str]) -> str:
        return _slot_text(values, match)

    def as_number(match: re.Match[str]) -> str:
        text = as_text(match)
        number = _LEADING_NUMBER.match(text)
        # Only a number followed by words and notes: "4 July 2025" is a date, not 4 (pc05,
        # 2026-11-28: days_between was given "4" for the end date).
        rest = without_notes(text[number.end() :]) if number else ""
        return number.group(1) if number and not _DIGIT.search(rest) else text

    def walk(value: JsonValue) -> JsonValue:
        if is_reference(value):
            return value_of(value)  # type: ignore[arg-type]
        if isinstance(value, str):
            # In arithmetic ("{s3.population} + 4300"), a value found as the page writes it
            # ("128,455,567 people (as of 2024-07-01)") stands for the number it begins with.
            arithmetic = _ARITHMETIC.fullmatch(SLOT.sub("", value)) is not None
            return SLOT.sub(as_number if arithmetic else as_text, value)
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return {name: walk(value) for name, value in args.items()}


def with_named_values(text: str, values: Mapping[str, JsonValue]) -> str:
    """A GUI step's words with each named slot (``{s2.city}``) whose value exists written out,
    as found: the Decision agent is to type the city, not the slot. A slot of no value yet stays
    as written, and a whole step's slot (``{s2}``) is left to the hub, which holds what the
    step reported."""

    def fill(match: re.Match[str]) -> str:
        if not match.group(2):
            return match.group(0)
        try:
            return _slot_text(values, match)
        except PlanError:
            return match.group(0)

    return SLOT.sub(fill, text)
