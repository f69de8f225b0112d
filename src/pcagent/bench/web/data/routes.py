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
}
