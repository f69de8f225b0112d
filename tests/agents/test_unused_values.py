"""A value found and never used is a doubt: the real skills' declarations, the gold programs of
generated tasks, and scripted replies for the Manager's re-ask."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.agents.program_steps import numbered, program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.program import Program
from pcagent.agents.unused_values import unused_values
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ = {"skill": "read_text_file", "args": {"path": "Documents/trip.txt"}}
FIND = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["city", "day"], "what": "where and when"},
}
FIND_CITY = {**FIND, "args": {**FIND["args"], "names": ["city"], "what": "where"}}


def test_a_search_that_leaves_the_found_value_out_is_doubted() -> None:
    search = {"skill": "web_search", "args": {"query": "weather tomorrow in "}}
    (doubt,) = unused_values(program(READ, FIND, search), CATALOG)
    assert doubt.step == "s2"
    assert "city, day" in doubt.problem and '"{s2.city}"' in doubt.problem


@pytest.mark.parametrize(
    "later",
    [
        {"skill": "web_search", "args": {"query": "weather in {s2.city}"}},
        {"skill": "add_world_clock", "args": {"city": {"from": "s2", "key": "city"}}},
        {"skill": "gui", "app": "browser", "task": "find the weather there", "uses": ["s2"]},
        {"skill": "gui", "app": "browser", "task": "find the weather in {s2.city}"},
    ],
    ids=["slot", "reference", "uses", "slot-in-task"],
)
def test_a_value_any_later_step_uses_is_no_doubt(later: dict[str, Any]) -> None:
    assert unused_values(program(READ, FIND_CITY, later), CATALOG) == []


def test_a_value_used_only_by_an_earlier_step_is_still_unused() -> None:
    early = {"skill": "tell_user", "args": {"text": "{s1}"}}
    doubts = unused_values(program(READ, early, FIND), CATALOG)
    assert [d.step for d in doubts] == ["s3"]


def test_a_read_whose_text_no_later_step_uses_is_doubted() -> None:
    # pc02r2: the memo naming the place read, then the web searched with the instruction's words
    search = {"skill": "web_search", "args": {"query": "travel time to the meeting"}}
    (doubt,) = unused_values(program(READ, search), CATALOG)
    assert doubt.step == "s1" and "read_text_file" in doubt.problem
    assert doubt.skills == ()  # no remembered program shown: the model copied it whole
    assert '{"text": {"from": "s1"}}' in doubt.problem
    # used by a later step, or the program's last step (opening it may be what was asked): none
    assert (
        unused_values(program(READ, FIND_CITY, {**search, "args": {"query": "{s2.city}"}}), CATALOG)
        == []
    )
    # (a search before the read is another matter: its page is there to be read; below)
    assert [d.step for d in unused_values(program(search, READ), CATALOG)] == ["s1"]
    # a mail folder read is the same; a page opened (it is there to be looked at) is not
    mails = {"skill": "read_mail", "args": {"folder": "Inbox"}}
    assert [d.step for d in unused_values(program(mails, search), CATALOG)] == ["s1"]
    page = {"skill": "open_page", "args": {"address": "maps.local"}}
    assert unused_values(program(page, search), CATALOG) == []


def test_a_search_whose_page_no_later_step_reads_is_doubted() -> None:
    """A re-plan searched for two cities' sights, then composed paragraphs from nothing."""
    search = {"skill": "web_search", "args": {"query": "sights in Tokyo and Kyoto"}}
    compose = {"skill": "compose_text", "args": {"request": "two paragraphs on the sights"}}
    (doubt,) = unused_values(program(search, compose), CATALOG)
    assert doubt.step == "s1" and "opens a page with web_search, and no later step reads it" in (
        doubt.problem
    )
    link = {"skill": "follow_link", "args": {"text": "Tokyo sights"}}
    facts = {**compose, "args": {**compose["args"], "facts": "{s2}"}}
    # Followed, read by reference, or worked on in a screen step: the page is used.
    assert unused_values(program(search, link, facts), CATALOG) == []
    screen = {"skill": "gui", "app": "browser", "task": "note the first sight"}
    assert unused_values(program(search, screen), CATALOG) == []
    # A search left for another search is not; a link followed is not judged (its page may be
    # there to be looked at).
    assert [d.step for d in unused_values(program(search, search), CATALOG)] == ["s1"]
    assert unused_values(program(search, link, compose), CATALOG) == []


def test_a_form_whose_page_of_results_no_later_step_reads_is_doubted() -> None:
    """A rewording of pc03 filled the maps form, set the alarm at the meeting's own time and
    never read the trip's length off the page that followed."""
    page = {"skill": "open_page", "args": {"address": "maps.local"}}
    fields = [{"label": "From", "value": "Home"}, {"label": "To", "value": "Museum"}]
    form = {"skill": "fill_form", "args": {"fields": fields}}
    alarm = {"skill": "set_alarm", "args": {"time": "14:00"}}
    (doubt,) = unused_values(program(page, form, alarm), CATALOG)
    assert doubt.step == "s2" and "fill_form, and no later step reads it" in doubt.problem
    minutes = {"skill": "extract_values", "args": {"text": {"from": "s2"}, "names": ["minutes"]}}
    later = {"skill": "set_alarm", "args": {"time": "14:00", "minutes_before": "{s3.minutes}"}}
    assert unused_values(program(page, form, minutes, later), CATALOG) == []
    # A form filled and not sent gives no page of results; one filled last is not judged here.
    unsent = {**form, "args": {**form["args"], "submit": False}}
    assert unused_values(program(page, unsent, alarm), CATALOG) == []
    assert unused_values(program(page, form), CATALOG) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    programs = [t.program for t in generate_tasks(150, 31) if t.program]
    finding = [p for p in programs if any(s.skill == "extract_values" for s in p)]
    assert len(finding) > 30  # the check is tried on programs that find values
    for steps in programs:
        assert unused_values(Program(steps=list(steps)), CATALOG) == [], steps


def test_the_manager_is_re_asked_and_takes_the_program_that_uses_the_value() -> None:
    unused = numbered(READ, FIND, {"skill": "web_search", "args": {"query": "weather in "}})
    both = "weather in {s2.city} on {s2.day}"
    used = numbered(READ, FIND, {"skill": "web_search", "args": {"query": both}})
    models = ScriptedModels(manager=[json.dumps({"steps": s}) for s in (unused, used)])
    apps = {"text_editor": "plain text", "browser": "the web"}
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=CATALOG.for_apps(apps),
        asks_single_steps=False,  # tests/agents/test_focused_steps.py
    )
    outcome = manager.plan("Look up the weather where my trip goes")
    assert not outcome.fallback
    assert outcome.plan.subtasks[2].args == {"query": both}
    # The values are used; only the search left last is doubted once kept (ends_on_reading).
    assert [s.id for s in outcome.plan.subtasks if s.doubt] == ["s3"]
    reask = models.backends["manager"].requests[1].messages[-1].text
    assert "s2 finds city, day, and no later step uses it" in reask


def test_a_value_still_unused_after_the_last_ask_stays_with_its_doubt() -> None:
    unused = numbered(READ, FIND, {"skill": "web_search", "args": {"query": "weather in "}})
    models = ScriptedModels(manager=[json.dumps({"steps": unused})] * PROGRAM_ATTEMPTS)
    apps = {"text_editor": "plain text", "browser": "the web"}
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=CATALOG.for_apps(apps),
        asks_single_steps=False,  # tests/agents/test_focused_steps.py
    )
    outcome = manager.plan("Look up the weather where my trip goes")
    assert not outcome.fallback
    assert "no later step uses it" in outcome.plan.subtasks[1].doubt


def _calculation(expression: str) -> dict[str, Any]:
    return {"skill": "calculate", "args": {"expression": expression}}


SHEET = "Documents/dock_register.xlsx"


def test_a_result_the_later_steps_go_on_without_is_doubted() -> None:
    find = {**FIND, "args": {**FIND["args"], "names": ["minutes"]}}
    add = _calculation("{s2.minutes} + 20")
    sheet = {"skill": "fill_cells", "args": {"rows": [["Jars", 20]], "save_as": SHEET}}
    (doubt,) = unused_values(program(READ, find, add, sheet), CATALOG)
    assert doubt.step == "s3"
    assert "works out a value with calculate" in doubt.problem and '"{s3}"' in doubt.problem
    used = {"skill": "fill_cells", "args": {"rows": [["Jars", {"from": "s3"}]], "save_as": SHEET}}
    assert unused_values(program(READ, find, add, used), CATALOG) == []


def test_a_result_worked_out_last_shows_on_the_calculator_or_is_told() -> None:
    assert unused_values(program(_calculation("12 * 7 + 5")), CATALOG) == []
    later = {"skill": "days_between", "args": {"start": "2025-05-01", "end": "2025-07-04"}}
    told = {"skill": "tell_user", "args": {"text": "{s1} days"}}
    assert unused_values(program(later, told), CATALOG) == []


def test_a_result_worked_out_last_in_no_application_is_doubted() -> None:
    """pc01r2 (2026-11-28): the time an hour before the meeting worked out, no alarm set, and
    the run said "finished"."""
    earlier = {"skill": "shift_time", "args": {"time": "10:15", "direction": "before", "hours": 1}}
    (doubt,) = unused_values(program(earlier), CATALOG)
    assert doubt.step == "s1" and "works out a value with shift_time last" in doubt.problem
    assert "tell_user" in doubt.problem and '{"from": "s1"}' in doubt.problem
    alarm = {"skill": "set_alarm", "args": {"time": {"from": "s1"}}}
    assert unused_values(program(earlier, alarm), CATALOG) == []


def test_rows_looked_up_that_no_step_uses_are_doubted_last_or_not() -> None:
    """A rewording of pc03 (2026-12-05): the alarm set at the meeting's time, the trip's
    length looked up last and used by nothing, and the run said "finished"."""
    alarm = {"skill": "set_alarm", "args": {"time": "14:00"}}
    look_up = {
        "skill": "web_search_each",
        "args": {"things": ["Brooklyn Museum"], "search": "travel time", "value": "travel_time"},
    }
    (doubt,) = unused_values(program(alarm, look_up), CATALOG)
    assert doubt.step == "s2" and "last, and nothing uses them" in doubt.problem
    assert '{"from": "s2"}' in doubt.problem and "tell_user" in doubt.problem
    (doubt,) = unused_values(program(look_up, alarm), CATALOG)
    assert doubt.step == "s1" and "no later step uses them" in doubt.problem
    told = {"skill": "tell_user", "args": {"text": "{s1}"}}
    assert unused_values(program(look_up, told), CATALOG) == []


def test_a_name_found_beside_others_that_no_later_step_uses_is_doubted() -> None:
    """pc03 (2026-11-29): the meeting's time and place found, the alarm set from the time,
    and the map's "To" filled with "Meeting with John" instead of the place."""
    both = {"skill": "extract_values", "args": {**FIND["args"], "names": ["time", "place"]}}
    route = {"From": "Home", "To": "Meeting with John"}
    form = {
        "skill": "fill_form",
        "args": {"fields": [{"label": k, "value": v} for k, v in route.items()]},
    }
    alarm = {"skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}

    def found(*steps: dict[str, Any]) -> list[str]:
        # The form's page left unread before the alarm is a doubt of its own (s3).
        return [d.problem for d in unused_values(program(*steps), CATALOG) if d.step == "s2"]

    (problem,) = found(READ, both, form, alarm)
    assert problem.startswith("s2 finds place, and no later step")
    # Used by name, in a text's slot, as a whole, or by a screen step: no doubt.
    to_place = {"label": "To", "value": "{s2.place}"}
    placed = {"skill": "fill_form", "args": {"fields": [to_place]}}
    assert found(READ, both, placed, alarm) == []
    whole = {"skill": "tell_user", "args": {"text": {"from": "s2"}}}
    assert found(READ, both, whole) == []
    screen = {"skill": "gui", "app": "browser", "task": "Look up the way to {s2.place}"}
    assert found(READ, both, screen, alarm) == []


def test_one_look_up_per_item_with_only_the_last_used_asks_for_the_items_together() -> None:
    # gen-9002-14: each film looked up, then the last rating told instead of the lowest.
    def look_up(place: int) -> list[dict[str, Any]]:
        search = {"skill": "web_search", "args": {"query": f"{{s2.films[{place}]}} rating"}}
        found = {
            "skill": "extract_values",
            "args": {"text": {"from": f"s{3 + 2 * place}"}, "names": ["rating"], "what": "it"},
        }
        return [search, found]

    films = {**FIND, "args": {**FIND["args"], "names": ["films"], "what": "the films"}}
    told = {"skill": "tell_user", "args": {"text": "{s8.rating}"}}
    steps = program(READ, films, *look_up(0), *look_up(1), *look_up(2), told)
    doubts = unused_values(steps, CATALOG)
    assert [d.step for d in doubts] == ["s4", "s6"]
    assert "as s6, s8 also do (one look-up per item)" in doubts[0].problem
    assert "pick_extreme over the items" in doubts[0].problem
    assert doubts[0].skills == ("pick_extreme", "sort_items")
    # Every item's value used together: no doubt.
    picked = {
        "skill": "pick_extreme",
        "args": {
            "items": [
                {"label": f"{{s2.films[{n}]}}", "value": {"from": f"s{4 + 2 * n}", "key": "rating"}}
                for n in range(3)
            ],
            "which": "smallest",
        },
    }
    tell = {"skill": "tell_user", "args": {"text": "{s9.label}"}}
    assert (
        unused_values(
            program(READ, films, *look_up(0), *look_up(1), *look_up(2), picked, tell), CATALOG
        )
        == []
    )
