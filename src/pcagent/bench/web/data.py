"""The content of the offline websites, in one place, so tasks and checkers use the true values.

Most of it is made up (films, papers, flights, shops, prices) but shaped like the real thing; a
few entries are real (well-known films with their IMDb ids, a famous paper, country facts) so
that tasks written against the real web keep their meaning, with values frozen here. Everything is
fixed: the same request always gets the same page. A checker that needs the right answer imports
it from here, e.g. ``FACTS["population"]["canada"]``, ``ROUTES[("Empire State Building",
"Brooklyn Museum")]["minutes"]`` or ``SHOPS["www.amazon.com"]["prices"]["nintendo-switch"]``.
"""

from __future__ import annotations

import base64
import datetime
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
    # Real films under their real IMDb ids; the ratings are a fixed snapshot.
    "tt0816692": {
        "title": "Interstellar",
        "year": 2014,
        "rating": 8.7,
        "director": "Christopher Nolan",
        "genres": ["Adventure", "Drama", "Science Fiction"],
        "runtime_minutes": 169,
        "plot": (
            "With crops failing on Earth, a former pilot leaves his children to lead a crew "
            "through a wormhole in search of a planet people could move to."
        ),
    },
    "tt0050083": {
        "title": "12 Angry Men",
        "year": 1957,
        "rating": 9.0,
        "director": "Sidney Lumet",
        "genres": ["Crime", "Drama"],
        "runtime_minutes": 96,
        "plot": (
            "On a sweltering afternoon, one juror asks the other eleven to look again at a "
            "murder case they all thought was settled."
        ),
    },
    "tt0110413": {
        "title": "Léon: The Professional",
        "year": 1994,
        "rating": 8.5,
        "director": "Luc Besson",
        "genres": ["Action", "Crime", "Drama"],
        "runtime_minutes": 110,
        "plot": (
            "A solitary New York hitman takes in the twelve-year-old girl next door after "
            "corrupt police officers kill her family."
        ),
    },
    "tt0111161": {
        "title": "The Shawshank Redemption",
        "year": 1994,
        "rating": 9.3,
        "director": "Frank Darabont",
        "genres": ["Drama"],
        "runtime_minutes": 142,
        "plot": (
            "A banker sentenced to life for a crime he did not commit spends two decades in a "
            "Maine prison, keeping his hope and his plans to himself."
        ),
    },
    "tt0062622": {
        "title": "2001: A Space Odyssey",
        "year": 1968,
        "rating": 8.3,
        "director": "Stanley Kubrick",
        "genres": ["Adventure", "Science Fiction"],
        "runtime_minutes": 149,
        "plot": (
            "A black monolith found buried on the Moon sends a crew and their calm, watchful "
            "computer on a voyage towards Jupiter."
        ),
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
    # A real paper; the abstract is a summary written for this site, not the original text.
    "1706.03762": {
        "title": "Attention Is All You Need",
        "authors": [
            "Ashish Vaswani",
            "Noam Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
        ],
        "submitted": "2017-06-12",
        "category": "cs.CL",
        "abstract": (
            "This paper presents the Transformer, an encoder-decoder network with no recurrence "
            "and no convolution that is instead based solely on attention mechanisms. Because "
            "its layers run in parallel it trains far faster than earlier translation systems, "
            "and it scores 28.4 BLEU on the WMT 2014 English-to-German task, above every model "
            "reported before it."
        ),
    },
    # Three papers a search for "multimodal agent" finds; arXiv lists them newest first.
    "2410.02345": {
        "title": "A Multimodal Agent for Everyday Desktop Automation",
        "authors": ["Marta Kowalczyk", "Jin-woo Park", "Tobias Brandt"],
        "submitted": "2024-10-03",
        "category": "cs.AI",
        "abstract": (
            "An agent that reads screenshots together with window titles finishes 64% of 200 "
            "routine office chores, such as filing receipts and renaming photos."
        ),
    },
    "2408.07777": {
        "title": "Multimodal Agent Benchmarks Are Far from Saturated",
        "authors": ["Olivia Grant", "Samuel Adeyemi"],
        "submitted": "2024-08-14",
        "category": "cs.AI",
        "abstract": (
            "Re-scoring eleven published agents without partial credit shows that the best of "
            "them completes fewer than half of the tasks it was reported to solve."
        ),
    },
    "2402.03333": {
        "title": "Planning over Screenshots with a Multimodal Agent",
        "authors": ["Ravi Menon", "Elena Sokolova", "Ahmed Farouk"],
        "submitted": "2024-02-06",
        "category": "cs.LG",
        "abstract": (
            "Having the model sketch a short plan from the current screenshot before every "
            "action halves the number of steps it wastes on dead ends."
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
    {"number": "EU520", "airline": "Eurolink", "from": "BER", "to": "PAR", "departs": "07:45", "arrives": "09:30", "price": 112.0},
    {"number": "AT655", "airline": "Atlas Transit", "from": "BER", "to": "PAR", "departs": "17:20", "arrives": "19:05", "price": 134.0},
]  # fmt: skip


def booking_code(flight: str, date: str, passenger: str) -> str:
    """The confirmation code flights.local shows for a booking: six letters and digits, the same
    for the same flight number, date (YYYY-MM-DD) and passenger name (case and spacing ignored)."""
    key = "|".join((flight.strip().upper(), date.strip(), " ".join(passenger.lower().split())))
    digest = hashlib.sha256(key.encode()).digest()
    return base64.b32encode(digest).decode()[:6]


# --- shops: shop-a.local, shop-b.local, www.amazon.com, www.walmart.com, www.bestbuy.com ----------

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
    "nintendo-switch": {
        "name": "Nintendo Switch Console",
        "description": (
            "Games console that plays on the TV or in your hands, with two detachable "
            "Joy-Con controllers and 32 GB of storage."
        ),
    },
    "game-controller": {
        "name": "Wireless Pro Game Controller",
        "description": "Bluetooth gamepad with motion controls, rumble and a 40-hour battery.",
    },
    "microsd-card": {
        "name": "microSD Card 256GB",
        "description": "UHS-I memory card, reads at up to 100 MB/s, full-size SD adapter included.",
    },
    "carrying-case": {
        "name": "Hard Carrying Case",
        "description": "Zip-up travel case with a padded inner flap and room for ten game cards.",
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
    "www.amazon.com": {
        "name": "Amazon",
        "prices": {
            "nintendo-switch": 299.99,
            "game-controller": 64.99,
            "microsd-card": 24.99,
            "carrying-case": 15.99,
        },
    },
    "www.walmart.com": {
        "name": "Walmart",
        "prices": {
            "nintendo-switch": 289.00,
            "game-controller": 59.00,
            "microsd-card": 22.47,
        },
    },
    "www.bestbuy.com": {
        "name": "Best Buy",
        "prices": {
            "nintendo-switch": 294.99,
            "game-controller": 69.99,
            "microsd-card": 26.99,
            "carrying-case": 19.99,
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
        "india": 1_450_935_791,
        "mexico": 128_455_567,
        "new-zealand": 5_223_100,
        "china": 1_419_321_278,
        "united-states": 345_426_571,
    },
    # Last closing price in US dollars; keys are lower-case tickers.
    "stock": {
        "nvda": {"company": "NVIDIA Corporation", "price": 131.38, "change_percent": 2.14},
        "aapl": {"company": "Apple Inc.", "price": 227.52, "change_percent": -0.61},
        "msft": {"company": "Microsoft Corporation", "price": 415.26, "change_percent": 0.87},
        "tsla": {"company": "Tesla, Inc.", "price": 248.98, "change_percent": -3.05},
        "amzn": {"company": "Amazon.com, Inc.", "price": 186.40, "change_percent": 1.12},
    },
    # Which side of the road traffic keeps to: "left" or "right"; keys are country slugs.
    "driving": {
        "japan": "left",
        "united-kingdom": "left",
        "australia": "left",
        "india": "left",
        "new-zealand": "left",
        "germany": "right",
        "france": "right",
        "united-states": "right",
        "canada": "right",
    },
    # Public holidays in 2025: slug -> (name, date as YYYY-MM-DD).
    "holidays": {
        "international-labour-day": ("International Labour Day", "2025-05-01"),
        "independence-day": ("Independence Day (United States)", "2025-07-04"),
        "christmas": ("Christmas Day", "2025-12-25"),
        "new-year": ("New Year's Day", "2025-01-01"),
    },
    # Direct flights: origin slug -> destination slug -> duration as shown and in minutes.
    "flight_time": {
        "beijing": {
            "tokyo": {"duration": "3 h 40 min", "minutes": 220},
            "singapore": {"duration": "6 h 20 min", "minutes": 380},
            "bangkok": {"duration": "5 h 5 min", "minutes": 305},
            "dubai": {"duration": "8 h 55 min", "minutes": 535},
            "sydney": {"duration": "11 h 50 min", "minutes": 710},
            "paris": {"duration": "11 h 15 min", "minutes": 675},
        },
    },
    # City slug -> its best-known sights, in the order the page lists them.
    "attractions": {
        "tokyo": [
            {
                "name": "Senso-ji Temple",
                "description": "The city's oldest Buddhist temple, entered through the "
                "Kaminarimon gate and a lane of snack and souvenir stalls in Asakusa.",
            },
            {
                "name": "Tokyo Skytree",
                "description": "A 634-metre broadcasting tower whose two observation decks "
                "look out over the whole city and, on clear days, Mount Fuji.",
            },
            {
                "name": "Meiji Shrine",
                "description": "A Shinto shrine set in a quiet evergreen forest next to "
                "Harajuku, dedicated to Emperor Meiji and Empress Shoken.",
            },
            {
                "name": "Shibuya Crossing",
                "description": "The scramble crossing where hundreds of people cross from "
                "every side at once each time the lights turn green.",
            },
        ],
        "kyoto": [
            {
                "name": "Fushimi Inari Shrine",
                "description": "Thousands of vermilion torii gates form tunnels up the "
                "wooded slopes of Mount Inari.",
            },
            {
                "name": "Kinkaku-ji",
                "description": "The Golden Pavilion: a Zen temple clad in gold leaf, mirrored "
                "in the pond in front of it.",
            },
            {
                "name": "Arashiyama Bamboo Grove",
                "description": "A walking path between towering green bamboo stalks on the "
                "western edge of the city.",
            },
            {
                "name": "Kiyomizu-dera",
                "description": "A hillside temple whose wooden stage juts out high above the "
                "trees, with views across the city.",
            },
        ],
    },
}
FACTS_REFERENCE_DATE: Final = "2024-07-01"


def place_name(slug: str) -> str:
    """The display name of a country or city slug: ``new-zealand`` -> ``New Zealand``."""
    return " ".join(part.capitalize() for part in slug.split("-"))


def country_name(slug: str) -> str:
    """``new-zealand`` -> ``New Zealand``."""
    return place_name(slug)


_WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def long_date(iso_date: str) -> str:
    """``2025-05-01`` -> ``Thursday, 1 May 2025``, in English whatever the locale; raises
    ``ValueError`` for a date that is not YYYY-MM-DD."""
    day = datetime.date.fromisoformat(iso_date)
    return f"{_WEEKDAYS[day.weekday()]}, {day.day} {_MONTHS[day.month - 1]} {day.year}"


# --- maps.local ----------------------------------------------------------------------------------

# (from, to) -> travel time in whole minutes and the means of transport. The reverse direction
# takes the same time; maps.local answers both.
ROUTES: Final[dict[tuple[str, str], dict[str, Any]]] = {
    ("Empire State Building", "Brooklyn Museum"): {"minutes": 38, "mode": "subway"},
    ("Empire State Building", "Central Park Zoo"): {"minutes": 22, "mode": "subway"},
    ("Empire State Building", "Battery Park"): {"minutes": 31, "mode": "subway"},
    ("Empire State Building", "Yankee Stadium"): {"minutes": 45, "mode": "subway"},
}
