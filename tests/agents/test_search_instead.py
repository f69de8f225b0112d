"""A step that opens an address nobody gave becomes a web search for a model's words: which
steps guessed, the swap itself, the Manager keeping a swap only when the program stays usable,
and the agent's prompt and reply (scripted models; the real model in a run of the whole
Manager, tests/runtime/test_program_run.py's neighbours, and benchmarks)."""

from __future__ import annotations

import json
from dataclasses import replace

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.given_values import ungiven_literals
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.program import Program
from pcagent.agents.search_instead import (
    GuessedAddress,
    SearchWordsAgent,
    found_before,
    grounded,
    guessed_addresses,
    searched,
    searches_leaving_out,
    sought_after,
    ungrounded_searches,
)
from pcagent.skills import default_catalog

APPS = {"text_editor": "text files", "browser": "web pages", "mail": "e-mail"}
SAID = "Find in Documents/memo.txt where I meet Ann, and tell me how long the walk there takes."
READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
PLACE = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["place"], "what": "where I meet Ann"},
}
GUESSED = {"id": "s3", "skill": "open_page", "args": {"address": "www.google.com"}}
TIME = {
    "id": "s4",
    "skill": "extract_values",
    "args": {"text": {"from": "s3"}, "names": ["minutes"], "what": "the walk's length"},
}
TELL = {"id": "s5", "skill": "tell_user", "args": {"text": "{s4.minutes}"}}


def test_only_a_literal_address_nobody_gave_is_a_guess() -> None:
    catalog = default_catalog()
    program = as_program(
        READ,
        PLACE,
        GUESSED,
        {"id": "s4", "skill": "open_page", "args": {"address": "{s2.place}"}},
        {"id": "s5", "skill": "open_page", "args": {"address": "https://maps.test/walk"}},
        {"id": "s6", "skill": "send_mail", "args": {"to": ["bob@example.test"], "subject": "x"}},
    )
    found = guessed_addresses(program, catalog, [SAID, "see maps.test for walks"])
    # The search home page is guessed; a reference is found, a named site given, and a
    # list of mail addresses is mail's own doubt (no search stands for a recipient).
    assert found == [GuessedAddress("s3", "www.google.com")]


def test_words_opened_as_an_address_are_a_guess_though_the_instruction_says_them() -> None:
    """ "check in Chromium how long ...": the planner opened "Chromium", which the browser
    searched for; the step is swapped for a search like an address nobody gave."""
    said = "Check in Chromium how long the walk to the museum takes."
    words = {"id": "s1", "skill": "open_page", "args": {"address": "Chromium"}}
    program = as_program(words)
    assert guessed_addresses(program, default_catalog(), [said]) == [
        GuessedAddress("s1", "Chromium")
    ]
    (doubt,) = ungiven_literals(program, default_catalog(), [said])
    assert "address='Chromium' is no address" in doubt.problem


def test_the_swap_keeps_the_step_s_id_and_refuses_the_address_again() -> None:
    program = as_program(READ, PLACE, GUESSED, TIME)
    guess = GuessedAddress("s3", "www.google.com")
    swapped = searched(program, guess, "  walking time to   {s2.place} ", [SAID])
    assert swapped is not None
    step = swapped.steps[2]
    assert (step.id, step.skill, step.args) == (
        "s3",
        "web_search",
        {"query": "walking time to {s2.place}"},
    )
    assert swapped.steps[3] == program.steps[3] and program.steps[2].skill == "open_page"
    assert searched(program, guess, "https://www.google.com/", [SAID]) is None
    assert searched(program, guess, "   ", [SAID]) is None
    # A site's name the user never wrote is not what they want found.
    assert searched(program, guess, "Google Maps", [SAID]) is None


def test_words_are_grounded_when_half_their_longer_words_were_given_or_found() -> None:
    assert grounded("walk to the museum", ["how long is the walk to the museum?"])
    assert grounded("how long a walk to {s2.place}", [SAID])  # walk, long, and a reference
    assert grounded("Brooklyn Museum opening hours", ["Brooklyn Museum"])  # a value found
    assert not grounded("Google Maps", [SAID])
    assert not grounded("best route planner online", [SAID])
    assert not grounded("to a", [SAID])  # no word says anything


def test_what_is_sought_stops_at_the_next_page_opened() -> None:
    other = {"id": "s5", "skill": "open_page", "args": {"address": "{s4.minutes}"}}
    late = {**TIME, "id": "s6", "args": {**TIME["args"], "what": "a later page's value"}}  # type: ignore[dict-item]
    program = as_program(READ, PLACE, GUESSED, TIME, other, late)
    assert sought_after(program, "s3") == ["the walk's length"]
    assert found_before(program, "s3") == ["{s2.place}: where I meet Ann"]
    assert sought_after(program, "s9") == [] and found_before(program, "s1") == []
    both = {**PLACE, "args": {**PLACE["args"], "names": ["time", "meeting_place"]}}  # type: ignore[dict-item]
    assert found_before(as_program(READ, both, GUESSED), "s3") == [
        "{s2.time}: the time (where I meet Ann)",
        "{s2.meeting_place}: the meeting place (where I meet Ann)",
    ]


def _manager(models: ScriptedModels, words: list[str], asked: list[str]) -> Manager:
    def search_words(instruction: str, program: Program, guess: GuessedAddress) -> str:
        asked.append(f"{guess.step} {guess.address}")
        return words.pop(0)

    return Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        search_words=search_words,
        asks_single_steps=False,  # tests/agents/test_focused_steps.py
    )


def test_the_manager_searches_instead_of_asking_the_whole_program_again() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [READ, PLACE, GUESSED, TIME, TELL]})])
    asked: list[str] = []
    outcome = _manager(models, ["walking time to {s2.place}"], asked).plan(SAID)
    assert asked == ["s3 www.google.com"]
    assert len(models.backends["manager"].requests) == 1  # no re-ask was needed
    step = outcome.plan.subtasks[2]
    assert (step.skill, step.args, step.doubt) == (
        "web_search",
        {"query": "walking time to {s2.place}"},
        "",
    )
    assert not any(s.doubt for s in outcome.plan.subtasks)


def test_a_search_for_words_nobody_gave_is_searched_for_the_model_s_words_instead() -> None:
    """A planner shown another task's program searched for that task's place."""
    copied = {"id": "s3", "skill": "web_search", "args": {"query": "Copper Sky opening hours"}}
    assert ungrounded_searches(as_program(copied), [SAID]) == [
        GuessedAddress("s3", "Copper Sky opening hours")
    ]
    models = ScriptedModels(manager=[json.dumps({"steps": [READ, PLACE, copied, TIME, TELL]})])
    asked: list[str] = []
    outcome = _manager(models, ["walk to {s2.place}"], asked).plan(SAID)
    assert asked == ["s3 Copper Sky opening hours"]
    assert outcome.plan.subtasks[2].args == {"query": "walk to {s2.place}"}
    assert not any(s.doubt for s in outcome.plan.subtasks)
    # Words the model gives that are no better are not taken: the search stays, doubted.
    models = ScriptedModels(
        manager=[json.dumps({"steps": [READ, PLACE, copied, TIME, TELL]})] * PROGRAM_ATTEMPTS
    )
    kept = _manager(models, ["Copper Sky hours"] * 6, []).plan(SAID)
    assert kept.plan.subtasks[2].args == copied["args"]
    assert "most of its words are neither" in kept.plan.subtasks[2].doubt


def test_a_swap_that_breaks_the_program_is_not_kept() -> None:
    # The words refer to a later step: the swapped program has a problem, so the guess stays
    # with its doubt, the Manager is asked again, and the last program keeps it.
    program = json.dumps({"steps": [READ, PLACE, GUESSED, TIME, TELL]})
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS)
    asked: list[str] = []
    manager = _manager(models, ["walk to {s4.minutes}"] * PROGRAM_ATTEMPTS, asked)
    outcome = manager.plan(SAID)
    assert len(asked) == PROGRAM_ATTEMPTS
    step = outcome.plan.subtasks[2]
    assert step.skill == "open_page" and "not in the instruction" in step.doubt
    again = models.backends["manager"].requests[1].messages[-1].text
    assert "www.google.com" in again


def test_the_agent_is_shown_the_program_and_the_step_and_survives_no_reply() -> None:
    models = ScriptedModels(search_words=[reply(query="walking time to {s2.place}")])
    agent = SearchWordsAgent(models.for_role("search_words"))
    program = as_program(READ, PLACE, GUESSED, TIME)
    guess = GuessedAddress("s3", "www.google.com")
    assert agent.words(SAID, program, guess) == "walking time to {s2.place}"
    prompt = models.backends["search_words"].requests[0].messages[-1].text
    assert f"Instruction: {SAID}" in prompt
    # What was found before, by reference, and what the steps after the search read from it;
    # not the guessed address, nor the rest of the program (the 1.5B model answered with
    # the site's name, or with the value found before, when shown them).
    assert "Values found before the search:\n- {s2.place}: where I meet Ann\n" in prompt
    assert "What the search is to find:\n- the walk's length\n" in prompt
    assert "google" not in prompt and "read_text_file" not in prompt
    broken = ScriptedModels(search_words=["no json", "still none"])
    assert SearchWordsAgent(broken.for_role("search_words")).words(SAID, program, guess) == ""


LEFT_OUT = {"id": "s3", "skill": "web_search", "args": {"query": "walking time to the meeting"}}


def test_a_search_after_an_unused_value_is_one_that_leaves_it_out() -> None:
    program = as_program(READ, PLACE, LEFT_OUT, TIME, TELL)
    assert searches_leaving_out(program, ["s2"]) == [
        GuessedAddress("s3", "walking time to the meeting")
    ]
    assert searches_leaving_out(program, []) == []  # every value found is used
    uses = as_program(READ, PLACE, {**LEFT_OUT, "args": {"query": "walk to {s2.place}"}})
    assert searches_leaving_out(uses, ["s2"]) == []


def test_the_words_of_a_search_put_in_are_mended_like_the_program_s() -> None:
    """pc02 (2026-11-29): the words asked for searched for "memo.txt Documents ..."."""
    models = ScriptedModels(manager=[json.dumps({"steps": [READ, PLACE, GUESSED, TIME, TELL]})])
    manager = _manager(models, ["memo.txt Documents walking time to {s2.place}"], [])
    manager = replace(
        manager,
        readings=InstructionReadings(files=lambda _: ["Documents/memo.txt"]),
        is_file=lambda path: path == "Documents/memo.txt",
    )
    step = manager.plan(SAID).plan.subtasks[2]
    assert (step.skill, step.args) == ("web_search", {"query": "walking time to {s2.place}"})


def test_the_manager_asks_for_words_with_the_value_left_out_and_keeps_only_those() -> None:
    program = json.dumps({"steps": [READ, PLACE, LEFT_OUT, TIME, TELL]})
    models = ScriptedModels(manager=[program])
    asked: list[str] = []
    outcome = _manager(models, ["walking time to {s2.place}"], asked).plan(SAID)
    assert asked == ["s3 walking time to the meeting"]
    assert len(models.backends["manager"].requests) == 1  # no doubt left to re-ask for
    step = outcome.plan.subtasks[2]
    assert (step.args, step.doubt) == ({"query": "walking time to {s2.place}"}, "")
    # Words that still leave the value out are not taken: the search stays, with the doubt.
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS)
    outcome = _manager(models, ["walking time to museums"] * PROGRAM_ATTEMPTS, []).plan(SAID)
    assert outcome.plan.subtasks[2].args == {"query": "walking time to the meeting"}
    assert "no later step uses it" in outcome.plan.subtasks[1].doubt
