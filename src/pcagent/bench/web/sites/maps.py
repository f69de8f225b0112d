"""maps.local: directions and travel times between a few places (``ROUTES``): New York's of
the built-in tasks, and some of no city in particular for generated ones."""

from __future__ import annotations

import functools
from typing import Any

from pcagent.bench.web.data import ROUTES
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape

_NAME = "Offline Maps"


def _place_key(text: str) -> str:
    place_words = pages.words(text)
    return " ".join(place_words[1:] if place_words[:1] == ["the"] else place_words)


@functools.cache
def _places() -> dict[str, str]:
    """Every place of ROUTES in order of appearance, by its matching key."""
    places = dict.fromkeys(place for pair in ROUTES for place in pair)
    return {_place_key(place): place for place in places}


def find_place(text: str) -> str | None:
    """The maps.local place a person typed, as named in ``ROUTES``; case, accents, punctuation,
    extra spaces and a leading "the" do not matter. None if unknown."""
    return _places().get(_place_key(text))


def find_route(origin: str, destination: str) -> dict[str, Any] | None:
    """The ``ROUTES`` entry between two places as typed, in either direction; None if either
    place is unknown or no route joins them."""
    start, end = find_place(origin), find_place(destination)
    if start is None or end is None:
        return None
    return ROUTES.get((start, end)) or ROUTES.get((end, start))


def _directions_form(origin: str = "", destination: str = "") -> str:
    return (
        '<form action="/directions" method="get"><fieldset><legend>Directions</legend>'
        f"{pages.text_field('from', 'From', origin)}{pages.text_field('to', 'To', destination)}"
        '<p><button type="submit">Get directions</button></p></fieldset></form>'
    )


def _maps(request: PageRequest) -> PageResponse:
    """Directions between a few places. A request that shows no route answers 400 when
    From or To is empty or both name the same place, 404 when a place or the route between two
    places is unknown."""
    path = request.path.rstrip("/") or "/"
    known = "".join(f"<li>{escape(place)}</li>" for place in _places().values())
    known_places = f"<h2>Known places</h2><ul>{known}</ul>"
    if path == "/":
        body = f"<h1>{_NAME}</h1>{_directions_form()}{known_places}"
        return pages.page(_NAME, _NAME, body)
    if path != "/directions":
        return pages.not_found(_NAME, f"No page at {request.path}.")
    origin_text, destination_text = request.param("from"), request.param("to")
    form = _directions_form(origin_text, destination_text)
    start, end = find_place(origin_text), find_place(destination_text)
    route = find_route(origin_text, destination_text)
    problems: list[str] = []
    status = 404
    if not origin_text or not destination_text:
        problems, status = ["Enter both a starting point (From) and a destination (To)."], 400
    elif start is None or end is None:
        problems = [
            f"Unknown place: {text!r}. Choose one of the known places below."
            for text, place in ((origin_text, start), (destination_text, end))
            if place is None
        ]
    elif start == end:
        problems, status = ["From and To are the same place."], 400
    elif route is None:
        problems = [f"No route is known between {start} and {end}."]
    if problems or route is None or start is None or end is None:
        body = f"<h1>Directions</h1>{pages.error_list(problems)}{form}{known_places}"
        return pages.page(_NAME, f"No directions - {_NAME}", body, status=status)
    minutes, mode = route["minutes"], route["mode"]
    summary = f"{start} → {end}: {minutes} min by {mode}"
    body = f'<h1>Directions</h1><p class="price">{escape(summary)}</p>{form}'
    return pages.page(_NAME, f"{start} to {end} - {minutes} min - {_NAME}", body)


MAPS_SITE = Site("maps.local", _NAME, "Directions and travel times", "http", _maps)
