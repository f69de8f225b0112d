"""facts.local (World Facts): sections of population figures, stock prices, driving sides,
holidays, flight times and tourist attractions, each an index page at ``/<section>`` listing one
page per item at ``/<section>/<item>``."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pcagent.bench.web.data import FACTS, FACTS_REFERENCE_DATE, country_name, long_date, place_name
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape

_NAME = "World Facts"


def driving_sentence(slug: str) -> str:
    """Which side of the road the country ``slug`` drives on, as one sentence."""
    side = FACTS["driving"][slug]
    return f"In {country_name(slug)}, traffic drives on the {side} side of the road."


def holiday_sentence(slug: str) -> str:
    """The date of the holiday ``slug``, as one sentence."""
    holiday, date = FACTS["holidays"][slug]
    return f"In {date[:4]}, {holiday} falls on {long_date(date)}."


def flight_time_sentence(origin: str, destination: str) -> str:
    """How long the direct flight between two place slugs takes, as one sentence."""
    duration = FACTS["flight_time"][origin][destination]["duration"]
    return (
        f"A direct flight from {place_name(origin)} to {place_name(destination)} "
        f"takes about {duration}."
    )


def _flight_time_route(slug: str) -> tuple[str, str] | None:
    """``beijing-singapore`` -> ``("beijing", "singapore")`` when facts.local knows that flight."""
    for origin, destinations in FACTS["flight_time"].items():
        destination = slug.removeprefix(f"{origin}-")
        if destination != slug and destination in destinations:
            return origin, destination
    return None


def _link_list(links: list[tuple[str, str]]) -> str:
    items = "".join(f"<li><a href='{escape(href)}'>{escape(text)}</a></li>" for href, text in links)
    return f"<ul>{items}</ul>"


# --- one listing and one item page per section ---------------------------------------------------
# An item page function takes the item slug and gives the page title (before " - World Facts")
# and body, or None when the section has no such item.


def _population_links() -> list[tuple[str, str]]:
    return [(f"/population/{s}", country_name(s)) for s in sorted(FACTS["population"])]


def _population_page(slug: str) -> tuple[str, str] | None:
    if slug not in FACTS["population"]:
        return None
    country, people = country_name(slug), FACTS["population"][slug]
    body = (
        f"<h1>Population of {escape(country)}</h1>"
        f'<p><span class="price">{people:,}</span> people (as of {FACTS_REFERENCE_DATE}).</p>'
    )
    return f"Population of {country}", body


def _stock_links() -> list[tuple[str, str]]:
    return [
        (f"/stock/{ticker}", f"{ticker.upper()} — {stock['company']}")
        for ticker, stock in FACTS["stock"].items()
    ]


def _stock_page(slug: str) -> tuple[str, str] | None:
    if slug not in FACTS["stock"]:
        return None
    ticker, stock = slug.upper(), FACTS["stock"][slug]
    body = (
        f"<h1>{escape(stock['company'])} ({ticker})</h1>"
        f'<p>Last close: <span class="price">{pages.money(stock["price"])}</span> '
        f"({stock['change_percent']:+.2f}%)</p><p>Prices in US dollars.</p>"
    )
    return f"{ticker} stock price - {stock['company']}", body


def _driving_links() -> list[tuple[str, str]]:
    return [(f"/driving/{s}", country_name(s)) for s in sorted(FACTS["driving"])]


def _driving_page(slug: str) -> tuple[str, str] | None:
    if slug not in FACTS["driving"]:
        return None
    country = country_name(slug)
    body = f"<h1>Driving in {escape(country)}</h1><p>{escape(driving_sentence(slug))}</p>"
    return f"Which side of the road does {country} drive on?", body


def _holiday_links() -> list[tuple[str, str]]:
    by_date = sorted(FACTS["holidays"].items(), key=lambda item: item[1][1])
    return [(f"/holiday/{slug}", holiday) for slug, (holiday, _date) in by_date]


def _holiday_page(slug: str) -> tuple[str, str] | None:
    if slug not in FACTS["holidays"]:
        return None
    holiday, date = FACTS["holidays"][slug]
    body = (
        f"<h1>{escape(holiday)} {date[:4]}</h1><p>{escape(holiday_sentence(slug))}</p>"
        f"<p>Date: <time datetime='{date}'>{date}</time></p>"
    )
    return f"{holiday} {date[:4]}", body


def _flight_time_links() -> list[tuple[str, str]]:
    return [
        (
            f"/flight-time/{origin}-{destination}",
            f"{place_name(origin)} → {place_name(destination)}",
        )
        for origin, destinations in FACTS["flight_time"].items()
        for destination in destinations
    ]


def _flight_time_page(slug: str) -> tuple[str, str] | None:
    route = _flight_time_route(slug)
    if route is None:
        return None
    origin, destination = route
    minutes = FACTS["flight_time"][origin][destination]["minutes"]
    heading = f"Flight time from {place_name(origin)} to {place_name(destination)}"
    body = (
        f"<h1>{escape(heading)}</h1><p>{escape(flight_time_sentence(origin, destination))}</p>"
        f"<p>That is {minutes} minutes in the air.</p>"
    )
    return heading, body


def _attractions_links() -> list[tuple[str, str]]:
    return [(f"/attractions/{city}", place_name(city)) for city in FACTS["attractions"]]


def _attractions_page(slug: str) -> tuple[str, str] | None:
    if slug not in FACTS["attractions"]:
        return None
    heading = f"Top tourist attractions in {place_name(slug)}"
    items = "".join(
        f"<li><b>{escape(sight['name'])}</b>: {escape(sight['description'])}</li>"
        for sight in FACTS["attractions"][slug]
    )
    return heading, f"<h1>{escape(heading)}</h1><ol>{items}</ol>"


@dataclass(frozen=True)
class _Section:
    """One section of facts.local, at ``/<slug>``."""

    slug: str
    home_link: str  # the link text on the home page
    heading: str  # of the index page
    title: str  # of the index page, before " - World Facts"
    links: Callable[[], list[tuple[str, str]]]  # (path, text) of each item page, as listed
    item_page: Callable[[str], tuple[str, str] | None]


_SECTIONS: dict[str, _Section] = {
    section.slug: section
    for section in (
        _Section("population", "Population by country", "Population", "Population by country", _population_links, _population_page),
        _Section("stock", "Stock prices", "Stock prices", "Stock prices", _stock_links, _stock_page),
        _Section("driving", "Which side of the road each country drives on", "Which side of the road?", "Driving side by country", _driving_links, _driving_page),
        _Section("holiday", "Public holidays in 2025", "Public holidays in 2025", "Public holidays in 2025", _holiday_links, _holiday_page),
        _Section("flight-time", "Direct flight times", "Direct flight times", "Direct flight times", _flight_time_links, _flight_time_page),
        _Section("attractions", "Tourist attractions by city", "Tourist attractions", "Tourist attractions by city", _attractions_links, _attractions_page),
    )
}  # fmt: skip
# Other paths of a section's index page (the holidays are at /holiday/<item>, listed at both).
_INDEX_ALIASES = {"holidays": "holiday"}


def _facts(request: PageRequest) -> PageResponse:
    path = request.path.rstrip("/").lower() or "/"
    if path == "/":
        home_links = [(f"/{section.slug}/", section.home_link) for section in _SECTIONS.values()]
        body = f"<h1>{_NAME}</h1>{_link_list(home_links)}"
        return pages.page(_NAME, f"{_NAME} - countries and markets", body)
    match = re.fullmatch(r"/([^/]+)(?:/(.+))?", path)
    if match and match[2] is None:
        section = _SECTIONS.get(_INDEX_ALIASES.get(match[1], match[1]))
        if section is not None:
            body = f"<h1>{section.heading}</h1>{_link_list(section.links())}"
            return pages.page(_NAME, f"{section.title} - {_NAME}", body)
    elif match and match[1] in _SECTIONS:
        item_page = _SECTIONS[match[1]].item_page(match[2])
        if item_page is not None:
            title, body = item_page
            return pages.page(_NAME, f"{title} - {_NAME}", body)
    return pages.not_found(_NAME, f"No page at {request.path}.")


FACTS_SITE = Site(
    "facts.local",
    _NAME,
    "Population, stock prices, holidays and travel facts",
    "http",
    _facts,
)
