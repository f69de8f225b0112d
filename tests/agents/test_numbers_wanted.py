"""A look-up whose rows go whole to a comparison of numbers is told each value must be one."""

from __future__ import annotations

from tests.agents.program_steps import program

from pcagent.agents.numbers_wanted import with_numbers_wanted
from pcagent.skills import default_catalog

LOOKUP = {
    "skill": "web_search_each",
    "args": {"things": ["Nvidia", "Apple"], "search": "stock price", "value": "stock"},
}


def test_rows_sorted_or_picked_from_are_wanted_as_numbers() -> None:
    catalog = default_catalog()
    for compared in (
        {"skill": "sort_items", "args": {"items": {"from": "s1"}, "first": "highest"}},
        {"skill": "pick_extreme", "args": {"items": "{s1}", "which": "largest"}},
    ):
        mended = with_numbers_wanted(program(LOOKUP, compared), catalog)
        assert mended.steps[0].args["numbers"] is True
        assert mended.steps[1] == program(LOOKUP, compared).steps[1]


def test_rows_written_as_they_are_are_left_alone() -> None:
    catalog = default_catalog()
    written = {
        "skill": "fill_cells",
        "args": {"rows": {"from": "s1"}, "save_as": "Documents/stocks.xlsx"},
    }
    plain = program(LOOKUP, written)
    assert with_numbers_wanted(plain, catalog) is plain
