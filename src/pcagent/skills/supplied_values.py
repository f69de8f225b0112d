"""Values earlier steps of a run supplied, and a value found only inside one of them.

Why apart: an extraction is checked against what the run itself typed or handed on (a page may
echo a form's value back), which is a question about the run's values, not about language."""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import unquote_plus

from pcagent.text import comparable


def earlier_values(hub: Mapping[str, str]) -> list[str]:
    """The values earlier steps handed over, each as text: an object's or a list's items one by
    one (a step's value is kept as JSON when it is not a text)."""
    pending: list[object] = []
    for text in hub.values():
        try:
            pending.append(json.loads(text))
        except ValueError:
            pending.append(text)
    found: list[str] = []
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif value is not None and str(value).strip():
            found.append(str(value))
    return found


def fragment_of(value: str, text: str, supplied: list[str]) -> str:
    """The earlier value that every occurrence of ``value`` in ``text`` lies inside, where it
    is only a part of it ("14" of "14:00", typed into a form and echoed by its page); "" when
    ``value`` stands in the text on its own somewhere. Only values with a digit are judged (a
    number, a time, a date), and only earlier values that are values, not texts read. Web
    addresses are read decoded ("to=14%3A00" holds "14:00").

    Why: given "14:00" as the place to go to, an offline map answered "Unknown place: '14:00'"
    and the language model read "14" off it as the travel time in minutes; the check that the
    text holds the value passed, and the run told "14" and said "finished" (pc02, 2026-11-29)."""
    seen = comparable(unquote_plus(text))
    wanted = comparable(value)
    if not any(char.isdigit() for char in wanted):
        return ""  # a name inside a longer name given ("Berlin" of "Berlin Hbf") may be meant
    if (again := _only_echoed(value, text, supplied)) is not None:
        return again
    longer = sorted(
        {
            comparable(one)
            for one in supplied
            if wanted in comparable(one) and len(one) > len(value) and _a_value(one)
        },
        key=len,
        reverse=True,
    )
    if not longer:
        return ""
    for one in longer:
        seen = seen.replace(one, " " * len(one))
    if wanted in seen:
        return ""
    return next(one for one in supplied if comparable(one) == longer[-1])


#: The lines of a page's reading that say what was asked for, not what the page gives: a
#: search's title and address are its words.
_ECHO_LINES = ("Title:", "Address:")
#: The heading of a reading's form fields, each listed as ``- "label" (kind) = "value"``: a
#: field holds what was typed into it (the search box, the query).
_FIELDS_HEADING = "Fields"


def _echo_free(text: str) -> str:
    """``text`` without its echo lines: each title and address line, and the items under a
    "Fields" heading. Why the fields: the 1.5B model read the meeting's "11:30" as the trip time
    off the search box of the page of results ("q" = "... Brooklyn Museum on 11:30"), which the
    title-and-address check let through, and the run said "finished" (a rewording of pc03 at
    4dad89f, 2026-12-06)."""
    kept, in_fields = [], False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(_FIELDS_HEADING) and stripped.endswith(":"):
            in_fields = True
            continue
        in_fields = in_fields and stripped.startswith("- ")
        if not in_fields and not stripped.startswith(_ECHO_LINES):
            kept.append(line)
    return "\n".join(kept)


def _only_echoed(value: str, text: str, supplied: list[str]) -> str | None:
    """The earlier value ``value`` is, where the text holds it only in its echo lines (title,
    address, form fields: :func:`_echo_free`); None otherwise. Why: a program searched for "trip time from Empire State Building
    to Brooklyn Museum on 11:30", the results page's title echoed the query, the language
    model read "11:30", the meeting's time found two steps before, as the trip time, the alarm
    was set at it and the run said "finished" (a rewording of pc03 at 5c481a6, 2026-12-06).
    A value the run already had, found again only where a page repeats what it was asked, is
    no finding."""
    wanted = comparable(value)
    had = next((one for one in supplied if comparable(one) == wanted and _a_value(one)), None)
    if had is None:
        return None
    return None if wanted in comparable(unquote_plus(_echo_free(text))) else had


def _a_value(text: str) -> bool:
    """Whether ``text`` is a value (a time, a name, a number: one short line) rather than a
    text read (a memo, a page), which holds everything and is where values are found."""
    return "\n" not in text.strip() and len(text) <= VALUE_LIMIT


#: The longest earlier value taken as a value supplied, not a text read.
VALUE_LIMIT = 60
