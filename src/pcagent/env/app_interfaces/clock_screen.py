"""What gnome-clocks' window shows, read from its accessible elements: the alarms and cities it
lists, the times on its labels, and the buttons of its dialogs.

Pure functions over elements, kept apart from the interface that drives the dialogs
(:mod:`pcagent.env.app_interfaces.clock`) so they can be tested without a desktop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pcagent.env.observation import Element
from pcagent.text import folded


@dataclass(frozen=True)
class Alarm:
    """One alarm as gnome-clocks saved it (hour and minute on the 24-hour clock)."""

    id: str
    name: str
    hour: int
    minute: int
    active: bool
    #: Repeat days, 1 (Monday) to 7; empty for an alarm that rings once.
    days: tuple[int, ...]


@dataclass(frozen=True)
class CityRow:
    """One search result of the world clock dialog: the city's label and its country's."""

    city: str
    country: str
    target: Element


def choose_city(rows: Sequence[CityRow], wanted: str) -> CityRow | None:
    """The search result ``wanted`` ("Tokyo", "Paris, France") means; None when none fits.

    An exact city name beats one that only starts with the words asked for ("Frankfurt" finds
    "Frankfurt am Main"); a country after a comma picks among namesakes. The first fitting row
    wins, because the dialog lists the best known place first.
    """
    name, _, region = wanted.partition(",")
    key, region_key = folded(name), folded(region)
    if not key:
        return None
    pool = [r for r in rows if folded(r.city) == key] or [
        r for r in rows if folded(r.city).startswith(key)
    ]
    if region_key:
        pool = [
            r for r in pool if region_key in folded(r.country) or folded(r.country) in region_key
        ]
    return pool[0] if pool else None


def city_rows(elements: Sequence[Element]) -> list[CityRow]:
    """The world clock dialog's search results, top to bottom.

    Each result is a list item holding the city's label, the country's label on the same line
    and a time zone line below; the labels carry the names, the list item none.
    """
    rows = []
    for item in (e for e in elements if e.role == "list item" and not e.box.is_empty):
        labels = sorted(
            (
                e
                for e in elements
                if e.role == "label" and e.name.strip() and item.box.contains(*e.box.center)
            ),
            key=lambda e: (e.box.y, e.box.x),
        )
        if not labels:
            continue
        first = labels[0]
        country = next((e.name for e in labels[1:] if e.box.y == first.box.y), "")
        rows.append(CityRow(city=first.name.strip(), country=country.strip(), target=first))
    return sorted(rows, key=lambda row: (row.target.box.y, row.target.box.x))


def shown_time(label: str) -> tuple[int, int] | None:
    """The time an alarm row's label shows, on the 24-hour clock; None for other labels.

    gnome-clocks writes times with a left-to-right mark and a ratio sign (U+2236) for the colon,
    and adds AM/PM when the desktop uses a 12-hour clock.
    """
    text = label.replace("\u200e", "").replace("\u2236", ":").strip()
    match = re.fullmatch(r"(\d{1,2}):(\d{2})(?:\s*([AaPp])\.?[Mm]\.?)?", text)
    if match is None:
        return None
    hour, minute, half = int(match.group(1)), int(match.group(2)), match.group(3)
    if half is not None:
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    return hour, minute


def named_element(elements: Sequence[Element], role: str, name: str) -> Element | None:
    """The first drawn element (non-empty box) of ``role`` whose name is exactly ``name``."""
    return next(
        (e for e in elements if e.role == role and e.name == name and not e.box.is_empty), None
    )


def button_labelled(elements: Sequence[Element], label: str) -> Element | None:
    """A dialog's header button: GTK names it by its mnemonic and its label ("_Add Add")."""
    return next(
        (
            e
            for e in elements
            if e.role == "push button" and e.name.split()[-1:] == [label] and not e.box.is_empty
        ),
        None,
    )


FIELD_ROLES = ("text", "entry", "spin button")


def first_field(elements: Sequence[Element]) -> Element | None:
    """A dialog's first field one can type into (topmost, then leftmost, drawn): the one its
    keyboard focus starts in."""
    fields = [e for e in elements if e.role in FIELD_ROLES and not e.box.is_empty]
    return min(fields, key=lambda e: (e.box.y, e.box.x), default=None)


def header_add_button(elements: Sequence[Element], tab: Element) -> Element | None:
    """The header bar's add button ("+"), the push button left of the tabs on their row.

    GTK4 gives it no name of its own (its icon's "GtkImage"), so it is found by where the
    header bar puts it; the window's other header buttons sit right of the tabs."""
    row = [
        e
        for e in elements
        if e.role == "push button"
        and not e.box.is_empty
        and e.box.x + e.box.width <= tab.box.x
        and e.box.y < tab.box.y + tab.box.height
        and tab.box.y < e.box.y + e.box.height
    ]
    return min(row, key=lambda e: e.box.x, default=None)


def lists_city(city: str) -> Callable[[list[Element]], bool]:
    """The main window has a world clock row named ``city``."""
    return lambda elements: any(
        e.role == "list item" and folded(e.name) == folded(city) for e in elements
    )


def shows_alarm(alarm: Alarm) -> Callable[[list[Element]], bool]:
    """The main window has a label with the alarm's time, and one with its name if it has one."""

    def shows(elements: list[Element]) -> bool:
        names = [e.name for e in elements if e.role == "label"]
        at_time = any(shown_time(n) == (alarm.hour, alarm.minute) for n in names)
        return at_time and (not alarm.name or any(folded(alarm.name) == folded(n) for n in names))

    return shows
