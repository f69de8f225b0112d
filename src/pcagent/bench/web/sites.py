"""The offline websites: one small request handler per host, rendering the data of
:mod:`pcagent.bench.web.data` as plain HTML.

Pages are deliberately simple (headings, links, tables, forms with labelled fields) so that both
the accessibility tree and a screenshot show them clearly. Every page is a pure function of the
request: no cookies, no sessions, no clock.
"""

from __future__ import annotations

import functools
import html
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from pcagent.bench.web.data import (
    AIRPORTS,
    FACTS,
    FACTS_REFERENCE_DATE,
    FLIGHTS,
    MOVIES,
    PAPERS,
    PRODUCTS,
    SHOPS,
    booking_code,
    country_name,
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


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _matches(query: str, text: str) -> bool:
    """Every word of the query occurs in the text (a simple site search)."""
    words = set(_words(text))
    wanted = _words(query)
    return bool(wanted) and all(word in words for word in wanted)


# --- search.local --------------------------------------------------------------------------------

# fmt: off
_STOP_WORDS = frozenset({
    "a", "an", "and", "are", "at", "by", "find", "for", "from", "how", "i", "in", "is",
    "me", "of", "on", "or", "show", "the", "to", "what", "whats", "which", "who", "with",
})
# fmt: on


def _stem(word: str) -> str:
    # "flights" and "flight" are the same query word; crude, but applied to both sides.
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@dataclass(frozen=True)
class _SearchEntry:
    url: str
    title: str
    snippet: str
    words: frozenset[str]


def _entry(url: str, title: str, snippet: str, *keywords: str) -> _SearchEntry:
    words = {_stem(w) for w in _words(" ".join((title, snippet, *keywords)))}
    return _SearchEntry(url, title, snippet, frozenset(words))


@functools.cache
def _search_index() -> tuple[_SearchEntry, ...]:
    imdb, arxiv = SITES["www.imdb.com"], SITES["arxiv.org"]
    flights, facts = SITES["flights.local"], SITES["facts.local"]
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
    return tuple(entries)


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
        found = [m for m in MOVIES if _matches(query, MOVIES[m]["title"])]
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
        ", ".join(paper["authors"]),
        f"arXiv:{paper_id} [{paper['category']}] submitted {paper['submitted']}",
        "",
        "Abstract",
        *textwrap.wrap(paper["abstract"], 88),
    ]
    return one_page_pdf(paper["title"], lines)


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
        items = "".join(_paper_item(p) for p in PAPERS)
        body = (
            f"<h1>arXiv.org e-Print archive</h1>{form}<h2>Recent submissions</h2><ul>{items}</ul>"
        )
        return _page(name, "arXiv.org e-Print archive", body)
    if request.path.rstrip("/") == "/search":
        found = [
            p
            for p in PAPERS
            if _matches(query, f"{PAPERS[p]['title']} {' '.join(PAPERS[p]['authors'])} {p}")
        ]
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


# --- shop-a.local, shop-b.local ----------------------------------------------------------------


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


def _facts(request: PageRequest) -> PageResponse:
    name = "World Facts"
    path = request.path.rstrip("/") or "/"
    if path == "/":
        body = (
            f"<h1>{name}</h1><ul><li><a href='/population/'>Population by country</a></li>"
            "<li><a href='/stock/'>Stock prices</a></li></ul>"
        )
        return _page(name, f"{name} - countries and markets", body)
    if path == "/population":
        rows = "".join(
            f"<li><a href='/population/{slug}'>{_e(country_name(slug))}</a></li>"
            for slug in sorted(FACTS["population"])
        )
        return _page(name, f"Population by country - {name}", f"<h1>Population</h1><ul>{rows}</ul>")
    if path == "/stock":
        rows = "".join(
            f"<li><a href='/stock/{ticker}'>{ticker.upper()} — {_e(stock['company'])}</a></li>"
            for ticker, stock in FACTS["stock"].items()
        )
        return _page(name, f"Stock prices - {name}", f"<h1>Stock prices</h1><ul>{rows}</ul>")
    match = re.fullmatch(r"/population/([a-z-]+)", path.lower())
    if match and match[1] in FACTS["population"]:
        country, people = country_name(match[1]), FACTS["population"][match[1]]
        body = (
            f"<h1>Population of {_e(country)}</h1>"
            f'<p><span class="price">{people:,}</span> people (as of {FACTS_REFERENCE_DATE}).</p>'
        )
        return _page(name, f"Population of {country} - {name}", body)
    match = re.fullmatch(r"/stock/([a-z.]+)", path.lower())
    if match and match[1] in FACTS["stock"]:
        ticker, stock = match[1].upper(), FACTS["stock"][match[1]]
        body = (
            f"<h1>{_e(stock['company'])} ({ticker})</h1>"
            f'<p>Last close: <span class="price">{_money(stock["price"])}</span> '
            f"({stock['change_percent']:+.2f}%)</p><p>Prices in US dollars.</p>"
        )
        return _page(name, f"{ticker} stock price - {stock['company']} - {name}", body)
    return _not_found(name, f"No page at {request.path}.")


# --- the registry --------------------------------------------------------------------------------

SITES: dict[str, Site] = {
    site.host: site
    for site in (
        Site("search.local", "Offline Search", "Web search engine", "http", _search_engine),
        Site("www.imdb.com", "IMDb", "Movie ratings", "https", _imdb, aliases=("imdb.com", "m.imdb.com")),
        Site("arxiv.org", "arXiv", "Research paper archive", "https", _arxiv, aliases=("www.arxiv.org", "export.arxiv.org")),
        Site("flights.local", "SkyFare", "Flight search and booking", "http", _flights),
        Site("facts.local", "World Facts", "Population and stock prices", "http", _facts),
        Site("shop-a.local", SHOPS["shop-a.local"]["name"], "Electronics shop", "http", _shop("shop-a.local")),
        Site("shop-b.local", SHOPS["shop-b.local"]["name"], "Electronics shop", "http", _shop("shop-b.local")),
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
