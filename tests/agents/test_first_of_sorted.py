"""A sorted list of which only the first item's label or value is used becomes a pick of that
item (the program is the 1.5B Manager's, as recorded on pc06, 2026-12-03)."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, program
from tests.agents.program_steps import mended as mended_by_manager

from pcagent.agents.choice_readings import ChoiceQuestion, ReadsChoice
from pcagent.agents.first_of_sorted import WHOLE_OR_FIRST, with_first_of_sorted_picked
from pcagent.agents.program import check_program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
LOOKED = {
    "skill": "web_search_each",
    "args": {"things": ["Singapore", "Bangkok"], "search": "flight time to", "value": "time"},
}


def _sorted(first: str | None) -> dict[str, object]:
    args: dict[str, object] = {"items": {"from": "s1"}}
    return {"skill": "sort_items", "args": args | ({"first": first} if first else {})}


def test_the_label_of_a_sorted_list_is_its_first_item_picked() -> None:
    tell = {"skill": "tell_user", "args": {"text": {"from": "s2", "key": "label"}}}
    mended = with_first_of_sorted_picked(program(LOOKED, _sorted("lowest"), tell), CATALOG)
    assert mended.steps[1].skill == "pick_extreme"
    assert mended.steps[1].args == {"items": {"from": "s1"}, "which": "smallest"}
    assert mended.steps[2] == program(LOOKED, _sorted("lowest"), tell).steps[2]
    check_program(mended, CATALOG, ["browser"])
    # Highest first is the largest; a slot of its value counts as a key too.
    said = {"skill": "tell_user", "args": {"text": "{s2.label} at {s2.value}"}}
    picked = with_first_of_sorted_picked(program(LOOKED, _sorted("highest"), said), CATALOG)
    assert picked.steps[1].args == {"items": {"from": "s1"}, "which": "largest"}


def test_a_sorted_list_used_whole_or_of_no_said_order_stays() -> None:
    rows = {"skill": "fill_cells", "args": {"rows": {"from": "s2"}, "save_as": "a.xlsx"}}
    tell = {"skill": "tell_user", "args": {"text": "{s2.label}"}}
    for written in (
        program(LOOKED, _sorted("lowest"), rows, tell),  # the list itself written too
        program(LOOKED, _sorted(None), tell),  # which comes first is read from the words later
        program(
            LOOKED,
            _sorted("lowest"),
            {"skill": "gui", "app": "browser", "task": "x", "uses": ["s2"]},
        ),
    ):
        assert with_first_of_sorted_picked(written, CATALOG) == written


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for _task, gold in gold_programs():
        checked += 1
        assert with_first_of_sorted_picked(gold, CATALOG) == gold
    assert checked >= 300


def test_pc06s_program_is_mended_into_a_look_up_of_each_and_a_pick() -> None:
    """The whole first program of pc06 (2026-12-03) through the Manager's mends."""
    written = program(
        {"skill": "read_text_file", "args": {"path": "Documents/travel_plan2.txt"}},
        {
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": ["destinations"], "what": "the destinations"},
        },
        {"skill": "web_search", "args": {"query": "flight time from Beijing to {s2.destinations}"}},
        {
            "skill": "extract_values",
            "args": {"text": {"from": "s3"}, "names": ["flight_times"], "what": "the times"},
        },
        {"skill": "sort_items", "args": {"items": {"from": "s4"}, "first": "lowest"}},
        {"skill": "tell_user", "args": {"text": {"from": "s5", "key": "label"}}},
    )
    said = "Which destination in travel_plan2.txt has the shortest flight from Beijing?"
    mended = mended_by_manager(written, said)
    assert [step.skill for step in mended.steps] == [
        "read_text_file",
        "extract_values",
        "web_search_each",
        "pick_extreme",
        "tell_user",
    ]
    assert mended.steps[3].args == {"items": {"from": "s3"}, "which": "smallest"}
    assert mended.steps[4].args == {"text": {"from": "s5", "key": "label"}}
    check_program(mended, CATALOG, ["text_editor", "browser"])


def test_a_sort_is_kept_where_both_orders_of_the_reading_ask_for_every_item() -> None:
    """pc17 at 2e14a63: ratings "sorted from highest to lowest" written from the sort's
    "value"; a pick wrote the highest alone. The reading decides, only where both orders agree."""
    note = {
        "skill": "write_text_file",
        "args": {"path": "r.txt", "text": {"from": "s2", "key": "value"}},
    }
    written = program(LOOKED, _sorted("highest"), note)
    asked: list[ChoiceQuestion] = []

    def reads(answers: dict[str, bool]) -> ReadsChoice:
        def read(instruction: str, question: ChoiceQuestion) -> bool:
            asked.append(question)
            assert instruction == "sort them into r.txt"
            return answers[question.options[0][1]]

        return read

    every = {"every item, in that order": True, "only the item that comes first": True}
    # The first option listed is taken in both orders: every item, then the first only.
    first_listed = {"every item, in that order": True, "only the item that comes first": False}
    kept = with_first_of_sorted_picked(written, CATALOG, reads(every), "sort them into r.txt")
    assert kept == written and len(asked) == 2
    assert {q.question for q in asked} == {WHOLE_OR_FIRST}
    assert [q.options[0][1] for q in asked] == [
        "every item, in that order",
        "only the item that comes first",
    ]
    picked = with_first_of_sorted_picked(
        written, CATALOG, reads(first_listed), "sort them into r.txt"
    )
    assert picked.steps[1].skill == "pick_extreme"
