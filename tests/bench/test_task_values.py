"""The values the task files check are the values the offline websites show: a change to
``web/data.py`` that a task depends on fails here, not silently in a benchmark run."""

from __future__ import annotations

from typing import Any

from pcagent.bench.tasks import Task, load_tasks
from pcagent.bench.web.data import FACTS, MOVIES, PAPERS, ROUTES, SHOPS
from pcagent.bench.web.sites import arxiv_search

TASKS = load_tasks()


def params(task: Task, node: str) -> dict[str, Any]:
    return task.node(node).params


def test_travel_time_and_the_alarm_that_leaves_in_time() -> None:
    minutes = ROUTES[("Empire State Building", "Brooklyn Museum")]["minutes"]
    assert params(TASKS["pc02"], "reported")["value"] == str(minutes)
    latest = params(TASKS["pc03"], "alarm")["latest"]
    hour, minute = (int(part) for part in latest.split(":"))
    assert hour * 60 + minute == 14 * 60 - minutes  # the memo's meeting is at 14:00


def test_facts_behind_answers() -> None:
    assert params(TASKS["pc04"], "reported")["value"] == FACTS["driving"]["japan"]
    times = FACTS["flight_time"]["beijing"]
    shortest = min(("singapore", "bangkok", "dubai"), key=lambda city: times[city]["minutes"])
    assert params(TASKS["pc06"], "reported")["value"].lower() == shortest


def test_sheet_rows_match_the_sites() -> None:
    stocks = {row[0]: float(row[1]) for row in params(TASKS["pc07"], "sheet")["rows"]}
    assert stocks == {
        "nvidia": FACTS["stock"]["nvda"]["price"],
        "apple": FACTS["stock"]["aapl"]["price"],
        "microsoft": FACTS["stock"]["msft"]["price"],
    }
    people = [int(row[1]) for row in params(TASKS["pc08"], "sheet")["rows"]]
    population = FACTS["population"]
    assert people == [population["india"], population["china"], population["united-states"]]
    assert people == sorted(people, reverse=True)
    assert params(TASKS["pc11"], "rating1")["value"] == str(MOVIES["tt0816692"]["rating"])
    assert float(params(TASKS["pc11"], "rating2")["value"]) == MOVIES["tt0050083"]["rating"]


def test_ratings_order_and_cheapest_shop() -> None:
    ordered = sorted(("tt0110413", "tt0111161", "tt0062622"), key=lambda m: -MOVIES[m]["rating"])
    expected = params(TASKS["pc17"], "sorted")["texts"]
    assert [t for m in ordered for t in expected if t in MOVIES[m]["title"]] == expected
    prices = {host: shop["prices"].get("nintendo-switch") for host, shop in SHOPS.items()}
    cheapest = min((p, host) for host, p in prices.items() if p is not None)
    assert SHOPS[cheapest[1]]["name"] == params(TASKS["pc24"], "shop")["texts"][0]
    assert float(params(TASKS["pc24"], "price")["value"]) == cheapest[0]


def test_papers() -> None:
    for phrase in params(TASKS["pc10"], "written")["texts"]:
        assert phrase in PAPERS["1706.03762"]["abstract"]
    first = arxiv_search("multimodal agent")[0]
    assert params(TASKS["pc15"], "downloaded")["name"] == f"{first}.pdf"
