"""The travel times of the offline maps.local."""

from __future__ import annotations

from typing import Any, Final

# --- maps.local ----------------------------------------------------------------------------------

# (from, to) -> travel time in whole minutes and the means of transport. The reverse direction
# takes the same time; maps.local answers both.
ROUTES: Final[dict[tuple[str, str], dict[str, Any]]] = {
    ("Empire State Building", "Brooklyn Museum"): {"minutes": 38, "mode": "subway"},
    ("Empire State Building", "Central Park Zoo"): {"minutes": 22, "mode": "subway"},
    ("Empire State Building", "Battery Park"): {"minutes": 31, "mode": "subway"},
    ("Empire State Building", "Yankee Stadium"): {"minutes": 45, "mode": "subway"},
    # Places of no city in particular, for the generated training tasks: their minutes are no
    # built-in task's expected number.
    ("North Station", "Harbour Gallery"): {"minutes": 17, "mode": "tram"},
    ("North Station", "Botanical Garden"): {"minutes": 24, "mode": "bus"},
    ("Old Town Square", "Riverside Walk"): {"minutes": 19, "mode": "walk"},
    ("Old Town Square", "University Campus"): {"minutes": 27, "mode": "tram"},
    ("City Library", "Concert Hall"): {"minutes": 33, "mode": "bus"},
    ("City Library", "Market Hall"): {"minutes": 36, "mode": "walk"},
    ("Harbour Gallery", "University Campus"): {"minutes": 41, "mode": "subway"},
    ("Riverside Walk", "Concert Hall"): {"minutes": 47, "mode": "bus"},
}
