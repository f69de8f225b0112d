"""The country and city facts of the offline facts.local, frozen at one reference date, and
the English names and long dates its pages show."""

from __future__ import annotations

import datetime
from typing import Any, Final


def _sight(name: str, description: str) -> dict[str, str]:
    return {"name": name, "description": description}


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
        # Cities no built-in task asks about, for generated tasks (templates_attractions.py).
        "vienna": [
            _sight(
                "Hofburg",
                "The Habsburgs' winter palace in the old town, now home to museums "
                "and the Spanish Riding School.",
            ),
            _sight(
                "Belvedere Palace",
                "Two baroque palaces facing each other across a garden, "
                "with a gallery of Austrian painting.",
            ),
            _sight(
                "Prater", "A large green park with a funfair and a giant Ferris wheel from 1897."
            ),
            _sight(
                "Naschmarkt",
                "An open-air market of food stalls and small restaurants along the Wien river.",
            ),
        ],
        "dublin": [
            _sight(
                "Trinity College Library",
                "The Long Room's oak shelves hold 200,000 old "
                "books, beside an exhibition of illuminated manuscripts.",
            ),
            _sight(
                "Dublin Castle",
                "The seat of British rule in Ireland for seven centuries, "
                "with state apartments open to visitors.",
            ),
            _sight(
                "Temple Bar",
                "A quarter of narrow cobbled streets full of pubs, galleries and live music.",
            ),
            _sight(
                "Phoenix Park",
                "One of Europe's largest city parks, where a herd of deer roams freely.",
            ),
        ],
        "edinburgh": [
            _sight(
                "Edinburgh Castle",
                "A fortress on an extinct volcano above the city, "
                "holding the Scottish crown jewels.",
            ),
            _sight(
                "Royal Mile",
                "The old town's main street, running downhill from the castle to the palace.",
            ),
            _sight(
                "Arthur's Seat",
                "A grassy hill in a park at the city's edge, climbed for its wide views.",
            ),
            _sight(
                "Holyrood Palace",
                "The monarch's official residence in Scotland, at the foot of the Royal Mile.",
            ),
        ],
        "rome": [
            _sight(
                "Colosseum",
                "The great oval amphitheatre of ancient Rome, which once held "
                "some fifty thousand spectators.",
            ),
            _sight("Pantheon", "A Roman temple under a concrete dome with an open eye at its top."),
            _sight(
                "Trevi Fountain",
                "A baroque fountain where visitors toss a coin to make sure they return.",
            ),
            _sight(
                "Roman Forum",
                "The ruins of the temples, law courts and squares at the "
                "heart of the ancient city.",
            ),
        ],
        "amsterdam": [
            _sight(
                "Rijksmuseum",
                "The national museum of Dutch art and history, with Rembrandt's Night Watch.",
            ),
            _sight(
                "Anne Frank House",
                "The canal house where Anne Frank hid during the war and wrote her diary.",
            ),
            _sight(
                "Vondelpark",
                "The city's best-known park, with ponds, lawns and an open-air theatre.",
            ),
            _sight(
                "Van Gogh Museum",
                "The largest collection of Vincent van Gogh's paintings and letters.",
            ),
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
