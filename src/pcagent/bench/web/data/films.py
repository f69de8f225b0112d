"""The films of the offline www.imdb.com: made-up ones (tt0001...) and a few real ones with
their real IMDb ids, so tasks written against the real site keep their meaning."""

from __future__ import annotations

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
