"""Comparing values leniently, the way people write them: case and spacing ignored, numbers equal
whatever their spelling (``2700``, ``"2,700"``, ``2700.0``, a typographic minus).

Shared by the checks modules, so that a file, an answer, a document and a workbook cell all match
a task's expected value by the same rules.
"""

from __future__ import annotations

import re

from pcagent.text import comparable

#: Numbers inside a sentence ("The result is 2,700.").
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def normalise_text(text: object) -> str:
    """``text`` with runs of white space made one space, trimmed, and case folded."""
    return comparable(str(text))


def parse_number(text: object) -> float | None:
    """``text`` as a number (thousands commas and a typographic minus allowed); None if it is
    not one."""
    cleaned = str(text).replace(",", "").replace("\u2212", "-").strip()
    try:
        return float(cleaned)
    except ValueError:
        return None


def numbers_in(text: str) -> list[str]:
    """The numbers written inside ``text``, as written (``"2,700"``), in order."""
    return _NUMBER.findall(text)


def same_value(actual: object, expected: object) -> bool:
    """Equal as numbers when both are numbers (2700 == "2,700" == 2700.0), else as text
    ignoring case and spacing."""
    a, b = parse_number(actual), parse_number(expected)
    if a is not None and b is not None:
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))
    return normalise_text(actual) == normalise_text(expected)
