"""The skills that compute with found values: exact arithmetic on typed parameters."""

from __future__ import annotations

import pytest

from pcagent.skills import SkillError
from pcagent.skills.text_editor import WriteTextFile
from pcagent.skills.values import days_between, pick_extreme, shift_time, sort_items, tell_user


class NoDesk:
    """These skills take no action; any use of the context is a mistake."""

    def act(self, action: object) -> object:
        raise AssertionError("a value skill acted on the desktop")

    def home(self) -> None:
        return None

    def step(self) -> None:
        return None

    def screen_text(self) -> str:
        return ""

    def language(self) -> None:
        return None


def test_a_time_moves_by_minutes_around_midnight_and_accepts_common_spellings() -> None:
    assert (
        shift_time.call(NoDesk(), {"time": "10:15", "direction": "before", "minutes": 60}).value
        == "09:15"
    )
    assert (
        shift_time.call(NoDesk(), {"time": "23:50", "direction": "after", "minutes": 30}).value
        == "00:20"
    )
    assert (
        shift_time.call(NoDesk(), {"time": "2:30 pm", "direction": "before", "minutes": 45}).value
        == "13:45"
    )
    line = {"time": "10:15  Call with the design agency", "direction": "before", "minutes": 60}
    assert shift_time.call(NoDesk(), line).value == "09:15"
    with pytest.raises(SkillError, match="time"):
        shift_time.call(
            NoDesk(), {"time": "08:30 breakfast, 10:15 call", "direction": "after", "minutes": 5}
        )
    with pytest.raises(SkillError, match="time"):
        shift_time.call(NoDesk(), {"time": "noonish", "direction": "after", "minutes": 5})
    # A number found by an earlier step is no time of day: a typed refusal, not a crash.
    for number in (345426571, 94.99):
        with pytest.raises(SkillError, match="time of day"):
            shift_time.call(NoDesk(), {"time": number, "direction": "after", "minutes": 5})
    assert shift_time.call(NoDesk(), {"time": 9.15, "direction": "after", "minutes": 0}).value == (
        "09:15"
    )
    with pytest.raises(SkillError, match="minutes"):
        shift_time.call(NoDesk(), {"time": "10:00", "direction": "after", "minutes": 5000})


def test_days_between_two_dates_in_several_spellings() -> None:
    result = days_between.call(NoDesk(), {"start": "2025-03-11", "end": "1 April 2025"})
    assert result.ok and result.value == 21
    with pytest.raises(SkillError, match="start"):
        days_between.call(NoDesk(), {"start": "soon", "end": "2025-04-01"})
    # A page writes the weekday too (pc05: "Thursday, 1 May 2025" was refused).
    worded = days_between.call(NoDesk(), {"start": "Thursday, 1 May 2025", "end": "4 July 2025"})
    assert worded.value == 64


def test_the_largest_and_smallest_of_labelled_values() -> None:
    items = [
        {"label": "Oslo", "value": "709,037"},
        {"label": "Bergen", "value": 291940},
        {"label": "Narvik", "value": "21.5 thousand"},
    ]
    assert pick_extreme.call(NoDesk(), {"items": items, "which": "largest"}).value == {
        "label": "Oslo",
        "value": 709037,
    }
    smallest = pick_extreme.call(NoDesk(), {"items": items, "which": "smallest"})
    assert smallest.value == {"label": "Narvik", "value": 21500}
    # Which end is a word the program must write; a program or memory of the earlier flag is
    # read as before.
    with pytest.raises(SkillError, match="which"):
        pick_extreme.call(NoDesk(), {"items": items})
    assert pick_extreme.call(NoDesk(), {"items": items, "largest": False}).value == smallest.value


def test_sorting_labelled_values_either_way() -> None:
    items = [{"label": "b", "value": 2}, {"label": "a", "value": 1}, {"label": "c", "value": 3}]
    assert sort_items.call(NoDesk(), {"items": items}).value == [["a", 1], ["b", 2], ["c", 3]]
    descending = sort_items.call(NoDesk(), {"items": items, "first": "highest"}).value
    assert descending == [["c", 3], ["b", 2], ["a", 1]]
    # Which way is a word the request says ("highest rating first"), not a flag to invert.
    with pytest.raises(SkillError, match="first"):
        sort_items.call(NoDesk(), {"items": items, "first": "descending"})
    with pytest.raises(SkillError, match="value"):
        sort_items.call(NoDesk(), {"items": [{"label": "x", "value": "lots"}]})


def test_ratings_and_numbers_with_words_after_them_compare_as_their_numbers() -> None:
    """extract_values keeps a value as the page writes it ("8.5/10")."""
    items = [
        {"label": "Leon", "value": "8.5/10"},
        {"label": "Shawshank", "value": "9.3 / 10"},
        {"label": "2001", "value": "8.3/10"},
    ]
    ordered = sort_items.call(NoDesk(), {"items": items, "first": "highest"})
    assert ordered.value == [["Shawshank", 9.3], ["Leon", 8.5], ["2001", 8.3]]
    assert ordered.evidence == "Shawshank=9.3, Leon=8.5, 2001=8.3"
    worded = [
        {"label": "a", "value": "169 min"},
        {"label": "b", "value": "1,450,935,791 people (as of 2024-07-01)"},
    ]
    assert pick_extreme.call(NoDesk(), {"items": worded, "which": "largest"}).value == {
        "label": "b",
        "value": 1450935791,
    }
    # Two numbers in the words are no one number: refused, not guessed.
    for unclear in ("8.5/10 and 9/10", "about 5", "2 h 49"):
        with pytest.raises(SkillError, match="value"):
            sort_items.call(NoDesk(), {"items": [{"label": "x", "value": unclear}]})


def test_lengths_of_time_compare_by_their_minutes_and_are_given_back_as_written() -> None:
    """Flight times as a page writes them (pc06: the shortest of three could not be picked)."""
    flights = [
        {"label": "Singapore", "value": "6 h 20 min"},
        {"label": "Bangkok", "value": "5 h 5 min"},
        {"label": "Dubai", "value": "8 h 55 min"},
    ]
    shortest = pick_extreme.call(NoDesk(), {"items": flights, "which": "smallest"})
    assert shortest.value == {"label": "Bangkok", "value": "5 h 5 min"}
    assert (
        pick_extreme.call(NoDesk(), {"items": flights, "which": "largest"}).value["label"]
        == "Dubai"
    )
    mixed = [
        {"label": "a", "value": "2 hours"},
        {"label": "b", "value": "1 hour 5 minutes"},
        {"label": "c", "value": "90 min by tram"},
        {"label": "d", "value": "45"},
    ]
    ordered = sort_items.call(NoDesk(), {"items": mixed, "first": "highest"}).value
    # "2 hours" is 120 minutes, not 2: compared in its own unit, given back as the number
    # written (a running time of "169 min" goes on as 169, into a cell or a calculation).
    assert ordered == [["a", 2], ["c", 90], ["b", "1 hour 5 minutes"], ["d", 45]]

    # A page's sentence whose only number is one length of time compares by it, and is given
    # back as that length (pc06, 2026-12-05: Dubai's flight time found as the sentence).
    flights[2]["value"] = "A direct flight from Beijing to Dubai takes about 8 h 55 min."
    longest = pick_extreme.call(NoDesk(), {"items": flights, "which": "largest"})
    assert longest.value == {"label": "Dubai", "value": "8 h 55 min"}
    rated = [{"label": "x", "value": "IMDb RATING: 8.7/10"}, {"label": "y", "value": "9/10"}]
    assert sort_items.call(NoDesk(), {"items": rated, "first": "lowest"}).value[0] == ["x", 8.7]
    # Other numbers beside the length: which one is meant is not guessed.
    for unclear in ("2 flights a day, 8 h 55 min each", "from 1 h to 2 h"):
        with pytest.raises(SkillError, match="value"):
            sort_items.call(NoDesk(), {"items": [{"label": "x", "value": unclear}]})


def test_hours_and_minutes_add_up() -> None:
    assert (
        shift_time.call(NoDesk(), {"time": "10:15", "direction": "before", "hours": 1}).value
        == "09:15"
    )
    assert (
        shift_time.call(
            NoDesk(), {"time": "10:15", "direction": "after", "hours": 1.5, "minutes": 5}
        ).value
        == "11:50"
    )


def test_which_way_is_a_word_and_a_signed_amount_is_refused() -> None:
    """A signed number was the 1.5B model's to get wrong (an hour before as +1); the direction
    must be said, and the amounts are how far."""
    with pytest.raises(SkillError, match="direction"):
        shift_time.call(NoDesk(), {"time": "10:15", "hours": 1})
    with pytest.raises(SkillError, match="hours"):
        shift_time.call(NoDesk(), {"time": "10:15", "direction": "before", "hours": -1})
    later = {"time": "10:15", "direction": "after", "hours": 1, "minutes": 30}
    assert shift_time.call(NoDesk(), later).value == "11:45"


def test_an_amount_found_on_a_page_moves_a_time_by_its_number_in_its_own_unit() -> None:
    """A travel time is found as the page writes it ("24 min by tram") and handed on."""
    before = {"time": "18:40", "direction": "before"}
    assert shift_time.call(NoDesk(), {**before, "minutes": "24 min by tram"}).value == "18:16"
    assert shift_time.call(NoDesk(), {**before, "minutes": "24"}).value == "18:16"
    assert shift_time.call(NoDesk(), {**before, "hours": "1.5 hours"}).value == "17:10"
    # Another unit, or two numbers, is no amount of this field: refused, never guessed.
    for wrong in ({"minutes": "1 hour"}, {"minutes": "2 h 49 min"}, {"hours": "90 min"}):
        with pytest.raises(SkillError):
            shift_time.call(NoDesk(), {**before, **wrong})


def test_a_list_given_for_a_text_is_written_a_line_an_item() -> None:
    """sort_items' rows passed whole to a skill that writes or tells a text."""
    rows = [["Small Hours", 6.5], ["Paper Lanterns", 6.9]]
    written = WriteTextFile(path="Documents/films.txt", text=rows)  # type: ignore[arg-type]
    assert written.text == "Small Hours, 6.5\nPaper Lanterns, 6.9"
    assert tell_user.call(NoDesk(), {"text": ["a", "b"]}).value == "a\nb"
    with pytest.raises(SkillError, match="text"):
        tell_user.call(NoDesk(), {"text": []})
