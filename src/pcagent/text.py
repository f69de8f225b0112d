"""Small pure helpers over strings that several layers share: white space made single, text made
comparable (case, spacing and accents ignored), a label shortened for a narrow place, the
first line of an error's message, the dates a text writes.

They sit at the bottom of the stack so that the perception layer, the application interfaces,
the skills and the run loop compare and shorten text the same way instead of each keeping its
own copy. Nothing here reads an instruction to decide anything: these only put text in a form.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable


def single_spaced(text: str) -> str:
    """``text`` with every run of white space (newlines too) made one space, and trimmed."""
    return " ".join(text.split())


def comparable(text: str) -> str:
    """``text`` as a person compares it: single-spaced and case folded."""
    return single_spaced(text).casefold()


def contains(haystack: str, needle: str) -> bool:
    """Whether ``needle`` is in ``haystack``, ignoring case and runs of white space."""
    return comparable(needle) in comparable(haystack)


def lines_holding(wanted: str, text: str) -> list[str]:
    """The lines of ``text`` that hold ``wanted`` (compared as :func:`comparable`), stripped;
    none for an empty ``wanted``: where a value a model copied stands in what was read."""
    if not (wanted := comparable(wanted)):
        return []
    return [line.strip() for line in text.splitlines() if wanted in comparable(line)]


def without_accents(text: str) -> str:
    """``text`` with its accents and other combining marks removed ("Léon" -> "Leon"), so that
    what a person types without them still matches."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def folded(text: str) -> str:
    """``text`` as a person compares a name: single-spaced, case folded and without accents
    ("São Paulo" and "sao  paulo" come out the same)."""
    return comparable(without_accents(text))


_NOTE = re.compile(r"\([^()]*\)")


def without_notes(text: str) -> str:
    """``text`` without its notes in brackets ("128455567 people (as of 2024-07-01)"): what a
    value found says besides them decides whether it is one number."""
    return _NOTE.sub("", text)


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s message (its type's name when it has none): libraries such
    as Playwright and Ray put a call log or a traceback after the line that says what failed."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


#: A word's first letters that a word of a text must begin with for the word to be written
#: there: spellings and endings differ after them ("Labour" and "Labor", "walking" and "walk").
STEM = 4
#: A word of a text, an underscore parting two (file names: "travel_plan.txt").
_PART = re.compile(r"[^\W_]+")


def word_parts(text: str) -> list[str]:
    """The words of ``text``, an underscore parting two ("travel_plan.txt": travel, plan, txt)."""
    return _PART.findall(text)


def word_written(word: str, texts: Iterable[str]) -> bool:
    """Whether a word of one of ``texts`` begins with ``word``'s first :data:`STEM` letters,
    compared as names are (:func:`folded`). Not inside a word: an example's "Riverside Walk",
    copied into a map form, was taken as given by an instruction's "drives" (pc04,
    2026-12-01)."""
    stem = folded(word[:STEM])
    return any(folded(part).startswith(stem) for text in texts for part in word_parts(text))


def shortened(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- dates as people write them ------------------------------------------------------------------
# "2 May 2025", "May 2, 2025", "2025-05-02" are one date. A value a model copies out of a text is
# checked against that text, and a small model writes a date in the form it knows best
# ("2025-05-02" for a mail's "2 May 2025"): the value was refused as not in the text (pc25,
# 2026-11-27), though the text says exactly that date. Only unambiguous forms count: the year in
# four digits, the month by name or in year-first order ("02/05/2025" is not read).

_MONTH_NAMES = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
#: Each month's name, its three-letter short form ("sept" too) -> its number.
_MONTHS = {
    **{name: number for number, name in enumerate(_MONTH_NAMES, start=1)},
    **{name[:3]: number for number, name in enumerate(_MONTH_NAMES, start=1)},
    "sept": 9,
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
_FORMS = (
    re.compile(r"\b(?P<year>\d{4})-(?P<number>\d{1,2})-(?P<day>\d{1,2})\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
)


def dates_in(text: str) -> set[dt.date]:
    """Every date ``text`` writes in one of the unambiguous forms."""
    found: set[dt.date] = set()
    for form in _FORMS:
        for match in form.finditer(text):
            parts = match.groupdict()
            month = parts.get("number") or _MONTHS[parts["month"].lower()]
            try:
                found.add(dt.date(int(parts["year"]), int(month), int(parts["day"])))
            except ValueError:
                continue  # "2025-02-30" is no date
    return found


#: How a form field's hint writes a date ("YYYY-MM-DD", "DD/MM/YYYY", "MM.DD.YYYY").
_DATE_HINT = re.compile(r"\b(YYYY|MM|DD)([-/.])(YYYY|MM|DD)\2(YYYY|MM|DD)\b")
_WEEKDAY = re.compile(
    r"^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)"
    r"\.?,?\s+",
    re.IGNORECASE,
)


def date_as_hinted(value: str, hints: Iterable[str]) -> str | None:
    """``value``, one date alone in an unambiguous form ("14 March 2025", "Friday, 14 March
    2025"), written the way the first of ``hints`` that writes a date does ("YYYY-MM-DD":
    "2025-03-14"); None where no hint writes a date or ``value`` is not one date alone. A
    field's placeholder says how the page takes a date; the date a step fills in comes as a
    mail or page wrote it."""
    found = (match for hint in hints if (match := _DATE_HINT.search(hint)))
    hint = next(found, None)
    if hint is None or sorted(hint.group(1, 3, 4)) != ["DD", "MM", "YYYY"]:
        return None
    date = _date_alone(_WEEKDAY.sub("", value.strip(" .,")))
    if date is None:
        return None
    parts = {"YYYY": f"{date.year:04d}", "MM": f"{date.month:02d}", "DD": f"{date.day:02d}"}
    return hint.group(2).join(parts[part] for part in hint.group(1, 3, 4))


def date_written(value: str) -> dt.date | None:
    """The date ``value`` is, written alone in one of the forms, a weekday before it or not
    ("Monday 3 March 2025", "3rd of March 2025"); None for anything else."""
    return _date_alone(_WEEKDAY.sub("", value.strip(" .,")))


_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTH_WRITTEN = "|".join(
    sorted(
        {*(name.capitalize() for name in _MONTH_NAMES), *(n[:3].capitalize() for n in _MONTH_NAMES)}
        | {"Sept"},
        key=len,
        reverse=True,
    )
)
_DAY_WRITTEN = "[0-9]{1,2}(st|nd|rd|th)?"
#: A date as a text writes it, in the forms :func:`dates_in` reads (a month's name capitalised,
#: a weekday before it or not), as a closed pattern a reply's grammar can hold a model to.
DATE_WRITTEN = (
    f"^(({'|'.join(_WEEKDAY_NAMES)}),? )?("
    "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    f"|{_DAY_WRITTEN} (of )?({_MONTH_WRITTEN})[.]?,? [0-9]{{4}}"
    f"|({_MONTH_WRITTEN})[.]? {_DAY_WRITTEN},? [0-9]{{4}})$"
)


def _date_alone(value: str) -> dt.date | None:
    """The date ``value`` is, written alone in one of the forms (a full stop or comma around
    it aside); None for anything else."""
    dates = dates_in(value)
    stripped = value.strip(" .,")
    if len(dates) != 1 or not any(form.fullmatch(stripped) for form in _FORMS):
        return None
    return next(iter(dates))


def same_date_written(value: str, text: str) -> bool:
    """Whether ``value`` is one date, alone, that ``text`` writes (in any of the forms)."""
    date = _date_alone(value)
    return date is not None and date in dates_in(text)


#: The characters of arithmetic as the calculator takes it (digits, operators, parentheses,
#: a power sign, spaces): the calculator's parameter and the filling of found values into an
#: expression agree on what an expression is.
ARITHMETIC_CHARACTERS = r"[0-9+\-*/().^ ]"
