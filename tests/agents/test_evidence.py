"""A reported value is supported by the text it was read from, or it is not."""

from __future__ import annotations

import pytest

from pcagent.agents.evidence import empty_answer, found, restates, supported, whole_line

MEMO = "Memo for Tuesday, 11 March 2025\nMorning\n08:30  Breakfast with Lisa\n10:15  Team meeting"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("10:15", True),
        ("10:15  team   MEETING", True),  # case and spacing aside
        ("Team meeting at 10:15", True),  # every number is there
        ("8:30", True),  # a leading zero written or not
        ("tuesday 11 march 2025", True),
        ("2025-03-11", True),  # the memo's date, written the other way
        ("2025-03-12", False),
        ("2023-04-01T10:00:00", False),  # invented: no 2023, no 01
        ("9:15", False),  # computed, not read
        ("Lisa", True),
        ("Bob", False),
        ("", False),
        ("   ", False),
    ],
)
def test_supported(value: str, expected: bool) -> None:
    assert supported(value, MEMO) is expected


def test_thousands_separators_and_decimals_agree() -> None:
    assert supported("1275", "Rent: 1,275 per month")
    assert supported("1,275", "Rent: 1275 per month")
    assert supported("3.50", "Coffee 3.50")
    assert not supported("1276", "Rent: 1,275 per month")


INSTRUCTION = "Open memo.txt and find the second event of the morning. Set an alarm before it."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("The second event of the morning", True),  # the question given back
        ("second event morning", True),
        ("memo.txt", False),  # one word: a name may be copied from the task
        ("Paris", False),
        ("10:15 Team meeting", False),  # the time and the event are not the task's words
        ("second event 10:15", False),
        ("Team meeting with Lisa", False),  # words the task does not have
    ],
)
def test_restates(value: str, expected: bool) -> None:
    assert restates(value, INSTRUCTION) is expected


def test_numbers_of_the_task_restate_it_too() -> None:
    asked = "Search the web for the date of International Labour Day in 2025."
    assert restates("International Labour Day 2025", asked)
    assert not restates("1 May 2025", asked)


def test_a_restated_value_needs_the_screen() -> None:
    said = "done(summary='The second event of the morning is read')"
    seen = f"{MEMO}\n{said}"  # everything the step saw and did
    # the step's own words and the task's do not support the question given back ...
    assert not found("The second event of the morning", seen, INSTRUCTION, MEMO)
    # ... what the desktop showed does
    shown = MEMO + "\nThe second event of the morning is the team meeting"
    assert found("The second event of the morning", seen, INSTRUCTION, shown)
    # a value the task names, or one that was read, is found as before
    assert found("memo.txt", seen, INSTRUCTION, MEMO)
    assert found("10:15", seen, INSTRUCTION, MEMO)
    assert not found("9:15", seen, INSTRUCTION, MEMO)


def test_an_answer_must_carry_a_value() -> None:
    names = ["second_event", "s1_found"]
    assert empty_answer("s1_found", names, INSTRUCTION) is not None  # the name itself
    assert empty_answer("Second event", names, INSTRUCTION) is not None
    assert empty_answer("the second event of the morning", names, INSTRUCTION) is not None
    assert empty_answer("10:15 Team meeting", names, INSTRUCTION) is None


def test_a_value_that_was_not_found_is_no_value() -> None:
    said = "The dates are not found on the search results."
    assert empty_answer(said, ["dates"], INSTRUCTION) == "it says the value was not found"
    assert empty_answer("unknown", ["dates"], INSTRUCTION) is not None
    assert empty_answer("No information about it", ["dates"], INSTRUCTION) is not None
    assert empty_answer("Known for 1 May 2025", ["dates"], INSTRUCTION) is None


def test_a_found_value_is_widened_to_its_line() -> None:
    assert whole_line("Team meeting", MEMO) == "10:15  Team meeting"
    assert whole_line("10:15  Team meeting", MEMO) == "10:15  Team meeting"
    assert whole_line("Morning", MEMO) == "Morning"  # the line is the value
    assert whole_line("a", MEMO) == "a"  # on several lines: left as it is
    assert whole_line("Bob", MEMO) == "Bob"


QUOTES = """Quotes - Offline Search
KTL stock price - Kettle Works - Market Facts
Kettle Works (KTL) last closed at $12.50.
TPG stock price - Teapot Group - Market Facts
Teapot Group (TPG) last closed at $7.25.
Cosy Ltd (CSY) last closed at $3.10."""


def test_a_count_of_search_results_is_no_value() -> None:
    from pcagent.agents.evidence import empty_answer

    assert empty_answer("About 10 results", ["travel_time"], "how long is the trip") is not None
    assert empty_answer("10 results", ["travel_time"], "how long is the trip") is not None
    assert empty_answer("38 min by subway", ["travel_time"], "how long is the trip") is None
