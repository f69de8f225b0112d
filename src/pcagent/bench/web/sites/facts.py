"""facts.local (World Facts): sections of population figures, stock prices, driving sides,
holidays, flight times and tourist attractions, each an index page at ``/<section>`` listing one
page per item at ``/<section>/<item>``."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
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


def _link_list(links: list[tuple[str, str]]) -> str:
    items = "".join(f"<li><a href='{escape(href)}'>{escape(text)}</a></li>" for href, text in links)
    return f"<ul>{items}</ul>"


# --- what each section lists and shows -----------------------------------------------------------
# A section lists its items (slugs, in the order of its index page) and names each in a link; an
# item page function gives the page title (before " - World Facts") and body of a listed item.


def _holidays_by_date() -> list[str]:
    return sorted(FACTS["holidays"], key=lambda slug: FACTS["holidays"][slug][1])


def _flight_routes() -> dict[str, tuple[str, str]]:
    """``beijing-singapore`` -> ``("beijing", "singapore")`` for every flight facts.local knows."""
    return {
        f"{origin}-{destination}": (origin, destination)
        for origin, destinations in FACTS["flight_time"].items()
        for destination in destinations
    }


def _stock_link(ticker: str) -> str:
    return f"{ticker.upper()} — {FACTS['stock'][ticker]['company']}"


def _flight_route_link(slug: str) -> str:
    origin, destination = _flight_routes()[slug]
    return f"{place_name(origin)} → {place_name(destination)}"


def _population_page(slug: str) -> tuple[str, str]:
    country, people = country_name(slug), FACTS["population"][slug]
    body = (
        f"<h1>Population of {escape(country)}</h1>"
        f'<p><span class="price">{people:,}</span> people (as of {FACTS_REFERENCE_DATE}).</p>'
    )
    return f"Population of {country}", body


def _stock_page(slug: str) -> tuple[str, str]:
    ticker, stock = slug.upper(), FACTS["stock"][slug]
    body = (
        f"<h1>{escape(stock['company'])} ({ticker})</h1>"
        f'<p>Last close: <span class="price">{pages.money(stock["price"])}</span> '
        f"({stock['change_percent']:+.2f}%)</p><p>Prices in US dollars.</p>"
    )
    return f"{ticker} stock price - {stock['company']}", body


def _driving_page(slug: str) -> tuple[str, str]:
    country = country_name(slug)
    body = f"<h1>Driving in {escape(country)}</h1><p>{escape(driving_sentence(slug))}</p>"
    return f"Which side of the road does {country} drive on?", body


def _holiday_page(slug: str) -> tuple[str, str]:
    holiday, date = FACTS["holidays"][slug]
    body = (
        f"<h1>{escape(holiday)} {date[:4]}</h1><p>{escape(holiday_sentence(slug))}</p>"
        f"<p>Date: <time datetime='{date}'>{date}</time></p>"
    )
    return f"{holiday} {date[:4]}", body


def _flight_time_page(slug: str) -> tuple[str, str]:
    origin, destination = _flight_routes()[slug]
    minutes = FACTS["flight_time"][origin][destination]["minutes"]
    heading = f"Flight time from {place_name(origin)} to {place_name(destination)}"
    body = (
        f"<h1>{escape(heading)}</h1><p>{escape(flight_time_sentence(origin, destination))}</p>"
        f"<p>That is {minutes} minutes in the air.</p>"
    )
    return heading, body


def _attractions_page(slug: str) -> tuple[str, str]:
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
    items: Callable[[], Collection[str]]  # the item slugs, as the index page lists them
    link_text: Callable[[str], str]  # of an item's link on the index page
    item_page: Callable[[str], tuple[str, str]]

    def links(self) -> list[tuple[str, str]]:
        """(path, text) of each item page, as listed."""
        return [(f"/{self.slug}/{item}", self.link_text(item)) for item in self.items()]


_SECTIONS: dict[str, _Section] = {
    section.slug: section
    for section in (
        _Section("population", "Population by country", "Population", "Population by country", lambda: sorted(FACTS["population"]), country_name, _population_page),
        _Section("stock", "Stock prices", "Stock prices", "Stock prices", lambda: FACTS["stock"], _stock_link, _stock_page),
        _Section("driving", "Which side of the road each country drives on", "Which side of the road?", "Driving side by country", lambda: sorted(FACTS["driving"]), country_name, _driving_page),
        _Section("holiday", "Public holidays in 2025", "Public holidays in 2025", "Public holidays in 2025", _holidays_by_date, lambda slug: FACTS["holidays"][slug][0], _holiday_page),
        _Section("flight-time", "Direct flight times", "Direct flight times", "Direct flight times", _flight_routes, _flight_route_link, _flight_time_page),
        _Section("attractions", "Tourist attractions by city", "Tourist attractions", "Tourist attractions by city", lambda: FACTS["attractions"], place_name, _attractions_page),
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
        section = _SECTIONS[match[1]]
        if match[2] in section.items():
            title, body = section.item_page(match[2])
            return pages.page(_NAME, f"{title} - {_NAME}", body)
    return pages.not_found(_NAME, f"No page at {request.path}.")


FACTS_SITE = Site(
    "facts.local",
    _NAME,
    "Population, stock prices, holidays and travel facts",
    "http",
    _facts,
)
