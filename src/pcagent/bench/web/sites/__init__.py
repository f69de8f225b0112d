"""The offline websites: one small request handler per host, rendering the data of
:mod:`pcagent.bench.web.data` as plain HTML, and the registry that routes a request to them.

One module per site (:mod:`.search`, :mod:`.imdb`, :mod:`.arxiv`, :mod:`.flights` with
flights.local and www.booking.com, :mod:`.maps`, :mod:`.shops`, :mod:`.facts`), each declaring its
:class:`Site`; :mod:`.pages` holds what they share. Every page is a pure function of the request.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from pcagent.bench.web.sites.arxiv import ARXIV_SITE, arxiv_search, paper_pdf
from pcagent.bench.web.sites.facts import FACTS_SITE
from pcagent.bench.web.sites.flights import BOOKING_SITE, FLIGHTS_SITE, find_airport
from pcagent.bench.web.sites.imdb import IMDB_SITE
from pcagent.bench.web.sites.maps import MAPS_SITE, find_place, find_route
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape, page
from pcagent.bench.web.sites.search import SEARCH_SITE, search_results
from pcagent.bench.web.sites.shops import (
    AMAZON_SITE,
    BEST_BUY_SITE,
    SHOP_A_SITE,
    SHOP_B_SITE,
    WALMART_SITE,
)

__all__ = [
    "SITES",
    "SITE_HOSTS",
    "PageRequest",
    "PageResponse",
    "Site",
    "arxiv_search",
    "find_airport",
    "find_place",
    "find_route",
    "find_site",
    "paper_pdf",
    "respond",
    "search_results",
]

SITES: dict[str, Site] = {
    site.host: site
    for site in (
        SEARCH_SITE,
        IMDB_SITE,
        ARXIV_SITE,
        FLIGHTS_SITE,
        FACTS_SITE,
        SHOP_A_SITE,
        SHOP_B_SITE,
        MAPS_SITE,
        BOOKING_SITE,
        AMAZON_SITE,
        WALMART_SITE,
        BEST_BUY_SITE,
    )
}
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
        f'<li><a href="{escape(s.url())}">{escape(s.host)}</a> — {escape(s.description)}</li>'
        for s in SITES.values()
    )
    body = (
        f"<h1>Site not found</h1><p>There is no website at {escape(host or '(no host)')} "
        f"on this offline network. Known sites:</p><ul>{items}</ul>"
    )
    return page("Offline web", "Site not found", body, status=404)
