"""web_asked (any site's query or form) and flight_searched (a route searched by city or code),
on real requests to the offline web, with their near misses."""

from __future__ import annotations

from pathlib import Path

from pcagent.bench.checkers import CheckContext, run_checker
from pcagent.bench.web import OfflineWeb

from .client import fetch


def check(web: OfflineWeb, home: Path, name: str, /, **params: object) -> bool:
    result = run_checker(name, params, CheckContext(home, services={"web": web}))
    assert result.reason
    return result.passed


def test_web_asked_looks_at_every_site_and_accepts_alternatives(
    web: OfflineWeb, tmp_path: Path
) -> None:
    fetch(web, "http://maps.local/directions?from=Empire+State+Building&to=Brooklyn+Museum")
    fetch(web, "http://search.local/?q=International+Labor+Day+2025")

    def asked(*words: str, host: str = "") -> bool:
        return check(web, tmp_path, "web_asked", words=list(words), host=host)

    assert asked("brooklyn museum")
    assert asked("brooklyn museum", host="maps.local")
    assert not asked("brooklyn museum", host="search.local")
    assert asked("labour|labor", "2025")
    assert not asked("labour")  # the American spelling was typed
    assert not asked("brooklyn", "labor")  # all words in one value
    assert not asked("museu")  # whole words only


def test_flight_searched_by_city_or_code_with_trip_and_dates(
    web: OfflineWeb, tmp_path: Path
) -> None:
    fetch(web, "https://www.booking.com/search?trip=oneway&from=Berlin&to=par&date=2025-03-14")
    fetch(
        web,
        "https://www.booking.com/search?trip=roundtrip&from=NYC&to=London"
        "&date=2025-05-02&return=2025-05-09",
    )

    def searched(**params: str) -> bool:
        return check(web, tmp_path, "flight_searched", host="www.booking.com", **params)

    one_way = {"origin": "BER", "destination": "PAR", "date": "2025-03-14"}
    assert searched(**one_way)
    assert not searched(**one_way, trip="roundtrip", return_date="2025-03-21")
    assert not searched(**{**one_way, "date": "2025-03-15"})
    assert not searched(**{**one_way, "origin": "PAR", "destination": "BER"})
    round_trip = {"origin": "NYC", "destination": "LON", "date": "2025-05-02", "trip": "roundtrip"}
    assert searched(**round_trip, return_date="2025-05-09")
    assert not searched(**round_trip, return_date="2025-05-10")
    assert not searched(**{**round_trip, "trip": "oneway"})
    assert not check(
        web, tmp_path, "flight_searched", host="flights.local", **one_way
    )  # another site
