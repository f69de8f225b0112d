"""A name in a search's words that nobody gave is the step's doubt (the program is the 1.5B
Manager's, as recorded on a rewording of pc04, 2026-12-03)."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, mended, program

from pcagent.agents.search_instead import GuessedAddress, searched
from pcagent.agents.ungiven_names import (
    ungiven_names,
    ungiven_names_in_searches,
    ungrounded_form_values,
    without_ungiven_names,
)
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "Where I'm travelling, do people drive on the left or on the right side of the road? The "
    "destination is in travel_plan.txt in my Documents folder; could you read it in Mousepad "
    "and check the answer online in Chromium?"
)
READ = {"skill": "read_text_file", "args": {"path": "Documents/travel_plan.txt"}}
FOUND = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["destination"], "what": "the destination"},
}


def _searched(query: str) -> list[object]:
    return ungiven_names_in_searches(
        program(READ, FOUND, {"skill": "web_search", "args": {"query": query}}), CATALOG, [SAID]
    )


def test_a_name_nobody_gave_in_a_grounded_search_is_doubted() -> None:
    (doubt,) = _searched(
        "which side of the road traffic drives on in {s2.destination} in the United States"
    )
    assert doubt.step == "s3"
    assert "names United States, which neither the instruction nor a value found" in doubt.problem


def test_given_names_slots_a_first_word_and_short_codes_are_not() -> None:
    assert _searched("which side of the road does traffic drive on in {s2.destination}") == []
    assert _searched("Which side of the road do people drive on in {s2.destination}") == []
    assert ungiven_names("drive side {s2.destination} Chromium travel", [SAID]) == []
    assert ungiven_names("side of the road in the UK", [SAID]) == []  # short: a code
    assert ungiven_names("road side in Tokyo", [SAID, "Tokyo, Japan"]) == []  # a value found


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    checked = 0
    for task, gold in gold_programs():
        checked += 1
        assert ungiven_names_in_searches(gold, CATALOG, [task.instruction]) == [], task.id
    assert checked >= 300


def test_a_name_nobody_gave_after_a_value_found_is_left_out_of_the_search_and_its_reading() -> None:
    """pc04r1 at b8113e2 (2026-12-05): shown the program without the name, the Manager wrote
    it with "in the United States" after the destination, twice."""
    side = "which side of the road traffic drives on in {s2.destination}"
    read = {"skill": "extract_values", "args": {"text": {"from": "s3"}, "names": ["side"]}}
    written = program(
        READ,
        FOUND,
        {"skill": "web_search", "args": {"query": f"{side} in the United States"}},
        {**read, "args": {**read["args"], "what": f"{side} in the United States"}},
    )
    fixed = mended(written, SAID, (SAID,))
    assert fixed.steps[2].args["query"] == side
    assert fixed.steps[3].args["what"] == side
    assert _searched(side) == []
    # A search about the name itself (no value found in it) is left with its doubt.
    film = program({"skill": "web_search", "args": {"query": "Paper Lanterns running time"}})
    assert without_ungiven_names(film, CATALOG, ["How long is the film on my list?"]) == film


def test_no_gold_program_of_generated_tasks_loses_a_word() -> None:
    for task, gold in gold_programs():
        assert without_ungiven_names(gold, CATALOG, [task.instruction]) == gold, task.id


def test_the_search_words_role_s_words_naming_nobody_s_place_are_not_taken() -> None:
    """The ``search_words`` role added "in the United States" to pc04r1's search."""
    written = program(READ, FOUND, {"skill": "web_search", "args": {"query": "road side"}})
    guess = GuessedAddress("s3", "road side")
    named = "which side of the road traffic drives on in {s2.destination} in the United States"
    assert searched(written, guess, named, [SAID]) is None
    plain = "which side of the road traffic drives on in {s2.destination}"
    taken = searched(written, guess, plain, [SAID])
    assert taken is not None and taken.steps[2].args["query"] == plain


ARXIV = (
    'On https://arxiv.org/, run a search for "multimodal agent" papers in the web browser and '
    "download the top hit."
)


def _form(*values: object) -> list[object]:
    opened = {"skill": "open_page", "args": {"address": "https://arxiv.org/"}}
    fields = [{"label": "Search arXiv", "value": value} for value in values]
    filled = {"skill": "fill_form", "args": {"fields": fields}}
    return ungrounded_form_values(program(opened, filled), CATALOG, [ARXIV])


def test_a_form_value_of_words_nobody_gave_is_doubted() -> None:
    """A rewording of pc15 (2026-12-03): an example's topic typed into arxiv.org's search."""
    (doubt,) = _form("multi-application")
    assert doubt.step == "s2" and "'multi-application'" in doubt.problem
    assert _form("multimodal agent", "2025-06-01", "{s1.title}", 12) == []


def test_no_gold_program_of_generated_tasks_has_a_form_value_doubted() -> None:
    for task, gold in gold_programs():
        assert ungrounded_form_values(gold, CATALOG, [task.instruction]) == [], task.id
