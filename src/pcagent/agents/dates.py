"""Dates as people write them ("18 February 2025", "March 3, 2025", "2025-03-03"), so the run
can count the days between two of them instead of a small model.

"Compute with the calculator how many days there are from 18 February 2025 to the start of the
trip": the trip's date was found in a memo ("Leaving: 3 March 2025"); the calculator counts the
days between two ``YYYY-MM-DD`` dates (``calculator_evaluate``), which the model never wrote.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?,?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I
)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
#: Words with which a subtask asks for the days between two dates.
_DAYS_ASKED = re.compile(
    r"\bhow\s+many\s+days\b|\bnumber\s+of\s+days\b|\bdays\s+(?:between|from|until|till|since)\b",
    re.I,
)


def _date(year: str, month: int, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), month, int(day))
    except ValueError:
        return None


def dates_in(text: str) -> list[dt.date]:
    """Every valid date of ``text``, in the order written, each once."""
    found: list[tuple[int, dt.date | None]] = []
    for match in _DAY_MONTH_YEAR.finditer(text):
        found.append((match.start(), _date(match[3], _MONTHS[match[2].lower()], match[1])))
    for match in _MONTH_DAY_YEAR.finditer(text):
        found.append((match.start(), _date(match[3], _MONTHS[match[1].lower()], match[2])))
    for match in _ISO.finditer(text):
        found.append((match.start(), _date(match[1], int(match[2]), match[3])))
    ordered = [date for _, date in sorted(found, key=lambda item: item[0]) if date is not None]
    return list(dict.fromkeys(ordered))


def days_between_asked(subtask: str, values: Mapping[str, str]) -> tuple[dt.date, dt.date] | None:
    """The two dates whose days apart ``subtask`` asks for: those it writes itself, then those
    of the values found before (not whole readings, ``<id>_read``); None unless it asks and
    exactly two dates are known."""
    if not _DAYS_ASKED.search(subtask):
        return None
    found = [value for name, value in values.items() if not name.endswith("_read")]
    dates = list(dict.fromkeys([*dates_in(subtask), *(d for v in found for d in dates_in(v))]))
    if len(dates) != 2:
        return None
    return dates[0], dates[1]
