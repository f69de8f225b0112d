"""The airports, timetable and booking codes of the offline flights.local."""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Final

# --- flights.local -------------------------------------------------------------------------------

AIRPORTS: Final[dict[str, str]] = {
    "NYC": "New York",
    "LON": "London",
    "PAR": "Paris",
    "BER": "Berlin",
    "TYO": "Tokyo",
    "SFO": "San Francisco",
    # Cities the generated training tasks travel between (their vocabulary's CITIES): searched
    # for, with no flights in the timetable ("No flights on this route").
    "OSL": "Oslo",
    "LIS": "Lisbon",
    "NBO": "Nairobi",
    "HEL": "Helsinki",
    "VIE": "Vienna",
    "LIM": "Lima",
    "DUB": "Dublin",
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
