"""A template for the browser's flight sites: search a flight between two cities on a date.

Apart from the other browser templates because it fills a form (``fill_form``) where they read
a page: a search form of fields by label, a date typed as the form asks for it (YYYY-MM-DD) where
the instruction says "14 June 2025", and a trip type that is a radio button.
"""

from __future__ import annotations

import datetime
from typing import Literal
from urllib.parse import urlencode

from pydantic import JsonValue

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import carried_or, node
from pcagent.bench.generate.vocabulary import CITIES, RESERVED_NUMBERS
from pcagent.bench.generate.wording import refer_to
from pcagent.bench.web.sites import find_airport

#: The two flight sites: booking.com searches one-way and round trips, flights.local one-way.
Site = Literal["www.booking.com", "flights.local"]
#: How an instruction names each site.
SITE_WORDS: dict[str, str] = {"www.booking.com": "booking.com", "flights.local": "flights.local"}


#: Days a journey may start or end on: June to September 2025 (away from the built-in tasks'
#: journeys in March and May), none whose day of the month is a built-in task's expected number
#: (a memory holding "2025-06-13" would hold pc19's 13).
TRAVEL_DAYS: tuple[datetime.date, ...] = tuple(
    datetime.date(2025, month, day)
    for month in range(6, 10)
    for day in range(1, 29)
    if day not in RESERVED_NUMBERS
)


class FlightSearch(TemplateAttributes):
    site: Site
    origin: str
    destination: str
    #: Departure and (round trips) return dates, YYYY-MM-DD.
    date: str
    return_date: str = ""

    @property
    def trip(self) -> Literal["oneway", "roundtrip"]:
        return "roundtrip" if self.return_date else "oneway"


def date_words(iso: str) -> str:
    """ "14 June 2025" for "2025-06-14": dates as people write them in instructions."""
    day = datetime.date.fromisoformat(iso)
    return f"{day.day} {day:%B} {day.year}"


class BrowserFlightSearch(SubtaskTemplate[FlightSearch], spec="browser_flight_search"):
    """Search a flight site for a one-way or round-trip flight between two of the vocabulary's
    cities (the destination may be the city an earlier sub-task found)."""

    def draw(self, source: Draw) -> FlightSearch:
        rng = source.rng
        given = source.given_as("city")
        destination = given.text if given is not None else rng.choice(CITIES)
        origin = rng.choice([city for city in CITIES if city != destination])
        departs = rng.choice(TRAVEL_DAYS)
        site: Site = rng.choice(("www.booking.com", "flights.local"))
        back = ""
        later = [day for day in TRAVEL_DAYS if 3 <= (day - departs).days <= 10]
        if site == "www.booking.com" and later and rng.random() < 0.5:
            back = rng.choice(later).isoformat()
        return FlightSearch(
            site=site,
            origin=origin,
            destination=destination,
            date=departs.isoformat(),
            return_date=back,
            reference_to_previous=refer_to(given) if given is not None else "",
        )

    def build(self, attributes: FlightSearch, slot: Slot) -> Fragment:
        a = attributes
        dates = f"on {date_words(a.date)}"
        if a.return_date:
            dates += f", coming back on {date_words(a.return_date)}"
        route = {"from": a.origin, "to": a.destination, "date": a.date}
        if a.site == "www.booking.com":
            route = {"trip": a.trip, **route} | ({"return": a.return_date} if a.return_date else {})
        address = f"https://{a.site}" if a.site == "www.booking.com" else f"http://{a.site}"
        searched = f"{address}/search?{urlencode(route)}"
        return self.fragment(
            a,
            slot,
            f"Search {a.site} for a {a.trip} flight {a.origin}-{a.destination} {dates}",
            words={
                "site": SITE_WORDS[a.site],
                "trip": "a round-trip flight" if a.return_date else "a one-way flight",
                "origin": a.origin,
                "destination": a.reference_to_previous or a.destination,
                "dates": dates,
            },
            nodes=[
                node(
                    slot,
                    "searched",
                    "flight_searched",
                    {
                        "host": a.site,
                        "origin": find_airport(a.origin),
                        "destination": find_airport(a.destination),
                        "date": a.date,
                        "trip": a.trip,
                    }
                    | ({"return_date": a.return_date} if a.return_date else {}),
                    description=f"a {a.trip} search {a.origin}-{a.destination} {dates}",
                )
            ],
            reference=[
                gui.act("open_app", app="browser"),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=f"{searched}\n"),
                gui.wait_for(a.origin),
            ],
            reference_api=[gui.act("browser_open", url=searched)],
            program=_search_program(a, address),
            services=("web",),
        )


def _search_program(a: FlightSearch, address: str) -> FragmentProgram:
    """Open the site, fill its search form by the fields' labels and send it. On booking.com
    the trip type is a radio button, ticked with "true"."""
    fields: list[JsonValue] = []
    if a.site == "www.booking.com":
        fields.append({"label": "Round trip" if a.return_date else "One-way", "value": "true"})
    fields += [
        {"label": "From", "value": a.origin},
        {"label": "To", "value": carried_or(a.reference_to_previous, a.destination)},
        {"label": "Depart" if a.site == "www.booking.com" else "Date", "value": a.date},
    ]
    if a.return_date:
        fields.append({"label": "Return", "value": a.return_date})
    return FragmentProgram(
        (
            programs.call("s1", "open_page", address=SITE_WORDS[a.site]),
            programs.call("s2", "fill_form", fields=fields),
        )
    )
