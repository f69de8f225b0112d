"""The shops, one handler each over the same catalogue (``PRODUCTS``) at their own prices
(``SHOPS``): shop-a.local, shop-b.local, www.amazon.com, www.walmart.com and www.bestbuy.com."""

from __future__ import annotations

from collections.abc import Callable

from pcagent.bench.web.data import PRODUCTS, SHOPS
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape


def _shop(host: str) -> Callable[[PageRequest], PageResponse]:
    """The request handler of the shop at ``host``: its product list, search and product pages."""
    shop = SHOPS[host]
    name, prices = shop["name"], shop["prices"]

    def listing(slugs: list[str]) -> str:
        rows = "".join(
            f'<tr><td><a href="/product/{slug}">{escape(PRODUCTS[slug]["name"])}</a></td>'
            f'<td class="price">{pages.money(prices[slug])}</td></tr>'
            for slug in slugs
        )
        return f"<table><tr><th>Product</th><th>Price</th></tr>{rows}</table>"

    def handle(request: PageRequest) -> PageResponse:
        query = request.param("q")
        form = pages.search_form("/search", "q", query, f"Search {name}")
        if request.path == "/":
            body = f"<h1>{escape(name)}</h1>{form}{listing(list(prices))}"
            return pages.page(name, f"{name} - online shop", body)
        if request.path == "/search":
            found = pages.searched(query, {s: f"{PRODUCTS[s]['name']} {s}" for s in prices})
            result = listing(found) if found else f"<p>No products match {escape(query)!r}.</p>"
            return pages.page(name, f"Search: {query} - {name}", f"{form}{result}")
        if (slug := pages.item_at(request.path, r"/product/([a-z0-9-]+)", prices)) is not None:
            product = PRODUCTS[slug]
            body = (
                f"{form}<h1>{escape(product['name'])}</h1>"
                f'<p>Price: <span class="price">{pages.money(prices[slug])}</span>'
                " · In stock</p>"
                f"<p>{escape(product['description'])}</p>"
            )
            return pages.page(name, f"{product['name']} - {name}", body)
        return pages.not_found(name, f"No product at {request.path}.")

    return handle


def _shop_site(host: str, description: str, scheme: str, aliases: tuple[str, ...] = ()) -> Site:
    return Site(host, SHOPS[host]["name"], description, scheme, _shop(host), aliases)


SHOP_A_SITE = _shop_site("shop-a.local", "Electronics shop", "http")
SHOP_B_SITE = _shop_site("shop-b.local", "Electronics shop", "http")
AMAZON_SITE = _shop_site("www.amazon.com", "Online store", "https", ("amazon.com",))
WALMART_SITE = _shop_site("www.walmart.com", "Online store", "https", ("walmart.com",))
BEST_BUY_SITE = _shop_site("www.bestbuy.com", "Electronics store", "https", ("bestbuy.com",))
#: Every shop's site by its host, for the search engine's index.
SHOP_SITES: dict[str, Site] = {
    site.host: site for site in (SHOP_A_SITE, SHOP_B_SITE, AMAZON_SITE, WALMART_SITE, BEST_BUY_SITE)
}
