"""A program that writes the same calls again is cut to their first writing, references moved
(the real skills' declarations; scripted replies for the Manager)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program, numbered, program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.manager import Manager
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import ProgramStep
from pcagent.agents.repeated_steps import only_finished_again, repeated_failure, without_repeats
from pcagent.skills import default_catalog

READ = {"skill": "read_mail", "args": {"folder": "Inbox", "limit": 1}}


def _extract(source: str) -> dict[str, object]:
    return {
        "skill": "extract_values",
        "args": {"text": {"from": source}, "names": ["subject"], "what": "the subject"},
    }


def test_a_repeated_block_collapses_onto_its_first_writing() -> None:
    tell = {"skill": "tell_user", "args": {"text": "The subject is {s6.subject}"}}
    looped = program(READ, _extract("s1"), READ, _extract("s3"), READ, _extract("s5"), tell)
    kept = without_repeats(looped)
    assert [s.id for s in kept.steps] == ["s1", "s2", "s7"]
    assert kept.steps[1].args["text"] == {"from": "s1"}
    assert kept.steps[2].args["text"] == "The subject is {s2.subject}"


def test_different_calls_are_all_kept() -> None:
    other = {"skill": "read_mail", "args": {"folder": "Sent", "limit": 1}}
    written = program(READ, other, _extract("s1"), _extract("s2"))
    assert without_repeats(written) is written


def test_the_manager_runs_the_program_without_its_repeats() -> None:
    tell = {"skill": "tell_user", "args": {"text": "{s4.subject}"}}
    reply = json.dumps({"steps": numbered(READ, _extract("s1"), READ, _extract("s3"), tell)})
    models = ScriptedModels(manager=[reply])
    apps = {"mail": "e-mail"}
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan("What is the subject of my newest mail?")
    assert not outcome.fallback
    assert [(s.id, s.skill) for s in outcome.plan.subtasks] == [
        ("s1", "read_mail"),
        ("s2", "extract_values"),
        ("s5", "tell_user"),
    ]


def test_a_page_opened_again_between_two_look_ups_is_kept() -> None:
    """The site's home is opened again before the second film's link: dropping it would follow
    that link on the first film's page."""
    home = {"skill": "open_page", "args": {"address": "imdb.com"}}
    looked_up = program(
        home,
        {"skill": "follow_link", "args": {"text": "Copper Sky"}},
        home,
        {"skill": "follow_link", "args": {"text": "Small Hours"}},
    )
    navigating = [one.name for one in default_catalog() if one.navigates]
    assert sorted(navigating) == ["follow_link", "follow_result", "open_page", "web_search"]
    assert without_repeats(looked_up, keeps=navigating) is looked_up
    assert [s.id for s in without_repeats(looked_up).steps] == ["s1", "s2", "s4"]
    # The Manager keeps them.
    apps = {"browser": "web browser"}
    models = ScriptedModels(manager=[json.dumps(looked_up.model_dump(exclude_defaults=True))])
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan('Open imdb.com, then "Copper Sky", then imdb.com and "Small Hours".')
    assert [s.id for s in outcome.plan.subtasks] == ["s1", "s2", "s3", "s4"]


def test_a_call_is_compared_as_a_model_writes_it() -> None:
    """A rewording of pc01 (2026-12-07): the failed extraction carried ``uses`` (code's: where
    its value went); the re-plan wrote it again word for word without them, and it was not
    caught as the failed call repeated."""
    catalog = default_catalog()
    extract = _extract("s1")
    told = {**extract, "args": {**extract["args"], "uses": {"subject": "tell_user.text"}}}  # type: ignore[dict-item]
    failed = SubtaskSpec(id="s2", description="extract", skill="extract_values", args=told["args"])
    again = program(READ, extract)
    assert "s2 repeats the call of s2 that just failed" in repeated_failure(again, failed, catalog)
    other = program(READ, {**extract, "args": {**extract["args"], "what": "the mail's subject"}})  # type: ignore[dict-item]
    assert repeated_failure(other, failed, catalog) == ""
    # A finished call written again, its uses left out, is dropped as well.
    done = [ProgramStep(id="s9", skill="extract_values", args=told["args"])]  # type: ignore[arg-type]
    kept = without_repeats(again, done, catalog=catalog)
    assert [step.skill for step in kept.steps] == ["read_mail"]


def test_a_failed_call_on_a_finished_step_made_again_is_the_failed_call() -> None:
    """A rewording of pc03 (2026-12-07): the re-plan searched again for the same words and
    extracted from that new search what had just failed on the finished one."""
    catalog = default_catalog()
    finished = ProgramStep.model_validate({"id": "s1", **READ})
    failed = SubtaskSpec(
        id="s2", description="extract", skill="extract_values", args=_extract("s1")["args"]
    )  # type: ignore[arg-type]
    read_again = as_program({"id": "s3", **READ}, {"id": "s4", **_extract("s3")})
    found = repeated_failure(read_again, failed, catalog, [finished])
    assert "s4 repeats the call of s2 that just failed" in found
    assert repeated_failure(read_again, failed, catalog) == ""  # without what finished
    sent = {"skill": "read_mail", "args": {"folder": "Sent", "limit": 1}}
    elsewhere = as_program({"id": "s3", **sent}, {"id": "s4", **_extract("s3")})
    assert repeated_failure(elsewhere, failed, catalog, [finished]) == ""


def test_a_re_plan_of_finished_calls_only_is_a_problem() -> None:
    """A rewording of pc03 (2026-12-07): a re-plan wrote the finished reading, extraction and
    alarm again, nothing else; dropping the repeats left no step, so all three ran again and
    the clock refused the alarm as already there."""
    catalog = default_catalog()
    done = [ProgramStep.model_validate(step) for step in numbered(READ, _extract("s1"))]
    again = as_program({"id": "s4", **READ}, {"id": "s5", **_extract("s4")})
    problem = only_finished_again(again, done, catalog)
    assert "every step repeats one already finished (s4 is s1, s5 is s2)" in problem
    tell = {"skill": "tell_user", "args": {"text": "{s5.subject}"}}
    more = as_program({"id": "s4", **READ}, {"id": "s5", **_extract("s4")}, {"id": "s6", **tell})
    assert only_finished_again(more, done, catalog) == ""
    assert only_finished_again(again, [], catalog) == ""


def test_a_call_that_failed_earlier_in_the_run_is_a_repeated_failure_too() -> None:
    """A rewording of pc23 (twice, 2026-12-07): a date minus a city was refused by the
    calculator, its screen retry gave up, and the next re-plan wrote the refused call again."""
    catalog = default_catalog()
    refused = {"skill": "calculate", "args": {"expression": "2025-02-18 - {s2.city}"}}
    earlier = SubtaskSpec(id="s5", description="calculate", **refused)  # type: ignore[arg-type]
    retry = SubtaskSpec(id="s6", description="On the screen, calculate", app="calculator")
    told = retry.model_copy(update={"failed_before": [earlier]})
    again = as_program({"id": "s9", **refused})
    assert "s9 repeats the call of s5 that failed earlier" in repeated_failure(again, told, catalog)
    assert repeated_failure(again, retry, catalog) == ""
    other = as_program({"id": "s9", "skill": "calculate", "args": {"expression": "{s8}"}})
    assert repeated_failure(other, told, catalog) == ""
