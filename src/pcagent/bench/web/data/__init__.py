"""The content of the offline websites, in one place, so tasks and checkers use the true values.

Most of it is made up (films, papers, flights, shops, prices) but shaped like the real thing; a
few entries are real (well-known films with their IMDb ids, a famous paper, country facts) so
that tasks written against the real web keep their meaning, with values frozen here. Everything is
fixed: the same request always gets the same page. A checker that needs the right answer imports
it from here, e.g. ``FACTS["population"]["canada"]``, ``ROUTES[("Empire State Building",
"Brooklyn Museum")]["minutes"]`` or ``SHOPS["www.amazon.com"]["prices"]["nintendo-switch"]``.

Each site's values are a module of this package (:mod:`.films`, :mod:`.papers`, :mod:`.flights`,
:mod:`.shops`, :mod:`.facts`, :mod:`.routes`); they are all named here too, because every site
page, checker and test that needs a true value imports it from this one place.
"""

from pcagent.bench.web.data.facts import (
    FACTS,
    FACTS_REFERENCE_DATE,
    country_name,
    long_date,
    place_name,
)
from pcagent.bench.web.data.films import MOVIES
from pcagent.bench.web.data.flights import AIRPORTS, FLIGHTS, booking_code
from pcagent.bench.web.data.papers import PAPERS
from pcagent.bench.web.data.routes import ROUTES
from pcagent.bench.web.data.shops import PRODUCTS, SHOPS

__all__ = [
    "AIRPORTS",
    "FACTS",
    "FACTS_REFERENCE_DATE",
    "FLIGHTS",
    "MOVIES",
    "PAPERS",
    "PRODUCTS",
    "ROUTES",
    "SHOPS",
    "booking_code",
    "country_name",
    "long_date",
    "place_name",
]
