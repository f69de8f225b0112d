"""A sorted list written whole into a text, where a model reads (in both orders of the options)
that the instruction asks for its first item only, becomes a pick of that item (the program is
the 1.5B Manager's, as recorded on a rewording of pc24, 2026-12-03). The reading agent's real
model path is tested in tests/agents/test_choice_readings.py; the reading's figures are
benchmarks/first_or_all_readings.py's."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, program

from pcagent.agents.choice_readings import ChoiceQuestion
from pcagent.agents.first_or_all import (
    FIRST,
    WHOLE,
    with_all_of_picked_read,
    with_first_or_all_read,
)
from pcagent.agents.program import check_program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = "Save the name of the store that sells it for least, with its price, in cheapest.txt."
LOOKED = {
    "skill": "web_search_each",
    "args": {"things": ["Amazon", "Walmart"], "search": "console price", "value": "price"},
}
SORTED = {"skill": "sort_items", "args": {"items": {"from": "s1"}, "first": "lowest"}}
WRITTEN = {
    "skill": "write_text_file",
    "args": {"path": "Documents/cheapest.txt", "text": {"from": "s2"}},
}


class Reads:
    """A reading that answers ``answers`` in turn (the declared order's, then the reversed
    one's), keeping the questions asked."""

    def __init__(self, *answers: str | None) -> None:
        self.answers = list(answers)
        self.asked: list[ChoiceQuestion] = []

    def __call__(self, instruction: str, question: ChoiceQuestion) -> object:
        assert instruction == SAID
        self.asked.append(question)
        return self.answers.pop(0) if self.answers else None


def test_a_list_written_whole_where_only_the_first_is_asked_is_a_pick_of_it() -> None:
    read = Reads(FIRST, FIRST)
    mended = with_first_or_all_read(program(LOOKED, SORTED, WRITTEN), CATALOG, read, SAID)
    assert mended.steps[1].skill == "pick_extreme"
    assert mended.steps[1].args == {"items": {"from": "s1"}, "which": "smallest"}
    assert mended.steps[2].args["text"] == "{s2.label}: {s2.value}"
    check_program(mended, CATALOG, ["browser", "text_editor"])
    declared, reversed_ = read.asked
    assert [v for v, _ in declared.options] == [WHOLE, FIRST]
    assert [v for v, _ in reversed_.options] == [FIRST, WHOLE]
    assert "the lowest value" in declared.meaning_of(FIRST)  # type: ignore[operator]
    assert declared.parameter != reversed_.parameter  # read apart, each once per instruction
    # A slot of the whole list in a text, highest first: the largest, the slot the item's.
    told = {"skill": "tell_user", "args": {"text": "The dearest: {s2}"}}
    highest = {**SORTED, "args": {"items": {"from": "s1"}, "first": "highest"}}
    picked = with_first_or_all_read(
        program(LOOKED, highest, told), CATALOG, Reads(FIRST, FIRST), SAID
    )
    assert picked.steps[1].args["which"] == "largest"
    assert picked.steps[2].args["text"] == "The dearest: {s2.label}: {s2.value}"


def test_readings_that_disagree_say_whole_or_none_leave_the_program() -> None:
    written = program(LOOKED, SORTED, WRITTEN)
    for answers in ((FIRST, WHOLE), (WHOLE, WHOLE), (None,), (FIRST, None)):
        assert with_first_or_all_read(written, CATALOG, Reads(*answers), SAID) == written


def test_a_list_in_cells_by_a_key_or_on_the_screen_is_not_asked_about() -> None:
    rows = {"skill": "fill_cells", "args": {"rows": {"from": "s2"}, "save_as": "a.xlsx"}}
    keyed = {"skill": "tell_user", "args": {"text": "{s2.label}"}}
    screen = {"skill": "gui", "app": "text_editor", "task": "type {s2}", "uses": []}
    unsorted = {"skill": "sort_items", "args": {"items": {"from": "s1"}}}
    for steps in (
        (LOOKED, SORTED, rows),
        (LOOKED, SORTED, WRITTEN, keyed),
        (LOOKED, SORTED, WRITTEN, screen),
        (LOOKED, unsorted, WRITTEN),  # which comes first is read apart, before this
        (LOOKED, SORTED),  # not used at all
    ):
        read = Reads(FIRST, FIRST)
        written = program(*steps)
        assert with_first_or_all_read(written, CATALOG, read, SAID) == written
        assert read.asked == []


def test_no_gold_program_is_changed_where_the_reading_says_whole() -> None:
    """The templates' sorts are all written whole: read as wanted whole, nothing changes, and
    only their programs' sorts are asked about."""
    checked = asked = 0
    for _task, gold in gold_programs():
        checked += 1
        read = Reads(*[WHOLE] * 4)
        assert with_first_or_all_read(gold, CATALOG, read, SAID) == gold
        asked += bool(read.asked)
        assert not read.asked or any(step.skill == "sort_items" for step in gold.steps)
    assert checked >= 300 and asked > 0


PICKED = {"skill": "pick_extreme", "args": {"items": {"from": "s1"}, "which": "largest"}}
ITEM_WRITTEN = {
    "skill": "write_text_file",
    "args": {"path": "Documents/ratings.txt", "text": {"from": "s2", "key": "value"}},
}


def test_a_pick_written_alone_where_all_are_asked_is_a_sort_of_them() -> None:
    """pc17r1 and pc17r2 at db209bf: "highest rating first" written as the largest alone."""
    read = Reads(WHOLE, WHOLE)
    mended = with_all_of_picked_read(program(LOOKED, PICKED, ITEM_WRITTEN), CATALOG, read, SAID)
    assert mended.steps[1].skill == "sort_items"
    assert mended.steps[1].args == {"items": {"from": "s1"}, "first": "highest"}
    assert mended.steps[2].args["text"] == {"from": "s2"}
    check_program(mended, CATALOG, ["browser", "text_editor"])
    declared, _ = read.asked
    assert "the highest value" in declared.meaning_of(FIRST)  # type: ignore[operator]
    # The item's label and value as one text, smallest: the whole list, lowest first.
    smallest = {**PICKED, "args": {"items": {"from": "s1"}, "which": "smallest"}}
    told = {"skill": "tell_user", "args": {"text": "{s2.label}: {s2.value}"}}
    sorted_ = with_all_of_picked_read(
        program(LOOKED, smallest, told), CATALOG, Reads(WHOLE, WHOLE), SAID
    )
    assert sorted_.steps[1].args["first"] == "lowest"
    assert sorted_.steps[2].args["text"] == {"from": "s2"}


def test_a_pick_is_kept_where_the_readings_disagree_or_say_first() -> None:
    written = program(LOOKED, PICKED, ITEM_WRITTEN)
    for answers in ((FIRST, FIRST), (WHOLE, FIRST), (None,), (WHOLE, None)):
        assert with_all_of_picked_read(written, CATALOG, Reads(*answers), SAID) == written


def test_a_pick_used_among_words_or_typed_is_not_asked_about() -> None:
    worded = {"skill": "tell_user", "args": {"text": "The best rated: {s2.label}"}}
    screen = {"skill": "gui", "app": "text_editor", "task": "type {s2.value}", "uses": []}
    for steps in (
        (LOOKED, PICKED, worded),
        (LOOKED, PICKED, ITEM_WRITTEN, screen),
        (LOOKED, PICKED),
    ):
        read = Reads(WHOLE, WHOLE)
        written = program(*steps)
        assert with_all_of_picked_read(written, CATALOG, read, SAID) == written
        assert read.asked == []


def test_no_gold_program_is_changed_where_the_reading_says_first() -> None:
    """The templates' picks are all wanted alone: read so, nothing changes."""
    checked = asked = 0
    for _task, gold in gold_programs():
        checked += 1
        read = Reads(*[FIRST] * 4)
        assert with_all_of_picked_read(gold, CATALOG, read, SAID) == gold
        asked += bool(read.asked)
    assert checked >= 300 and asked > 0
