"""One value found, written for several items of a list, is a doubt: the program a rewording
of pc07 ran (one price beside three companies), items that each have their own value, literals
repeated, and the gold programs of generated tasks."""

from __future__ import annotations

from typing import Any

from pcagent.agents.doubts import Evidence
from pcagent.agents.program import Program
from pcagent.agents.repeated_values import one_value_for_several_items
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

SEARCH = {"id": "s1", "skill": "web_search", "args": {"query": "Nvidia Apple Microsoft shares"}}
FOUND = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["company", "price"], "what": "each price"},
}


def _sheet(rows: list[list[Any]]) -> Program:
    sheet = {"id": "s3", "skill": "fill_cells", "args": {"rows": rows, "save_as": "a.xlsx"}}
    return Program.model_validate({"steps": [SEARCH, FOUND, sheet]})


def test_one_price_beside_three_companies_is_doubted() -> None:
    ran = _sheet(
        [
            [{"from": "s2", "key": "company"}, {"from": "s2", "key": "price"}],
            ["Nvidia", "{s2.company}"],
            ["Apple", "{s2.price}"],
            ["Microsoft", "{s2.price}"],
        ]
    )
    (doubt,) = one_value_for_several_items(ran)
    assert doubt.step == "s3" and "the one value s2.price in 3 items of its rows" in doubt.problem
    # It is one of the program's doubts, as the Manager is re-asked with them.
    doubts = Evidence(given=["Look up the share prices"]).doubts(ran, default_catalog())
    assert any("the one value s2.price" in d.problem for d in doubts)


def test_items_with_values_of_their_own_and_repeated_literals_are_no_doubt() -> None:
    own = _sheet([["Nvidia", "{s2.price}"], ["Apple", {"from": "s4", "key": "price"}]])
    assert one_value_for_several_items(own) == []
    literals = _sheet([["Nvidia", "n/a"], ["Apple", "n/a"], ["Year", 2025]])
    assert one_value_for_several_items(literals) == []
    # One item may use a value twice (its label and its value): it is still one item.
    once = _sheet([["{s2.company}", {"from": "s2", "key": "company"}], ["Total", 3]])
    assert one_value_for_several_items(once) == []
    # The items of one list found, each picked by its place, are values of their own; the
    # same place twice is one value again.
    places = _sheet([["{s2.company[0]}", "{s2.price[0]}"], ["{s2.company[1]}", "{s2.price[1]}"]])
    assert one_value_for_several_items(places) == []
    (twice,) = one_value_for_several_items(_sheet([["a", "{s2.price[0]}"], ["b", "{s2.price[0]}"]]))
    assert "the one value s2.price in 2 items" in twice.problem


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    programs = [Program(steps=t.program) for t in generate_tasks(200, 31) if t.program]
    assert len(programs) > 150
    assert [p for p in programs if one_value_for_several_items(p)] == []
