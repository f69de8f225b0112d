"""One search for several things, its one value given to each, becomes one look-up of each
(the programs are the 1.5B Manager's, as recorded on pc08 and pc24, 2026-12-03)."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, program

from pcagent.agents.one_search_for_many import with_one_search_for_each
from pcagent.agents.program import check_program
from pcagent.agents.repeated_values import one_value_for_several_items
from pcagent.skills import default_catalog

APPS = ["browser", "spreadsheet", "text_editor"]


def _searched(query: str, name: str) -> list[dict[str, object]]:
    return [
        {"skill": "web_search", "args": {"query": query}},
        {
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": [name], "what": f"the {name}"},
        },
    ]


def test_the_populations_of_three_countries_are_looked_up_each_and_sorted_whole() -> None:
    items = [
        {"label": country, "value": "{s2.population}"}
        for country in ("China", "United States", "India")
    ]
    written = program(
        *_searched("population of China, United States, India", "population"),
        {"skill": "sort_items", "args": {"items": items, "first": "highest"}},
        {"skill": "fill_cells", "args": {"rows": {"from": "s3"}, "save_as": "population.xlsx"}},
    )
    assert one_value_for_several_items(written)  # the doubt the Manager was re-asked with
    mended = with_one_search_for_each(written, default_catalog())
    assert [step.skill for step in mended.steps] == ["web_search_each", "sort_items", "fill_cells"]
    assert mended.steps[0].id == "s1"
    assert mended.steps[0].args == {
        "things": ["China", "United States", "India"],
        "search": "population of",
        "value": "population",
    }
    assert mended.steps[1].args == {"items": {"from": "s1"}, "first": "highest"}
    assert not one_value_for_several_items(mended)
    check_program(mended, default_catalog(), APPS)


def test_the_prices_at_three_shops_in_a_sheet_s_rows_and_an_extraction_still_used() -> None:
    """The shops are in the query after the product; the extraction stays where a later step
    uses it too."""
    rows = [[shop, {"from": "s2", "key": "price"}] for shop in ("Amazon", "Walmart", "Best Buy")]
    written = program(
        *_searched("Nintendo Switch console price at Amazon Walmart Best Buy", "price"),
        {"skill": "fill_cells", "args": {"rows": rows, "save_as": "prices.xlsx"}},
        {"skill": "tell_user", "args": {"text": "{s2.price}"}},
    )
    mended = with_one_search_for_each(written, default_catalog())
    assert [step.skill for step in mended.steps] == [
        "web_search_each",
        "extract_values",
        "fill_cells",
        "tell_user",
    ]
    assert mended.steps[0].args["search"] == "Nintendo Switch console price at"
    assert mended.steps[2].args["rows"] == {"from": "s1"}


def test_a_search_for_a_found_list_looks_up_each_thing_it_lists() -> None:
    """pc06 (2026-12-03): the destinations read from a note, one search for all of them by
    their slot, one value of that page sorted as if it were the list."""
    read = {"skill": "read_text_file", "args": {"path": "Documents/travel_plan2.txt"}}
    listed = {
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["destinations"], "what": "the destinations"},
    }
    search = {
        "skill": "web_search",
        "args": {"query": "flight time from Beijing to {s2.destinations}"},
    }
    times = {
        "skill": "extract_values",
        "args": {"text": {"from": "s3"}, "names": ["flight_times"], "what": "the flight times"},
    }
    sort = {"skill": "sort_items", "args": {"items": {"from": "s4"}, "first": "lowest"}}
    tell = {"skill": "tell_user", "args": {"text": "{s5}"}}
    written = program(read, listed, search, times, sort, tell)
    mended = with_one_search_for_each(written, default_catalog())
    assert [step.skill for step in mended.steps] == [
        "read_text_file",
        "extract_values",
        "web_search_each",
        "sort_items",
        "tell_user",
    ]
    assert mended.steps[2].id == "s3"
    assert mended.steps[2].args == {
        "things": {"from": "s2", "key": "destinations"},
        "search": "flight time from Beijing to",
        "value": "flight_times",
    }
    assert mended.steps[3].args == {"items": {"from": "s3"}, "first": "lowest"}
    check_program(mended, default_catalog(), APPS)
    # The key written or not, alike; a slot that picks one item, or two slots, is left.
    keyed = dict(sort, args={"items": {"from": "s4", "key": "flight_times"}})
    assert (
        with_one_search_for_each(program(read, listed, search, times, keyed), default_catalog())
        .steps[2]
        .skill
        == "web_search_each"
    )
    for query in ("flight time to {s2.destinations[0]}", "flight {s1} to {s2.destinations}"):
        other = program(read, listed, dict(search, args={"query": query}), times, sort)
        assert with_one_search_for_each(other, default_catalog()) == other


def test_other_shapes_are_left_to_the_doubt() -> None:
    catalog = default_catalog()
    items = [{"label": c, "value": "{s2.population}"} for c in ("China", "Peru")]
    sort = {"skill": "sort_items", "args": {"items": items}}
    # a label the query does not name: what to search for is not known
    unnamed = program(*_searched("population of China", "population"), sort)
    # each item its own value: nothing to mend
    own = [{"label": "China", "value": "{s2.population}"}, {"label": "Peru", "value": 31}]
    apart = program(
        *_searched("population of China, Peru", "population"),
        {"skill": "sort_items", "args": {"items": own}},
    )
    # the value read off a file, not a search
    read = program(
        {"skill": "read_text_file", "args": {"path": "Documents/facts.txt"}},
        _searched("x", "population")[1],
        sort,
    )
    # the search's page read by another step too: it stays a page
    followed = program(
        *_searched("population of China, Peru", "population"),
        sort,
        {"skill": "follow_link", "args": {"text": "World Facts"}, "uses": ["s1"]},
        {"skill": "tell_user", "args": {"text": {"from": "s1"}}},
    )
    for left in (unnamed, apart, read, followed):
        assert with_one_search_for_each(left, catalog) == left


def test_no_gold_program_is_changed() -> None:
    catalog = default_catalog()
    for task, gold in gold_programs(count=60):
        assert with_one_search_for_each(gold, catalog) == gold, task.id
