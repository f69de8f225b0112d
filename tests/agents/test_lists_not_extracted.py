"""A list passed to a step that takes a text, whose values only list-taking steps use, goes to
them whole and the step goes (the programs as a rewording of pc24 wrote them)."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs, mended

from pcagent.agents.lists_not_extracted import with_lists_not_extracted
from pcagent.agents.program import check_program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "Save switch_price.txt in Documents: a fresh plain-text file naming whichever of Amazon, "
    "Walmart and Best Buy sells a new Nintendo Switch console for least, with that price."
)
SEARCH = {
    "id": "s4",
    "skill": "web_search_each",
    "args": {
        "things": ["Amazon", "Walmart", "Best Buy"],
        "search": "Nintendo Switch price",
        "value": "price",
    },
}
EXTRACT = {
    "id": "s5",
    "skill": "extract_values",
    "args": {"text": {"from": "s4"}, "names": ["price"], "what": "the price of the console"},
}
SORT = {
    "id": "s6",
    "skill": "sort_items",
    "args": {"items": {"from": "s5", "key": "price"}, "first": "lowest"},
}
PICK = {"id": "s6", "skill": "pick_extreme", "args": {"items": {"from": "s5"}, "which": "smallest"}}
WRITE = {
    "id": "s7",
    "skill": "write_text_file",
    "args": {"path": "Documents/switch_price.txt", "text": "{s6.label}: {s6.value}"},
}


def test_the_rows_go_to_the_sort_and_the_extraction_goes() -> None:
    program = with_lists_not_extracted(as_program(SEARCH, EXTRACT, SORT, WRITE), CATALOG)
    assert [step.id for step in program.steps] == ["s4", "s6", "s7"]
    assert program.steps[1].args == {"items": {"from": "s4"}, "first": "lowest"}
    picked = with_lists_not_extracted(as_program(SEARCH, EXTRACT, PICK, WRITE), CATALOG)
    assert picked.steps[1].args["items"] == {"from": "s4"}
    check_program(picked, CATALOG, ["browser", "text_editor"])  # valid as it stands


def test_through_every_mend_the_sort_used_for_its_first_item_becomes_a_pick_of_the_rows() -> None:
    program = mended(as_program(SEARCH, EXTRACT, SORT, WRITE), SAID)
    assert [(step.skill, step.args.get("items")) for step in program.steps[:2]] == [
        ("web_search_each", None),
        ("pick_extreme", {"from": "s4"}),
    ]


def test_a_step_used_as_a_text_or_not_given_a_list_stays() -> None:
    told = WRITE | {"args": WRITE["args"] | {"text": "cheapest: {s5.price}"}}
    as_text = as_program(SEARCH, EXTRACT, told)
    assert with_lists_not_extracted(as_text, CATALOG) is as_text
    both = as_program(SEARCH, EXTRACT, SORT, told | {"id": "s8"})
    assert with_lists_not_extracted(both, CATALOG) is both
    unused = as_program(SEARCH, EXTRACT)
    assert with_lists_not_extracted(unused, CATALOG) is unused
    page = {"id": "s4", "skill": "web_search", "args": {"query": "Nintendo Switch price"}}
    of_a_page = as_program(page, EXTRACT, SORT)
    assert with_lists_not_extracted(of_a_page, CATALOG) is of_a_page


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    for task, program in gold_programs():
        assert with_lists_not_extracted(program, CATALOG) is program, task.id
