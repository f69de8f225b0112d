"""The two flight sites over the same timetable (``FLIGHTS``): flights.local (SkyFare) searches
one-way flights and books them; www.booking.com searches one-way and round trips, without booking.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode

from pcagent.bench.web.data import AIRPORTS, FLIGHTS, booking_code
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_FLIGHTS_BY_NUMBER = {flight["number"]: flight for flight in FLIGHTS}
_TABLE_HEADER = "<th>Flight</th><th>Airline</th><th>Departs</th><th>Arrives</th><th>Price</th>"


def find_airport(text: str) -> str | None:
    """The airport code for a code or city name typed by a person ("nyc", "New York")."""
    wanted = " ".join(text.split()).lower()
    for code, city in AIRPORTS.items():
        if wanted in (code.lower(), city.lower()):
            return code
    return None


def _airport_list() -> str:
    """Every airport as "City (CODE)", for the line under a search form."""
    return escape(", ".join(f"{city} ({code})" for code, city in AIRPORTS.items()))


def _flights_between(origin: str, destination: str) -> list[dict[str, Any]]:
    """The flights from one airport code to another, earliest departure first."""
    return sorted(
        (f for f in FLIGHTS if (f["from"], f["to"]) == (origin, destination)),
        key=lambda f: f["departs"],
    )


def _flight_rows(flights: list[dict[str, Any]], book_on: str | None = None) -> str:
    """Table rows of flights; with a date ``book_on``, each row ends in a link to that flight's
    booking form for the date."""
    rows = []
    for f in flights:
        select = ""
        if book_on is not None:
            href = f"/flight/{f['number']}?{urlencode({'date': book_on})}"
            select = f'<td><a href="{href}">Select {f["number"]}</a></td>'
        rows.append(
            f"<tr><td>{f['number']}</td><td>{escape(f['airline'])}</td><td>{f['departs']}</td>"
            f'<td>{f["arrives"]}</td><td class="price">{pages.money(f["price"])}</td>{select}</tr>'
        )
    return "".join(rows)


# --- flights.local -------------------------------------------------------------------------------

_SKYFARE = "SkyFare"


def _flight_form(origin: str = "", destination: str = "", date: str = "") -> str:
    return (
        '<form action="/search" method="get"><fieldset><legend>Search flights</legend>'
        f"{pages.text_field('from', 'From', origin)}{pages.text_field('to', 'To', destination)}"
        f"{pages.text_field('date', 'Date', date, placeholder='YYYY-MM-DD')}"
        '<p><button type="submit">Search flights</button></p></fieldset></form>'
        f"<p>We fly between: {_airport_list()}.</p>"
    )


def _flight_line(flight: Mapping[str, object]) -> str:
    return (
        f"{flight['number']} {flight['airline']}: {AIRPORTS[str(flight['from'])]} "
        f"{flight['departs']} → {AIRPORTS[str(flight['to'])]} {flight['arrives']}"
    )


def _skyfare_search(request: PageRequest) -> PageResponse:
    origin_text, destination_text = request.param("from"), request.param("to")
    date = request.param("date")
    form = _flight_form(origin_text, destination_text, date)
    origin, destination = find_airport(origin_text), find_airport(destination_text)
    problems = [
        f"Unknown city or airport: {text!r}."
        for text, code in ((origin_text, origin), (destination_text, destination))
        if code is None
    ]
    if not _DATE.fullmatch(date):
        problems.append("Enter the date as YYYY-MM-DD.")
    if problems or origin is None or destination is None:
        return pages.page(
            _SKYFARE, "Search flights - SkyFare", f"{pages.error_list(problems)}{form}"
        )
    found = _flights_between(origin, destination)
    title = f"Flights from {AIRPORTS[origin]} to {AIRPORTS[destination]} on {date}"
    table = (
        f"<table><tr>{_TABLE_HEADER}<th></th></tr>{_flight_rows(found, book_on=date)}</table>"
        if found
        else "<p>No flights on this route.</p>"
    )
    return pages.page(_SKYFARE, f"{title} - SkyFare", f"<h1>{escape(title)}</h1>{table}{form}")


def _skyfare_booking_form(flight: Mapping[str, Any], date: str) -> PageResponse:
    body = (
        f"<h1>Book flight {flight['number']}</h1><p>{escape(_flight_line(flight))}</p>"
        f"<p>Date: {escape(date)} · "
        f'Price: <span class="price">{pages.money(flight["price"])}</span></p>'
        '<form action="/book" method="post"><fieldset><legend>Passenger</legend>'
        f'<input type="hidden" name="flight" value="{flight["number"]}">'
        f"{pages.text_field('date', 'Date', date, placeholder='YYYY-MM-DD')}"
        f"{pages.text_field('name', 'Full name')}{pages.text_field('email', 'Email')}"
        '<p><button type="submit">Book now</button></p></fieldset></form>'
    )
    return pages.page(_SKYFARE, f"Book {flight['number']} - SkyFare", body)


def _skyfare_book(request: PageRequest) -> PageResponse:
    if request.method != "POST":
        body = '<p class="error">Choose a flight first.</p><p><a href="/">Search flights</a></p>'
        return pages.page(_SKYFARE, "Booking - SkyFare", body, status=405)
    flight_number = request.param("flight").upper()
    date, passenger = request.param("date"), request.param("name")
    problems = []
    if flight_number not in _FLIGHTS_BY_NUMBER:
        problems.append(f"Unknown flight {flight_number!r}.")
    if not _DATE.fullmatch(date):
        problems.append("Enter the date as YYYY-MM-DD.")
    if not passenger:
        problems.append("Enter the passenger's full name.")
    if problems:
        back = f'<p><a href="/flight/{quote(flight_number)}">Back to the booking form</a></p>'
        body = f"{pages.error_list(problems)}{back}"
        return pages.page(_SKYFARE, "Booking failed - SkyFare", body, status=400)
    flight = _FLIGHTS_BY_NUMBER[flight_number]
    code = booking_code(flight_number, date, passenger)
    body = (
        f"<h1>Booking confirmed</h1><p>Booking code: <b>{code}</b></p>"
        f"<p>{escape(_flight_line(flight))} on {escape(date)}</p>"
        f"<p>Passenger: {escape(passenger)}</p>"
        f'<p>Total: <span class="price">{pages.money(flight["price"])}</span></p>'
    )
    return pages.page(_SKYFARE, f"Booking confirmed {code} - SkyFare", body)


def _skyfare(request: PageRequest) -> PageResponse:
    if request.path == "/":
        body = f"<h1>SkyFare flights</h1>{_flight_form()}"
        return pages.page(_SKYFARE, "SkyFare - Search and book cheap flights", body)
    if request.path == "/search":
        return _skyfare_search(request)
    flight = r"/flight/([A-Za-z0-9]+)"
    if (number := pages.item_at(request.path, flight, _FLIGHTS_BY_NUMBER, str.upper)) is not None:
        return _skyfare_booking_form(_FLIGHTS_BY_NUMBER[number], request.param("date"))
    if request.path == "/book":
        return _skyfare_book(request)
    return pages.not_found(_SKYFARE, f"No page at {request.path}.")


FLIGHTS_SITE = Site("flights.local", _SKYFARE, "Flight search and booking", "http", _skyfare)


# --- www.booking.com -----------------------------------------------------------------------------

_BOOKING = "Booking.com"
_TRIPS = {"oneway": "One-way", "roundtrip": "Round trip"}


def _booking_form(sent: PageRequest | None = None) -> str:
    """The search form, filled in as the search ``sent`` gave it (empty on the front page)."""
    given = sent.param if sent is not None else lambda _field: ""
    trip = given("trip") or "oneway"
    radios = " ".join(
        f'<input type="radio" id="trip-{value}" name="trip" value="{value}"'
        f'{" checked" if value == trip else ""}> <label for="trip-{value}">{label}</label>'
        for value, label in _TRIPS.items()
    )
    return (
        '<form action="/search" method="get"><fieldset><legend>Search flights</legend>'
        f"<p>{radios}</p>"
        f"{pages.text_field('from', 'From', given('from'))}"
        f"{pages.text_field('to', 'To', given('to'))}"
        f"{pages.text_field('date', 'Depart', given('date'), placeholder='YYYY-MM-DD')}"
        f"{pages.text_field('return', 'Return', given('return'), 'YYYY-MM-DD (round trip only)')}"
        '<p><button type="submit">Search flights</button></p></fieldset></form>'
        f"<p>Airports: {_airport_list()}.</p>"
    )


def _parse_date(text: str) -> datetime.date | None:
    if not _DATE.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:  # 2025-02-30 has the right shape but is no date
        return None


def _booking_flights(
    leg: str, origin: str, destination: str, date: str
) -> tuple[str, float | None]:
    """A heading and table of the flights on one leg, and the lowest fare (None if none fly)."""
    found = _flights_between(origin, destination)
    heading = (
        f"<h2>{leg}: {escape(AIRPORTS[origin])} → {escape(AIRPORTS[destination])}, "
        f"{escape(date)}</h2>"
    )
    if not found:
        return f"{heading}<p>No flights on this route.</p>", None
    table = f"<table><tr>{_TABLE_HEADER}</tr>{_flight_rows(found)}</table>"
    return heading + table, min(f["price"] for f in found)


def _booking(request: PageRequest) -> PageResponse:
    """Flight search only, no booking. A search that fails validation answers 400 with the
    reasons and the form filled in as sent."""
    if request.path == "/":
        body = f"<h1>Find your flight</h1>{_booking_form()}"
        return pages.page(_BOOKING, f"{_BOOKING}: Search one-way and round-trip flights", body)
    if request.path.rstrip("/") != "/search":
        return pages.not_found(_BOOKING, f"No page at {request.path}.")
    trip = request.param("trip") or "oneway"
    origin_text, destination_text = request.param("from"), request.param("to")
    date, return_date = request.param("date"), request.param("return")
    form = _booking_form(request)
    origin, destination = find_airport(origin_text), find_airport(destination_text)
    depart_day, return_day = _parse_date(date), _parse_date(return_date)
    problems: list[str] = []
    if trip not in _TRIPS:
        problems.append("Choose One-way or Round trip.")
    problems += [
        f"Unknown city or airport: {text!r}." if text else f"Enter a city or airport in {label}."
        for label, text, code in (
            ("From", origin_text, origin),
            ("To", destination_text, destination),
        )
        if code is None
    ]
    if origin is not None and origin == destination:
        problems.append("From and To are the same place.")
    if depart_day is None:
        problems.append("Enter the departure date as YYYY-MM-DD.")
    if trip == "roundtrip":
        if not return_date:
            problems.append("A round trip needs a return date (YYYY-MM-DD).")
        elif return_day is None:
            problems.append("Enter the return date as YYYY-MM-DD.")
        elif depart_day is not None and return_day < depart_day:
            problems.append("The return date is before the departure date.")
    if problems or origin is None or destination is None:
        body = f"{pages.error_list(problems)}{form}"
        return pages.page(_BOOKING, f"Search flights - {_BOOKING}", body, status=400)
    route = f"{AIRPORTS[origin]} – {AIRPORTS[destination]}"
    outbound, lowest = _booking_flights("Outbound", origin, destination, date)
    if trip == "roundtrip":
        title = f"Round trip {route}, {date} to {return_date}"
        inbound, lowest_return = _booking_flights("Return", destination, origin, return_date)
        sections = outbound + inbound
        lowest = None if lowest is None or lowest_return is None else lowest + lowest_return
        total = "Lowest round-trip price"
    else:
        title = f"One-way {route}, {date}"
        sections, total = outbound, "Lowest price"
    summary = (
        f'<p>{total}: <span class="price">{pages.money(lowest)}</span></p>'
        if lowest is not None
        else ""
    )
    body = f"<h1>{escape(title)}</h1>{summary}{sections}{form}"
    return pages.page(_BOOKING, f"{title} - {_BOOKING}", body)


BOOKING_SITE = Site(
    "www.booking.com", _BOOKING, "Flight search", "https", _booking, aliases=("booking.com",)
)
