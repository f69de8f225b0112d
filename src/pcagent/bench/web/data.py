"""The content of the offline websites, in one place, so tasks and checkers use the true values.

Everything here is fictional (made-up films, papers, flights, shops, prices) but shaped like the
real thing, and fixed: the same request always gets the same page. A checker that needs the right
answer imports it from here, e.g. ``FACTS["population"]["canada"]`` or
``SHOPS["shop-b.local"]["prices"]["usb-c-hub"]``.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Final

# --- www.imdb.com ------------------------------------------------------------------------------

MOVIES: Final[dict[str, dict[str, Any]]] = {
    "tt0001": {
        "title": "The Silent Harbor",
        "year": 2011,
        "rating": 7.8,
        "director": "Mara Lindqvist",
        "genres": ["Drama", "Mystery"],
        "runtime_minutes": 124,
        "plot": "A lighthouse keeper on a remote island finds a logbook that predicts the next storm.",
    },
    "tt0002": {
        "title": "Orbit of Glass",
        "year": 2016,
        "rating": 8.3,
        "director": "Tomasz Wren",
        "genres": ["Science Fiction", "Adventure"],
        "runtime_minutes": 141,
        "plot": "Two engineers race to repair a failing space station before its orbit decays.",
    },
    "tt0003": {
        "title": "Paper Lanterns",
        "year": 2008,
        "rating": 6.9,
        "director": "Aiko Hayward",
        "genres": ["Romance", "Drama"],
        "runtime_minutes": 106,
        "plot": "A calligrapher and a night-market cook meet every summer festival for ten years.",
    },
    "tt0004": {
        "title": "The Last Cartographer",
        "year": 2019,
        "rating": 7.4,
        "director": "Elias Marsh",
        "genres": ["Adventure", "History"],
        "runtime_minutes": 132,
        "plot": "An old mapmaker sets out to chart the one valley that appears on no map.",
    },
    "tt0005": {
        "title": "Midnight Express Line",
        "year": 2014,
        "rating": 7.1,
        "director": "Renata Costa",
        "genres": ["Thriller"],
        "runtime_minutes": 98,
        "plot": "A night-train conductor has until dawn to find out which passenger is not who they say.",
    },
    "tt0006": {
        "title": "Copper Sky",
        "year": 2021,
        "rating": 8.0,
        "director": "Jonah Okafor",
        "genres": ["Western", "Drama"],
        "runtime_minutes": 119,
        "plot": "A mining town's last doctor refuses to leave when the railroad company arrives.",
    },
    "tt0007": {
        "title": "Small Hours",
        "year": 2005,
        "rating": 6.5,
        "director": "Lena Fischer",
        "genres": ["Comedy"],
        "runtime_minutes": 92,
        "plot": "Three flatmates try to finish a board game that has lasted since New Year's Eve.",
    },
    "tt0008": {
        "title": "Echoes of Tomorrow",
        "year": 2023,
        "rating": 8.6,
        "director": "Priya Raman",
        "genres": ["Science Fiction", "Drama"],
        "runtime_minutes": 137,
        "plot": "A radio astronomer receives a message that sounds exactly like her own voice.",
    },
}

# --- arxiv.org -----------------------------------------------------------------------------------

PAPERS: Final[dict[str, dict[str, Any]]] = {
    "2401.01234": {
        "title": "Sparse Attention Routing for Long-Context Language Models",
        "authors": ["Hana Kobayashi", "Daniel Ortega", "Mei Chen"],
        "submitted": "2024-01-03",
        "category": "cs.CL",
        "abstract": (
            "We route each query token to a small, learned subset of key blocks, cutting the cost "
            "of attention over 128k-token contexts by a factor of six while keeping perplexity "
            "within 0.4 points of dense attention."
        ),
    },
    "2403.05678": {
        "title": "Grounding GUI Agents with Accessibility Trees",
        "authors": ["Lukas Berger", "Amara Nwosu"],
        "submitted": "2024-03-11",
        "category": "cs.AI",
        "abstract": (
            "Desktop agents that read the accessibility tree instead of raw pixels click the right "
            "element 31% more often on a benchmark of 120 office tasks."
        ),
    },
    "2405.09876": {
        "title": "Self-Supervised Depth Estimation from Rolling-Shutter Video",
        "authors": ["Ines Duarte", "Oskar Nilsson", "Farid Haddad"],
        "submitted": "2024-05-20",
        "category": "cs.CV",
        "abstract": (
            "Modelling the rolling shutter explicitly removes the depth artefacts that fast camera "
            "motion causes in self-supervised monocular depth networks."
        ),
    },
    "2407.04321": {
        "title": "A Benchmark for Multi-Application Desktop Tasks",
        "authors": ["Sofia Marin", "Kwame Mensah", "Yuki Tanaka", "Peter Lund"],
        "submitted": "2024-07-08",
        "category": "cs.HC",
        "abstract": (
            "We collect 25 tasks that each span two to four desktop applications and show that "
            "planning across applications, not single clicks, is where current agents fail."
        ),
    },
    "2409.11111": {
        "title": "Low-Rank Adapters Forget Less",
        "authors": ["Rahul Iyer", "Clara Weiss"],
        "submitted": "2024-09-02",
        "category": "cs.LG",
        "abstract": (
            "Fine-tuning with low-rank adapters preserves more of a model's earlier skills than full "
            "fine-tuning at equal target accuracy, across nine continual-learning sequences."
        ),
    },
}

# --- flights.local -------------------------------------------------------------------------------

AIRPORTS: Final[dict[str, str]] = {
    "NYC": "New York",
    "LON": "London",
    "PAR": "Paris",
    "BER": "Berlin",
    "TYO": "Tokyo",
    "SFO": "San Francisco",
}

FLIGHTS: Final[list[dict[str, Any]]] = [
    {"number": "PA101", "airline": "Polar Air", "from": "NYC", "to": "LON", "departs": "08:10", "arrives": "20:05", "price": 612.0},
    {"number": "BW220", "airline": "Bluewing", "from": "NYC", "to": "LON", "departs": "18:45", "arrives": "06:40", "price": 548.0},
    {"number": "AT310", "airline": "Atlas Transit", "from": "NYC", "to": "LON", "departs": "21:30", "arrives": "09:35", "price": 579.0},
    {"number": "PA102", "airline": "Polar Air", "from": "LON", "to": "NYC", "departs": "10:15", "arrives": "13:20", "price": 598.0},
    {"number": "BW415", "airline": "Bluewing", "from": "LON", "to": "PAR", "departs": "07:00", "arrives": "09:15", "price": 129.0},
    {"number": "EU502", "airline": "Eurolink", "from": "LON", "to": "PAR", "departs": "12:30", "arrives": "14:45", "price": 104.0},
    {"number": "EU510", "airline": "Eurolink", "from": "PAR", "to": "BER", "departs": "09:20", "arrives": "11:10", "price": 96.0},
    {"number": "AT640", "airline": "Atlas Transit", "from": "PAR", "to": "BER", "departs": "16:55", "arrives": "18:45", "price": 118.0},
    {"number": "PA730", "airline": "Polar Air", "from": "SFO", "to": "TYO", "departs": "11:40", "arrives": "15:25", "price": 884.0},
    {"number": "SK731", "airline": "Sakura Sky", "from": "SFO", "to": "TYO", "departs": "13:05", "arrives": "16:50", "price": 842.0},
    {"number": "SK808", "airline": "Sakura Sky", "from": "TYO", "to": "SFO", "departs": "17:30", "arrives": "10:10", "price": 861.0},
    {"number": "BW900", "airline": "Bluewing", "from": "BER", "to": "NYC", "departs": "09:50", "arrives": "12:55", "price": 497.0},
]  # fmt: skip


def booking_code(flight: str, date: str, passenger: str) -> str:
    """The confirmation code flights.local shows for a booking: six letters and digits, the same
    for the same flight number, date (YYYY-MM-DD) and passenger name (case and spacing ignored)."""
    key = "|".join((flight.strip().upper(), date.strip(), " ".join(passenger.lower().split())))
    digest = hashlib.sha256(key.encode()).digest()
    return base64.b32encode(digest).decode()[:6]


# --- shop-a.local and shop-b.local ---------------------------------------------------------------

PRODUCTS: Final[dict[str, dict[str, str]]] = {
    "wireless-mouse": {
        "name": "Wireless Mouse M220",
        "description": "Quiet-click optical mouse, 2.4 GHz receiver, 18-month battery life.",
    },
    "mechanical-keyboard": {
        "name": "Mechanical Keyboard K87",
        "description": "Tenkeyless keyboard with brown switches and a detachable USB-C cable.",
    },
    "usb-c-hub": {
        "name": "USB-C Hub 7-in-1",
        "description": "HDMI 4K, three USB-A ports, SD and microSD readers, 100 W pass-through.",
    },
    "noise-cancelling-headphones": {
        "name": "Noise Cancelling Headphones H700",
        "description": "Over-ear, 30 hours of battery, folding design with a hard case.",
    },
    "portable-ssd": {
        "name": "Portable SSD 1TB",
        "description": "Pocket-size solid-state drive, up to 1050 MB/s over USB 3.2.",
    },
    "webcam": {
        "name": "Full HD Webcam C30",
        "description": "1080p at 30 frames per second, privacy shutter, two microphones.",
    },
}

SHOPS: Final[dict[str, dict[str, Any]]] = {
    "shop-a.local": {
        "name": "Maple Market",
        "prices": {
            "wireless-mouse": 24.99,
            "mechanical-keyboard": 89.00,
            "usb-c-hub": 39.50,
            "noise-cancelling-headphones": 179.00,
            "portable-ssd": 94.99,
            "webcam": 45.00,
        },
    },
    "shop-b.local": {
        "name": "Harbor Goods",
        "prices": {
            "wireless-mouse": 21.49,
            "mechanical-keyboard": 94.50,
            "usb-c-hub": 34.90,
            "noise-cancelling-headphones": 189.99,
            "portable-ssd": 89.00,
            "webcam": 47.25,
        },
    },
}

# --- facts.local -------------------------------------------------------------------------------

FACTS: Final[dict[str, dict[str, Any]]] = {
    # People, as of the site's fixed reference date; URL slugs are the keys.
    "population": {
        "canada": 40_097_761,
        "germany": 84_482_267,
        "japan": 124_516_650,
        "brazil": 216_422_446,
        "australia": 26_638_544,
        "nigeria": 223_804_632,
        "france": 68_170_228,
        "india": 1_428_627_663,
        "mexico": 128_455_567,
        "new-zealand": 5_223_100,
    },
    # Last closing price in US dollars; keys are lower-case tickers.
    "stock": {
        "nvda": {"company": "NVIDIA Corporation", "price": 131.38, "change_percent": 2.14},
        "aapl": {"company": "Apple Inc.", "price": 227.52, "change_percent": -0.61},
        "msft": {"company": "Microsoft Corporation", "price": 415.26, "change_percent": 0.87},
        "tsla": {"company": "Tesla, Inc.", "price": 248.98, "change_percent": -3.05},
        "amzn": {"company": "Amazon.com, Inc.", "price": 186.40, "change_percent": 1.12},
    },
}
FACTS_REFERENCE_DATE: Final = "2024-07-01"


def country_name(slug: str) -> str:
    """``new-zealand`` -> ``New Zealand``."""
    return " ".join(part.capitalize() for part in slug.split("-"))
