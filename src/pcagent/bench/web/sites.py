"""The offline websites: one small request handler per host, rendering the data of
:mod:`pcagent.bench.web.data` as plain HTML.

Pages are deliberately simple (headings, links, tables, forms with labelled fields) so that both
the accessibility tree and a screenshot show them clearly. Every page is a pure function of the
request: no cookies, no sessions, no clock.
"""

from __future__ import annotations

import datetime
import functools
import html
import re
import textwrap
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from pcagent.bench.web.data import (
    AIRPORTS,
    FACTS,
    FACTS_REFERENCE_DATE,
    FLIGHTS,
    MOVIES,
    PAPERS,
    PRODUCTS,
    ROUTES,
    SHOPS,
    booking_code,
    country_name,
    long_date,
    place_name,
)
from pcagent.bench.web.pdf import one_page_pdf


@dataclass(frozen=True)
class PageRequest:
    """One request as a site sees it: method, percent-decoded path, query and form fields, and
    whether it came over ``http`` or ``https``."""

    method: str
    path: str
    query: Mapping[str, list[str]] = field(default_factory=dict)
    form: Mapping[str, list[str]] = field(default_factory=dict)
    scheme: str = "http"

    def param(self, name: str) -> str:
        """The first value of a form field, else of a query parameter, stripped; "" if absent."""
        for source in (self.form, self.query):
            values = source.get(name)
            if values:
                return values[0].strip()
        return ""


@dataclass(frozen=True)
class PageResponse:
    status: int
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Site:
    """One website: its canonical host, the scheme links to it use, and its request handler."""

    host: str
    name: str
    description: str
    scheme: str
    handle: Callable[[PageRequest], PageResponse]
    aliases: tuple[str, ...] = ()

    def url(self, path: str = "/") -> str:
        return f"{self.scheme}://{self.host}{path}"


# --- page helpers ------------------------------------------------------------------------------

_STYLE = """
body { font-family: 'DejaVu Sans', sans-serif; margin: 0; color: #1b1b1b; background: #fff; }
header { background: #24415f; padding: 10px 24px; }
header a { color: #fff; font-size: 20px; font-weight: bold; text-decoration: none; }
main { padding: 16px 24px; max-width: 960px; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 4px 10px; }
label { display: inline-block; min-width: 90px; } .price { font-weight: bold; }
.result { margin-bottom: 14px; } .result cite { color: #2e7d32; font-style: normal; }
.error { color: #b00020; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _page(site_name: str, title: str, body: str, status: int = 200) -> PageResponse:
    document = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head>\n"
        f'<body><header><a href="/">{_e(site_name)}</a></header>\n'
        f"<main>\n{body}\n</main></body></html>\n"
    )
    return PageResponse(status, document.encode())


def _not_found(site_name: str, what: str) -> PageResponse:
    body = f'<h1>Not found</h1><p>{_e(what)}</p><p><a href="/">Back to {_e(site_name)}</a></p>'
    return _page(site_name, f"Not found - {site_name}", body, status=404)


def _search_form(action: str, name: str, value: str, label: str) -> str:
    return (
        f'<form action="{_e(action)}" method="get" role="search">'
        f'<input type="text" name="{_e(name)}" value="{_e(value)}" aria-label="{_e(label)}" '
        f'placeholder="{_e(label)}" size="40"> <button type="submit">Search</button></form>'
    )


def _money(amount: float) -> str:
    return f"${amount:,.2f}"


def _fold(text: str) -> str:
    """Lower case without accents ("Léon" -> "leon"), so that what a person types without
    accents still matches."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _words(text: str) -> list[str]:
    # An apostrophe joins ("New Year's" -> "new years"); any other punctuation separates words.
    return re.findall(r"[a-z0-9]+", re.sub(r"['’]", "", _fold(text)))


def _stem(word: str) -> str:
    # "flights" and "flight" are the same query word; crude, but applied to both sides.
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _matches(query: str, text: str) -> bool:
    """Every word of the query occurs in the text (a simple site search), ignoring case, accents,
    punctuation and a plural "s"."""
    words = {_stem(word) for word in _words(text)}
    wanted = [_stem(word) for word in _words(query)]
    return bool(wanted) and all(word in words for word in wanted)


# --- search.local --------------------------------------------------------------------------------

# fmt: off
_STOP_WORDS = frozenset({
    "a", "an", "and", "are", "at", "by", "find", "for", "from", "how", "i", "in", "is",
    "me", "of", "on", "or", "show", "the", "to", "what", "whats", "which", "who", "with",
})
# fmt: on


@dataclass(frozen=True)
class _SearchEntry:
    url: str
    title: str
    snippet: str
    words: frozenset[str]


def _entry(url: str, title: str, snippet: str, *keywords: str) -> _SearchEntry:
    words = {_stem(w) for w in _words(" ".join((title, snippet, *keywords)))}
    return _SearchEntry(url, title, snippet, frozenset(words))


# Other words people use for a place or a holiday, added to its search entries.
_PLACE_KEYWORDS = {
    "united-states": "usa us america american",
    "united-kingdom": "uk britain british england",
}
_HOLIDAY_KEYWORDS = {
    "international-labour-day": "labor may day workers",
    "independence-day": "american usa us america fourth 4th july",
    "christmas": "xmas",
    "new-year": "new years",
}


@functools.cache
def _search_index() -> tuple[_SearchEntry, ...]:
    imdb, arxiv = SITES["www.imdb.com"], SITES["arxiv.org"]
    flights, facts = SITES["flights.local"], SITES["facts.local"]
    maps, booking = SITES["maps.local"], SITES["www.booking.com"]
    entries = [
        _entry(
            imdb.url(),
            "IMDb: Ratings, Reviews, and Where to Watch",
            "Movie ratings.",
            "movie film imdb rating review",
        ),
        _entry(
            arxiv.url(),
            "arXiv.org e-Print archive",
            "Open-access research papers.",
            "paper preprint research arxiv",
        ),
        _entry(
            flights.url(),
            "SkyFare - Search and book cheap flights",
            "Compare flights and book tickets.",
            "flight airline book booking ticket travel fly",
            *(f"{code} {city}" for code, city in AIRPORTS.items()),
        ),
        _entry(
            facts.url(),
            "World Facts - countries and markets",
            "Population figures and stock prices.",
            "facts population stock price country",
        ),
    ]
    for movie_id, movie in MOVIES.items():
        entries.append(
            _entry(
                imdb.url(f"/title/{movie_id}/"),
                f"{movie['title']} ({movie['year']}) - IMDb",
                f"Rated {movie['rating']}/10. Directed by {movie['director']}. {movie['plot']}",
                "movie film rating imdb",
                " ".join(movie["genres"]),
            )
        )
    for paper_id, paper in PAPERS.items():
        entries.append(
            _entry(
                arxiv.url(f"/abs/{paper_id}"),
                f"[{paper_id}] {paper['title']}",
                f"{', '.join(paper['authors'])}. {paper['abstract'][:140]}...",
                "paper arxiv pdf",
                paper["category"],
            )
        )
    for slug, people in FACTS["population"].items():
        entries.append(
            _entry(
                facts.url(f"/population/{slug}"),
                f"Population of {country_name(slug)} - World Facts",
                f"{country_name(slug)} has a population of {people:,} people.",
                "population people inhabitants country",
                _PLACE_KEYWORDS.get(slug, ""),
            )
        )
    for ticker, stock in FACTS["stock"].items():
        entries.append(
            _entry(
                facts.url(f"/stock/{ticker}"),
                f"{ticker.upper()} stock price - {stock['company']} - World Facts",
                f"{stock['company']} ({ticker.upper()}) last closed at {_money(stock['price'])}.",
                "stock share price quote market ticker",
            )
        )
    for host, shop in SHOPS.items():
        site = SITES[host]
        entries.append(
            _entry(
                site.url(),
                f"{shop['name']} - online shop",
                "Electronics and accessories.",
                "shop store buy electronics",
            )
        )
        for slug, price in shop["prices"].items():
            product = PRODUCTS[slug]
            entries.append(
                _entry(
                    site.url(f"/product/{slug}"),
                    f"{product['name']} - {shop['name']}",
                    f"{_money(price)}. {product['description']}",
                    "buy price shop store",
                    slug.replace("-", " "),
                )
            )
    # Ties go to the earlier entry, so these come last: they must not take the first place of a
    # query that already led to an older page.
    entries.extend(_later_search_entries(facts, maps, booking))
    return tuple(entries)


def _later_search_entries(facts: Site, maps: Site, booking: Site) -> list[_SearchEntry]:
    """Entries for maps.local, www.booking.com and the travel pages of facts.local."""
    entries = [
        _entry(
            maps.url(),
            "Offline Maps - directions and travel times",
            "Travel times between places in New York City.",
            "map maps directions route travel time subway",
        ),
        _entry(
            booking.url(),
            "Booking.com - one-way and round-trip flights",
            "Search flights and compare prices for one-way and round trips.",
            "flight airline booking round trip one way return ticket fare",
            *(f"{code} {city}" for code, city in AIRPORTS.items()),
        ),
    ]
    for origin, destination in ROUTES:
        mode = ROUTES[(origin, destination)]["mode"]
        entries.append(
            _entry(
                maps.url(f"/directions?{urlencode({'from': origin, 'to': destination})}"),
                f"{origin} to {destination} - Offline Maps",
                f"Directions and travel time by {mode} from {origin} to {destination}.",
                "directions travel time how long get from route subway",
            )
        )
    for slug in FACTS["driving"]:
        country = country_name(slug)
        entries.append(
            _entry(
                facts.url(f"/driving/{slug}"),
                f"Which side of the road does {country} drive on? - World Facts",
                _driving_sentence(slug),
                "drive driving side road traffic left right hand",
                _PLACE_KEYWORDS.get(slug, ""),
            )
        )
    for slug, (holiday, date) in FACTS["holidays"].items():
        entries.append(
            _entry(
                facts.url(f"/holiday/{slug}"),
                f"{holiday} {date[:4]} - World Facts",
                _holiday_sentence(slug),
                "holiday public date day when weekday",
                _HOLIDAY_KEYWORDS.get(slug, ""),
            )
        )
    for origin, destinations in FACTS["flight_time"].items():
        for destination in destinations:
            entries.append(
                _entry(
                    facts.url(f"/flight-time/{origin}-{destination}"),
                    f"Flight time from {place_name(origin)} to {place_name(destination)} "
                    "- World Facts",
                    _flight_time_sentence(origin, destination),
                    "flight time duration long fly direct hour plane",
                )
            )
    for city, sights in FACTS["attractions"].items():
        entries.append(
            _entry(
                facts.url(f"/attractions/{city}"),
                f"Top tourist attractions in {place_name(city)} - World Facts",
                ", ".join(sight["name"] for sight in sights) + ".",
                "tourist attraction sight sightseeing landmark visit see things do",
            )
        )
    return entries


def search_results(query: str, limit: int = 10) -> list[tuple[str, str, str]]:
    """(url, title, snippet) of the search engine's results for ``query``, best first."""
    wanted = {_stem(w) for w in _words(query) if w not in _STOP_WORDS}
    scored = [
        (len(wanted & entry.words), position, entry)
        for position, entry in enumerate(_search_index())
    ]
    ranked = sorted((item for item in scored if item[0] > 0), key=lambda s: (-s[0], s[1]))
    return [(e.url, e.title, e.snippet) for _score, _position, e in ranked[:limit]]


def _search_engine(request: PageRequest) -> PageResponse:
    name = "Offline Search"
    if request.path not in ("/", "/search"):
        return _not_found(name, f"No page at {request.path}.")
    query = request.param("q")
    form = _search_form("/", "q", query, "Search the web")
    if not query:
        return _page(name, name, f"<h1>{name}</h1>{form}")
    results = search_results(query)
    items = "\n".join(
        f'<div class="result"><a href="{_e(url)}"><h3>{_e(title)}</h3></a>'
        f"<cite>{_e(url)}</cite><p>{_e(snippet)}</p></div>"
        for url, title, snippet in results
    )
    if not results:
        items = f"<p>No results for <b>{_e(query)}</b>. Try other words.</p>"
    count = f"<p>About {len(results)} results</p>" if results else ""
    return _page(name, f"{query} - {name}", f"{form}\n{count}\n{items}")


# --- www.imdb.com ------------------------------------------------------------------------------


def _movie_link(movie_id: str) -> str:
    movie = MOVIES[movie_id]
    return f'<a href="/title/{movie_id}/">{_e(movie["title"])}</a> ({movie["year"]})'


def _imdb(request: PageRequest) -> PageResponse:
    name = "IMDb"
    form = _search_form("/find", "q", request.param("q"), "Search IMDb")
    if request.path == "/":
        ranked = sorted(MOVIES, key=lambda m: -MOVIES[m]["rating"])
        rows = "".join(
            f"<li>{_movie_link(m)} <span>{MOVIES[m]['rating']}</span></li>" for m in ranked
        )
        body = f"<h1>IMDb</h1>{form}<h2>Top rated</h2><ol>{rows}</ol>"
        return _page(name, "IMDb: Ratings, Reviews, and Where to Watch the Best Movies", body)
    if request.path.rstrip("/") == "/find":
        query = request.param("q")
        found = [m for m in MOVIES if _matches(query, f"{MOVIES[m]['title']} {MOVIES[m]['year']}")]
        rows = "".join(f"<li>{_movie_link(m)}</li>" for m in found)
        result = f"<ul>{rows}</ul>" if found else f"<p>No results found for {_e(query)!r}.</p>"
        return _page(name, "Find - IMDb", f"{form}<h1>Results for {_e(query)}</h1>{result}")
    match = re.fullmatch(r"/title/(tt\d+)/?", request.path)
    if match and match[1] in MOVIES:
        movie = MOVIES[match[1]]
        body = (
            f"{form}<h1>{_e(movie['title'])}</h1>"
            f"<p><span>{movie['year']}</span> · <span>{movie['runtime_minutes']} min</span> · "
            f"<span>{_e(', '.join(movie['genres']))}</span></p>"
            f'<p>IMDb RATING: <span class="price">{movie["rating"]}/10</span></p>'
            f"<p>Director: {_e(movie['director'])}</p><p>{_e(movie['plot'])}</p>"
        )
        return _page(name, f"{movie['title']} ({movie['year']}) - IMDb", body)
    return _not_found(name, f"No title at {request.path}.")


# --- arxiv.org -----------------------------------------------------------------------------------


def paper_pdf(paper_id: str) -> bytes:
    """The PDF that arxiv.org serves at /pdf/<paper_id>."""
    paper = PAPERS[paper_id]
    lines = [
        *textwrap.wrap(", ".join(paper["authors"]), 88),
        f"arXiv:{paper_id} [{paper['category']}] submitted {paper['submitted']}",
        "",
        "Abstract",
        *textwrap.wrap(paper["abstract"], 88),
    ]
    return one_page_pdf(paper["title"], lines)


def arxiv_search(query: str) -> list[str]:
    """The ids of the papers arxiv.org/search lists for ``query``, in the order shown: those whose
    title, authors or id hold every word of the query (ignoring case, accents and punctuation),
    newest submission first."""
    found = [
        paper_id
        for paper_id, paper in PAPERS.items()
        if _matches(query, f"{paper['title']} {' '.join(paper['authors'])} {paper_id}")
    ]
    return _newest_first(found)


def _newest_first(paper_ids: list[str]) -> list[str]:
    return sorted(paper_ids, key=lambda p: (PAPERS[p]["submitted"], p), reverse=True)


def _paper_item(paper_id: str) -> str:
    paper = PAPERS[paper_id]
    return (
        f'<li><a href="/abs/{paper_id}">arXiv:{paper_id}</a> '
        f"<b>{_e(paper['title'])}</b> — {_e(', '.join(paper['authors']))}</li>"
    )


def _arxiv(request: PageRequest) -> PageResponse:
    name = "arXiv"
    query = request.param("query") or request.param("q")
    form = _search_form("/search", "query", query, "Search arXiv")
    if request.path == "/":
        items = "".join(_paper_item(p) for p in _newest_first(list(PAPERS)))
        body = (
            f"<h1>arXiv.org e-Print archive</h1>{form}<h2>Recent submissions</h2><ul>{items}</ul>"
        )
        return _page(name, "arXiv.org e-Print archive", body)
    if request.path.rstrip("/") == "/search":
        found = arxiv_search(query)
        items = "".join(_paper_item(p) for p in found)
        result = f"<ul>{items}</ul>" if found else "<p>Sorry, your query returned no results.</p>"
        return _page(name, "Search | arXiv e-print repository", f"{form}{result}")
    match = re.fullmatch(r"/abs/([0-9]{4}\.[0-9]{4,5})/?", request.path)
    if match and match[1] in PAPERS:
        paper_id, paper = match[1], PAPERS[match[1]]
        body = (
            f"{form}<p>{_e(paper['category'])} · Submitted on {_e(paper['submitted'])}</p>"
            f"<h1>{_e(paper['title'])}</h1><p>Authors: {_e(', '.join(paper['authors']))}</p>"
            f"<h2>Abstract</h2><blockquote>{_e(paper['abstract'])}</blockquote>"
            f'<p><a href="/pdf/{paper_id}">Download PDF</a></p>'
        )
        return _page(name, f"[{paper_id}] {paper['title']}", body)
    match = re.fullmatch(r"/pdf/([0-9]{4}\.[0-9]{4,5})(?:\.pdf)?", request.path)
    if match and match[1] in PAPERS:
        return PageResponse(
            200,
            paper_pdf(match[1]),
            "application/pdf",
            (("Content-Disposition", f'attachment; filename="{match[1]}.pdf"'),),
        )
    return _not_found(name, f"No paper at {request.path}.")


# --- flights.local -------------------------------------------------------------------------------


def find_airport(text: str) -> str | None:
    """The airport code for a code or city name typed by a person ("nyc", "New York")."""
    wanted = " ".join(text.split()).lower()
    for code, city in AIRPORTS.items():
        if wanted in (code.lower(), city.lower()):
            return code
    return None


def _flight_form(origin: str = "", destination: str = "", date: str = "") -> str:
    cities = ", ".join(f"{city} ({code})" for code, city in AIRPORTS.items())
    return (
        '<form action="/search" method="get"><fieldset><legend>Search flights</legend>'
        f'<p><label for="from">From</label> <input id="from" name="from" value="{_e(origin)}"></p>'
        f'<p><label for="to">To</label> <input id="to" name="to" value="{_e(destination)}"></p>'
        f'<p><label for="date">Date</label> <input id="date" name="date" value="{_e(date)}" '
        'placeholder="YYYY-MM-DD"></p>'
        '<p><button type="submit">Search flights</button></p></fieldset></form>'
        f"<p>We fly between: {_e(cities)}.</p>"
    )


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_FLIGHTS_BY_NUMBER = {flight["number"]: flight for flight in FLIGHTS}


def _flight_line(flight: Mapping[str, object]) -> str:
    return (
        f"{flight['number']} {flight['airline']}: {AIRPORTS[str(flight['from'])]} "
        f"{flight['departs']} → {AIRPORTS[str(flight['to'])]} {flight['arrives']}"
    )


def _flights(request: PageRequest) -> PageResponse:
    name = "SkyFare"
    if request.path == "/":
        body = f"<h1>SkyFare flights</h1>{_flight_form()}"
        return _page(name, "SkyFare - Search and book cheap flights", body)
    if request.path == "/search":
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
            errors = "".join(f'<p class="error">{_e(p)}</p>' for p in problems)
            return _page(name, "Search flights - SkyFare", f"{errors}{form}")
        found = sorted(
            (f for f in FLIGHTS if f["from"] == origin and f["to"] == destination),
            key=lambda f: f["departs"],
        )
        title = f"Flights from {AIRPORTS[origin]} to {AIRPORTS[destination]} on {date}"
        rows = "".join(
            f"<tr><td>{f['number']}</td><td>{_e(f['airline'])}</td><td>{f['departs']}</td>"
            f'<td>{f["arrives"]}</td><td class="price">{_money(f["price"])}</td>'
            f'<td><a href="/flight/{f["number"]}?{urlencode({"date": date})}">'
            f"Select {f['number']}</a></td></tr>"
            for f in found
        )
        table = (
            "<table><tr><th>Flight</th><th>Airline</th><th>Departs</th><th>Arrives</th>"
            f"<th>Price</th><th></th></tr>{rows}</table>"
            if found
            else "<p>No flights on this route.</p>"
        )
        return _page(name, f"{title} - SkyFare", f"<h1>{_e(title)}</h1>{table}{form}")
    match = re.fullmatch(r"/flight/([A-Za-z0-9]+)", request.path)
    if match and match[1].upper() in _FLIGHTS_BY_NUMBER:
        flight = _FLIGHTS_BY_NUMBER[match[1].upper()]
        date = request.param("date")
        body = (
            f"<h1>Book flight {flight['number']}</h1><p>{_e(_flight_line(flight))}</p>"
            f'<p>Date: {_e(date)} · Price: <span class="price">{_money(flight["price"])}</span></p>'
            '<form action="/book" method="post"><fieldset><legend>Passenger</legend>'
            f'<input type="hidden" name="flight" value="{flight["number"]}">'
            f'<p><label for="date">Date</label> <input id="date" name="date" value="{_e(date)}" '
            'placeholder="YYYY-MM-DD"></p>'
            '<p><label for="name">Full name</label> <input id="name" name="name"></p>'
            '<p><label for="email">Email</label> <input id="email" name="email"></p>'
            '<p><button type="submit">Book now</button></p></fieldset></form>'
        )
        return _page(name, f"Book {flight['number']} - SkyFare", body)
    if request.path == "/book":
        if request.method != "POST":
            body = (
                '<p class="error">Choose a flight first.</p><p><a href="/">Search flights</a></p>'
            )
            return _page(name, "Booking - SkyFare", body, status=405)
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
            errors = "".join(f'<p class="error">{_e(p)}</p>' for p in problems)
            back = f'<p><a href="/flight/{quote(flight_number)}">Back to the booking form</a></p>'
            return _page(name, "Booking failed - SkyFare", f"{errors}{back}", status=400)
        flight = _FLIGHTS_BY_NUMBER[flight_number]
        code = booking_code(flight_number, date, passenger)
        body = (
            f"<h1>Booking confirmed</h1><p>Booking code: <b>{code}</b></p>"
            f"<p>{_e(_flight_line(flight))} on {_e(date)}</p><p>Passenger: {_e(passenger)}</p>"
            f'<p>Total: <span class="price">{_money(flight["price"])}</span></p>'
        )
        return _page(name, f"Booking confirmed {code} - SkyFare", body)
    return _not_found(name, f"No page at {request.path}.")


# --- the shops: shop-a.local, shop-b.local, www.amazon.com, www.walmart.com, www.bestbuy.com -----


def _shop(host: str) -> Callable[[PageRequest], PageResponse]:
    shop = SHOPS[host]
    name, prices = shop["name"], shop["prices"]

    def listing(slugs: list[str]) -> str:
        rows = "".join(
            f'<tr><td><a href="/product/{slug}">{_e(PRODUCTS[slug]["name"])}</a></td>'
            f'<td class="price">{_money(prices[slug])}</td></tr>'
            for slug in slugs
        )
        return f"<table><tr><th>Product</th><th>Price</th></tr>{rows}</table>"

    def handle(request: PageRequest) -> PageResponse:
        query = request.param("q")
        form = _search_form("/search", "q", query, f"Search {name}")
        if request.path == "/":
            body = f"<h1>{_e(name)}</h1>{form}{listing(list(prices))}"
            return _page(name, f"{name} - online shop", body)
        if request.path == "/search":
            found = [s for s in prices if _matches(query, f"{PRODUCTS[s]['name']} {s}")]
            result = listing(found) if found else f"<p>No products match {_e(query)!r}.</p>"
            return _page(name, f"Search: {query} - {name}", f"{form}{result}")
        match = re.fullmatch(r"/product/([a-z0-9-]+)", request.path)
        if match and match[1] in prices:
            product = PRODUCTS[match[1]]
            body = (
                f"{form}<h1>{_e(product['name'])}</h1>"
                f'<p>Price: <span class="price">{_money(prices[match[1]])}</span> · In stock</p>'
                f"<p>{_e(product['description'])}</p>"
            )
            return _page(name, f"{product['name']} - {name}", body)
        return _not_found(name, f"No product at {request.path}.")

    return handle


# --- facts.local -------------------------------------------------------------------------------


def _driving_sentence(slug: str) -> str:
    side = FACTS["driving"][slug]
    return f"In {country_name(slug)}, traffic drives on the {side} side of the road."


def _holiday_sentence(slug: str) -> str:
    holiday, date = FACTS["holidays"][slug]
    return f"In {date[:4]}, {holiday} falls on {long_date(date)}."


def _flight_time_sentence(origin: str, destination: str) -> str:
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
    items = "".join(f"<li><a href='{_e(href)}'>{_e(text)}</a></li>" for href, text in links)
    return f"<ul>{items}</ul>"


def _facts(request: PageRequest) -> PageResponse:
    name = "World Facts"
    path = request.path.rstrip("/").lower() or "/"
    if path == "/":
        sections = _link_list(
            [
                ("/population/", "Population by country"),
                ("/stock/", "Stock prices"),
                ("/driving/", "Which side of the road each country drives on"),
                ("/holiday/", "Public holidays in 2025"),
                ("/flight-time/", "Direct flight times"),
                ("/attractions/", "Tourist attractions by city"),
            ]
        )
        return _page(name, f"{name} - countries and markets", f"<h1>{name}</h1>{sections}")
    if path == "/population":
        links = [(f"/population/{s}", country_name(s)) for s in sorted(FACTS["population"])]
        body = f"<h1>Population</h1>{_link_list(links)}"
        return _page(name, f"Population by country - {name}", body)
    if path == "/stock":
        links = [
            (f"/stock/{ticker}", f"{ticker.upper()} — {stock['company']}")
            for ticker, stock in FACTS["stock"].items()
        ]
        return _page(name, f"Stock prices - {name}", f"<h1>Stock prices</h1>{_link_list(links)}")
    if path == "/driving":
        links = [(f"/driving/{s}", country_name(s)) for s in sorted(FACTS["driving"])]
        body = f"<h1>Which side of the road?</h1>{_link_list(links)}"
        return _page(name, f"Driving side by country - {name}", body)
    if path in ("/holiday", "/holidays"):
        links = [
            (f"/holiday/{slug}", holiday)
            for slug, (holiday, _date) in sorted(FACTS["holidays"].items(), key=lambda h: h[1][1])
        ]
        body = f"<h1>Public holidays in 2025</h1>{_link_list(links)}"
        return _page(name, f"Public holidays in 2025 - {name}", body)
    if path == "/flight-time":
        links = [
            (
                f"/flight-time/{origin}-{destination}",
                f"{place_name(origin)} → {place_name(destination)}",
            )
            for origin, destinations in FACTS["flight_time"].items()
            for destination in destinations
        ]
        body = f"<h1>Direct flight times</h1>{_link_list(links)}"
        return _page(name, f"Direct flight times - {name}", body)
    if path == "/attractions":
        links = [(f"/attractions/{city}", place_name(city)) for city in FACTS["attractions"]]
        body = f"<h1>Tourist attractions</h1>{_link_list(links)}"
        return _page(name, f"Tourist attractions by city - {name}", body)
    match = re.fullmatch(r"/population/([a-z-]+)", path)
    if match and match[1] in FACTS["population"]:
        country, people = country_name(match[1]), FACTS["population"][match[1]]
        body = (
            f"<h1>Population of {_e(country)}</h1>"
            f'<p><span class="price">{people:,}</span> people (as of {FACTS_REFERENCE_DATE}).</p>'
        )
        return _page(name, f"Population of {country} - {name}", body)
    match = re.fullmatch(r"/stock/([a-z.]+)", path)
    if match and match[1] in FACTS["stock"]:
        ticker, stock = match[1].upper(), FACTS["stock"][match[1]]
        body = (
            f"<h1>{_e(stock['company'])} ({ticker})</h1>"
            f'<p>Last close: <span class="price">{_money(stock["price"])}</span> '
            f"({stock['change_percent']:+.2f}%)</p><p>Prices in US dollars.</p>"
        )
        return _page(name, f"{ticker} stock price - {stock['company']} - {name}", body)
    match = re.fullmatch(r"/driving/([a-z-]+)", path)
    if match and match[1] in FACTS["driving"]:
        country = country_name(match[1])
        body = f"<h1>Driving in {_e(country)}</h1><p>{_e(_driving_sentence(match[1]))}</p>"
        return _page(name, f"Which side of the road does {country} drive on? - {name}", body)
    match = re.fullmatch(r"/holiday/([a-z-]+)", path)
    if match and match[1] in FACTS["holidays"]:
        holiday, date = FACTS["holidays"][match[1]]
        body = (
            f"<h1>{_e(holiday)} {date[:4]}</h1><p>{_e(_holiday_sentence(match[1]))}</p>"
            f"<p>Date: <time datetime='{date}'>{date}</time></p>"
        )
        return _page(name, f"{holiday} {date[:4]} - {name}", body)
    match = re.fullmatch(r"/flight-time/([a-z-]+)", path)
    route = _flight_time_route(match[1]) if match else None
    if route is not None:
        origin, destination = route
        minutes = FACTS["flight_time"][origin][destination]["minutes"]
        heading = f"Flight time from {place_name(origin)} to {place_name(destination)}"
        body = (
            f"<h1>{_e(heading)}</h1><p>{_e(_flight_time_sentence(origin, destination))}</p>"
            f"<p>That is {minutes} minutes in the air.</p>"
        )
        return _page(name, f"{heading} - {name}", body)
    match = re.fullmatch(r"/attractions/([a-z-]+)", path)
    if match and match[1] in FACTS["attractions"]:
        heading = f"Top tourist attractions in {place_name(match[1])}"
        items = "".join(
            f"<li><b>{_e(sight['name'])}</b>: {_e(sight['description'])}</li>"
            for sight in FACTS["attractions"][match[1]]
        )
        return _page(name, f"{heading} - {name}", f"<h1>{_e(heading)}</h1><ol>{items}</ol>")
    return _not_found(name, f"No page at {request.path}.")


# --- maps.local ----------------------------------------------------------------------------------


def _place_key(text: str) -> str:
    words = _words(text)
    return " ".join(words[1:] if words[:1] == ["the"] else words)


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
        f'<p><label for="from">From</label> <input id="from" name="from" value="{_e(origin)}"></p>'
        f'<p><label for="to">To</label> <input id="to" name="to" value="{_e(destination)}"></p>'
        '<p><button type="submit">Get directions</button></p></fieldset></form>'
    )


def _maps(request: PageRequest) -> PageResponse:
    """Directions between a few New York places. A request that shows no route answers 400 when
    From or To is empty or both name the same place, 404 when a place or the route between two
    places is unknown."""
    name = "Offline Maps"
    path = request.path.rstrip("/") or "/"
    known = "".join(f"<li>{_e(place)}</li>" for place in _places().values())
    known_places = f"<h2>Known places</h2><ul>{known}</ul>"
    if path == "/":
        body = f"<h1>{name}</h1>{_directions_form()}{known_places}"
        return _page(name, name, body)
    if path != "/directions":
        return _not_found(name, f"No page at {request.path}.")
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
        errors = "".join(f'<p class="error">{_e(problem)}</p>' for problem in problems)
        body = f"<h1>Directions</h1>{errors}{form}{known_places}"
        return _page(name, f"No directions - {name}", body, status=status)
    minutes, mode = route["minutes"], route["mode"]
    summary = f"{start} → {end}: {minutes} min by {mode}"
    body = f'<h1>Directions</h1><p class="price">{_e(summary)}</p>{form}'
    return _page(name, f"{start} to {end} - {minutes} min - {name}", body)


# --- www.booking.com -----------------------------------------------------------------------------

_TRIPS = {"oneway": "One-way", "roundtrip": "Round trip"}


def _booking_form(
    trip: str = "oneway",
    origin: str = "",
    destination: str = "",
    date: str = "",
    return_date: str = "",
) -> str:
    radios = " ".join(
        f'<input type="radio" id="trip-{value}" name="trip" value="{value}"'
        f'{" checked" if value == trip else ""}> <label for="trip-{value}">{label}</label>'
        for value, label in _TRIPS.items()
    )
    cities = ", ".join(f"{city} ({code})" for code, city in AIRPORTS.items())
    return (
        '<form action="/search" method="get"><fieldset><legend>Search flights</legend>'
        f"<p>{radios}</p>"
        f'<p><label for="from">From</label> <input id="from" name="from" value="{_e(origin)}"></p>'
        f'<p><label for="to">To</label> <input id="to" name="to" value="{_e(destination)}"></p>'
        f'<p><label for="date">Depart</label> <input id="date" name="date" value="{_e(date)}" '
        'placeholder="YYYY-MM-DD"></p>'
        f'<p><label for="return">Return</label> <input id="return" name="return" '
        f'value="{_e(return_date)}" placeholder="YYYY-MM-DD (round trip only)"></p>'
        '<p><button type="submit">Search flights</button></p></fieldset></form>'
        f"<p>Airports: {_e(cities)}.</p>"
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
    found = sorted(
        (f for f in FLIGHTS if (f["from"], f["to"]) == (origin, destination)),
        key=lambda f: f["departs"],
    )
    heading = f"<h2>{leg}: {_e(AIRPORTS[origin])} → {_e(AIRPORTS[destination])}, {_e(date)}</h2>"
    if not found:
        return f"{heading}<p>No flights on this route.</p>", None
    rows = "".join(
        f"<tr><td>{f['number']}</td><td>{_e(f['airline'])}</td><td>{f['departs']}</td>"
        f'<td>{f["arrives"]}</td><td class="price">{_money(f["price"])}</td></tr>'
        for f in found
    )
    table = (
        "<table><tr><th>Flight</th><th>Airline</th><th>Departs</th><th>Arrives</th>"
        f"<th>Price</th></tr>{rows}</table>"
    )
    return heading + table, min(f["price"] for f in found)


def _booking(request: PageRequest) -> PageResponse:
    """Flight search only, no booking. A search that fails validation answers 400 with the
    reasons and the form filled in as sent."""
    name = "Booking.com"
    if request.path == "/":
        body = f"<h1>Find your flight</h1>{_booking_form()}"
        return _page(name, f"{name}: Search one-way and round-trip flights", body)
    if request.path.rstrip("/") != "/search":
        return _not_found(name, f"No page at {request.path}.")
    trip = request.param("trip") or "oneway"
    origin_text, destination_text = request.param("from"), request.param("to")
    date, return_date = request.param("date"), request.param("return")
    form = _booking_form(trip, origin_text, destination_text, date, return_date)
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
        errors = "".join(f'<p class="error">{_e(problem)}</p>' for problem in problems)
        return _page(name, f"Search flights - {name}", f"{errors}{form}", status=400)
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
        f'<p>{total}: <span class="price">{_money(lowest)}</span></p>' if lowest is not None else ""
    )
    body = f"<h1>{_e(title)}</h1>{summary}{sections}{form}"
    return _page(name, f"{title} - {name}", body)


# --- the registry --------------------------------------------------------------------------------

SITES: dict[str, Site] = {
    site.host: site
    for site in (
        Site("search.local", "Offline Search", "Web search engine", "http", _search_engine),
        Site("www.imdb.com", "IMDb", "Movie ratings", "https", _imdb, aliases=("imdb.com", "m.imdb.com")),
        Site("arxiv.org", "arXiv", "Research paper archive", "https", _arxiv, aliases=("www.arxiv.org", "export.arxiv.org")),
        Site("flights.local", "SkyFare", "Flight search and booking", "http", _flights),
        Site("facts.local", "World Facts", "Population, stock prices, holidays and travel facts", "http", _facts),
        Site("shop-a.local", SHOPS["shop-a.local"]["name"], "Electronics shop", "http", _shop("shop-a.local")),
        Site("shop-b.local", SHOPS["shop-b.local"]["name"], "Electronics shop", "http", _shop("shop-b.local")),
        Site("maps.local", "Offline Maps", "Directions and travel times", "http", _maps),
        Site("www.booking.com", "Booking.com", "Flight search", "https", _booking, aliases=("booking.com",)),
        Site("www.amazon.com", "Amazon", "Online store", "https", _shop("www.amazon.com"), aliases=("amazon.com",)),
        Site("www.walmart.com", "Walmart", "Online store", "https", _shop("www.walmart.com"), aliases=("walmart.com",)),
        Site("www.bestbuy.com", "Best Buy", "Electronics store", "https", _shop("www.bestbuy.com"), aliases=("bestbuy.com",)),
    )
}  # fmt: skip
SITE_HOSTS: tuple[str, ...] = tuple(SITES)
_BY_HOST: dict[str, Site] = {
    host: site for site in SITES.values() for host in (site.host, *site.aliases)
}


def find_site(host: str) -> Site | None:
    """The site answering for a host name (lower case, no port), aliases included."""
    return _BY_HOST.get(host)


def respond(host: str, request: PageRequest) -> PageResponse:
    """The whole offline web: connectivity checks, the site for ``host`` (plain http to a site
    that uses https is redirected there), or a list of sites."""
    if request.path.endswith("/generate_204"):
        return PageResponse(204, b"", "text/plain")
    site = find_site(host)
    if site is not None and site.scheme == "https" and request.scheme != "https":
        # As the real sites do. It matters for downloads: Chromium blocks a file fetched over
        # plain http ("Insecure download blocked") until the user clicks Keep.
        target = quote(request.path) + (
            f"?{urlencode(request.query, doseq=True)}" if request.query else ""
        )
        status = 301 if request.method in ("GET", "HEAD") else 308
        return PageResponse(status, b"", "text/plain", (("Location", f"https://{host}{target}"),))
    if site is not None:
        return site.handle(request)
    items = "".join(
        f'<li><a href="{_e(s.url())}">{_e(s.host)}</a> — {_e(s.description)}</li>'
        for s in SITES.values()
    )
    body = (
        f"<h1>Site not found</h1><p>There is no website at {_e(host or '(no host)')} "
        f"on this offline network. Known sites:</p><ul>{items}</ul>"
    )
    return _page("Offline web", "Site not found", body, status=404)
