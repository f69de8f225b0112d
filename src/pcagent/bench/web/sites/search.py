"""search.local (Offline Search): a web search engine over fixed entries for the pages of the
other offline sites, ranked by how many query words an entry holds."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from urllib.parse import urlencode

from pcagent.bench.web.data import (
    AIRPORTS,
    FACTS,
    MOVIES,
    PAPERS,
    PRODUCTS,
    ROUTES,
    SHOPS,
    country_name,
    place_name,
)
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.arxiv import ARXIV_SITE
from pcagent.bench.web.sites.facts import (
    FACTS_SITE,
    driving_sentence,
    flight_time_sentence,
    holiday_sentence,
)
from pcagent.bench.web.sites.flights import BOOKING_SITE, FLIGHTS_SITE
from pcagent.bench.web.sites.imdb import IMDB_SITE
from pcagent.bench.web.sites.maps import MAPS_SITE
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape
from pcagent.bench.web.sites.shops import SHOP_SITES

_NAME = "Offline Search"

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
    entry_words = {pages.stem(w) for w in pages.words(" ".join((title, snippet, *keywords)))}
    return _SearchEntry(url, title, snippet, frozenset(entry_words))


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
    # Ties go to the earlier entry, so the later entries come last: they must not take the
    # first place of a query that already led to an older page.
    return (
        *_home_page_entries(),
        *_movie_entries(),
        *_paper_entries(),
        *_fact_entries(),
        *_shop_entries(),
        *_later_search_entries(),
    )


def _home_page_entries() -> list[_SearchEntry]:
    """The front pages of imdb.com, arxiv.org, the flight search and facts.local."""
    return [
        _entry(
            IMDB_SITE.url(),
            "IMDb: Ratings, Reviews, and Where to Watch",
            "Movie ratings.",
            "movie film imdb rating review",
        ),
        _entry(
            ARXIV_SITE.url(),
            "arXiv.org e-Print archive",
            "Open-access research papers.",
            "paper preprint research arxiv",
        ),
        _entry(
            FLIGHTS_SITE.url(),
            "SkyFare - Search and book cheap flights",
            "Compare flights and book tickets.",
            "flight airline book booking ticket travel fly",
            *(f"{code} {city}" for code, city in AIRPORTS.items()),
        ),
        _entry(
            FACTS_SITE.url(),
            "World Facts - countries and markets",
            "Population figures and stock prices.",
            "facts population stock price country",
        ),
    ]


def _movie_entries() -> list[_SearchEntry]:
    return [
        _entry(
            IMDB_SITE.url(f"/title/{movie_id}/"),
            f"{movie['title']} ({movie['year']}) - IMDb",
            f"Rated {movie['rating']}/10. Directed by {movie['director']}. {movie['plot']}",
            "movie film rating imdb",
            " ".join(movie["genres"]),
        )
        for movie_id, movie in MOVIES.items()
    ]


def _paper_entries() -> list[_SearchEntry]:
    return [
        _entry(
            ARXIV_SITE.url(f"/abs/{paper_id}"),
            f"[{paper_id}] {paper['title']}",
            f"{', '.join(paper['authors'])}. {paper['abstract'][:140]}...",
            "paper arxiv pdf",
            paper["category"],
        )
        for paper_id, paper in PAPERS.items()
    ]


def _fact_entries() -> list[_SearchEntry]:
    """The population and stock pages of facts.local."""
    populations = [
        _entry(
            FACTS_SITE.url(f"/population/{slug}"),
            f"Population of {country_name(slug)} - World Facts",
            f"{country_name(slug)} has a population of {people:,} people.",
            "population people inhabitants country",
            _PLACE_KEYWORDS.get(slug, ""),
        )
        for slug, people in FACTS["population"].items()
    ]
    stocks = [
        _entry(
            FACTS_SITE.url(f"/stock/{ticker}"),
            f"{ticker.upper()} stock price - {stock['company']} - World Facts",
            f"{stock['company']} ({ticker.upper()}) last closed at {pages.money(stock['price'])}.",
            "stock share price quote market ticker",
        )
        for ticker, stock in FACTS["stock"].items()
    ]
    return populations + stocks


def _shop_entries() -> list[_SearchEntry]:
    """Each shop's front page, then its product pages."""
    entries = []
    for host, shop in SHOPS.items():
        site = SHOP_SITES[host]
        entries.append(
            _entry(
                site.url(),
                f"{shop['name']} - online shop",
                "Electronics and accessories.",
                "shop store buy electronics",
            )
        )
        entries.extend(
            _entry(
                site.url(f"/product/{slug}"),
                f"{PRODUCTS[slug]['name']} - {shop['name']}",
                f"{pages.money(price)}. {PRODUCTS[slug]['description']}",
                "buy price shop store",
                slug.replace("-", " "),
            )
            for slug, price in shop["prices"].items()
        )
    return entries


def _later_search_entries() -> list[_SearchEntry]:
    """Entries for maps.local, www.booking.com and the travel pages of facts.local."""
    entries = [
        _entry(
            MAPS_SITE.url(),
            "Offline Maps - directions and travel times",
            "Travel times between places in New York City and beyond.",
            "map maps directions route travel time subway",
        ),
        _entry(
            BOOKING_SITE.url(),
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
                MAPS_SITE.url(f"/directions?{urlencode({'from': origin, 'to': destination})}"),
                f"{origin} to {destination} - Offline Maps",
                f"Directions and travel time by {mode} from {origin} to {destination}.",
                "directions travel time how long get from route subway",
            )
        )
    for slug in FACTS["driving"]:
        country = country_name(slug)
        entries.append(
            _entry(
                FACTS_SITE.url(f"/driving/{slug}"),
                f"Which side of the road does {country} drive on? - World Facts",
                driving_sentence(slug),
                "drive driving side road traffic left right hand",
                _PLACE_KEYWORDS.get(slug, ""),
            )
        )
    for slug, (holiday, date) in FACTS["holidays"].items():
        entries.append(
            _entry(
                FACTS_SITE.url(f"/holiday/{slug}"),
                f"{holiday} {date[:4]} - World Facts",
                holiday_sentence(slug),
                "holiday public date day when weekday",
                _HOLIDAY_KEYWORDS.get(slug, ""),
            )
        )
    for origin, destinations in FACTS["flight_time"].items():
        for destination in destinations:
            entries.append(
                _entry(
                    FACTS_SITE.url(f"/flight-time/{origin}-{destination}"),
                    f"Flight time from {place_name(origin)} to {place_name(destination)} "
                    "- World Facts",
                    flight_time_sentence(origin, destination),
                    "flight time duration long fly direct hour plane",
                )
            )
    for city, sights in FACTS["attractions"].items():
        entries.append(
            _entry(
                FACTS_SITE.url(f"/attractions/{city}"),
                f"Top tourist attractions in {place_name(city)} - World Facts",
                ", ".join(sight["name"] for sight in sights) + ".",
                "tourist attraction sight sightseeing landmark visit see things do",
            )
        )
    return entries


def search_results(query: str, limit: int = 10) -> list[tuple[str, str, str]]:
    """(url, title, snippet) of the search engine's results for ``query``, best first."""
    wanted = {pages.stem(w) for w in pages.words(query) if w not in _STOP_WORDS}
    scored = [
        (len(wanted & entry.words), position, entry)
        for position, entry in enumerate(_search_index())
    ]
    ranked = sorted((item for item in scored if item[0] > 0), key=lambda s: (-s[0], s[1]))
    return [(e.url, e.title, e.snippet) for _score, _position, e in ranked[:limit]]


def _search_engine(request: PageRequest) -> PageResponse:
    if request.path not in ("/", "/search"):
        return pages.not_found(_NAME, f"No page at {request.path}.")
    query = request.param("q")
    form = pages.search_form("/", "q", query, "Search the web")
    if not query:
        return pages.page(_NAME, _NAME, f"<h1>{_NAME}</h1>{form}")
    results = search_results(query)
    items = "\n".join(
        f'<div class="result"><a href="{escape(url)}"><h3>{escape(title)}</h3></a>'
        f"<cite>{escape(url)}</cite><p>{escape(snippet)}</p></div>"
        for url, title, snippet in results
    )
    if not results:
        items = f"<p>No results for <b>{escape(query)}</b>. Try other words.</p>"
    count = f"<p>About {len(results)} results</p>" if results else ""
    return pages.page(_NAME, f"{query} - {_NAME}", f"{form}\n{count}\n{items}")


#: The big engines' names answer too: an agent (a person as well) usually types their address,
#: and offline they would only say "Site not found".
SEARCH_ALIASES = (
    "www.google.com",
    "google.com",
    "www.bing.com",
    "bing.com",
    "duckduckgo.com",
    "www.duckduckgo.com",
)
SEARCH_SITE = Site(
    "search.local",
    _NAME,
    "Web search engine",
    "http",
    _search_engine,
    aliases=SEARCH_ALIASES,
)
