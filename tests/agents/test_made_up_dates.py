"""Made-up dates, where as many readings go unused, become the dates extracted from them (the
program is the 1.5B Manager's, as recorded on pc05, 2026-12-03)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program, gold_programs, planned_alone
from tests.agents.scripted import ScriptedModels

from pcagent.agents.made_up_dates import with_dates_of_unused_readings
from pcagent.agents.program import check_program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "Search the web for the dates of International Labour Day and of American Independence "
    "Day in 2025, and compute the number of days between the two dates with the calculator."
)
LABOUR = {"id": "s1", "skill": "web_search", "args": {"query": "International Labour Day 2025"}}
JULY = {"id": "s2", "skill": "web_search", "args": {"query": "American Independence Day 2025"}}
DAYS = {"id": "s3", "skill": "days_between", "args": {"start": "2025-04-15", "end": "2025-07-04"}}
SUM = {"id": "s4", "skill": "calculate", "args": {"expression": "{s3}"}}


def test_each_made_up_date_takes_the_date_of_its_unread_page_in_order() -> None:
    mended = with_dates_of_unused_readings(as_program(LABOUR, JULY, DAYS, SUM), CATALOG, [SAID])
    assert [step.id for step in mended.steps] == ["s1", "s5", "s2", "s6", "s3", "s4"]
    assert mended.steps[1].args == {
        "text": {"from": "s1"},
        "names": ["date"],
        "what": "the date of International Labour Day 2025",
    }
    assert mended.steps[3].args["text"] == {"from": "s2"}
    assert mended.steps[4].args == {
        "start": {"from": "s5", "key": "date"},
        "end": {"from": "s6", "key": "date"},
    }
    assert mended.steps[5] == as_program(SUM).steps[0]
    check_program(mended, CATALOG, apps=["browser", "calculator"])  # raises on a problem


def test_what_could_mean_more_than_one_thing_is_left_as_written() -> None:
    cases = [
        as_program(LABOUR, dict(DAYS, id="s2"), dict(SUM, id="s3")),  # one page, two dates
        as_program(LABOUR, JULY, DAYS),
    ]
    program = cases[0]
    assert with_dates_of_unused_readings(program, CATALOG, [SAID]) == program
    # A date the instruction writes is no one's to replace; a page already read is used.
    given = [SAID + " Count from 2025-04-15."]
    assert with_dates_of_unused_readings(cases[1], CATALOG, given) == cases[1]
    found = {
        "id": "s3",
        "skill": "extract_values",
        "args": {"text": {"from": "s2"}, "names": ["date"], "what": "the date"},
    }
    days = dict(DAYS, id="s4", args={"start": "2025-04-15", "end": {"from": "s3", "key": "date"}})
    # One page left unread and one date made up: that page's date.
    one = with_dates_of_unused_readings(as_program(LABOUR, JULY, found, days), CATALOG, [SAID])
    assert [step.id for step in one.steps] == ["s1", "s5", "s2", "s3", "s4"]
    assert one.steps[-1].args["start"] == {"from": "s5", "key": "date"}
    # Both pages read: nothing unread to take a date from.
    both = dict(found, id="s5", args={**found["args"], "text": {"from": "s1"}})
    later = dict(days, id="s6", args={**days["args"], "start": "2025-04-15"})
    read = as_program(LABOUR, JULY, found, both, later)
    assert with_dates_of_unused_readings(read, CATALOG, [SAID]) == read
    # A date before the pages cannot be theirs.
    early = as_program(dict(DAYS, id="s1"), dict(LABOUR, id="s2"), dict(JULY, id="s3"))
    assert with_dates_of_unused_readings(early, CATALOG, [SAID]) == early


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for task, gold in gold_programs():
        checked += 1
        assert with_dates_of_unused_readings(gold, CATALOG, [task.instruction]) == gold
    assert checked >= 300


def test_the_manager_keeps_the_mended_program_without_asking_again() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [LABOUR, JULY, DAYS, SUM]})])
    outcome = planned_alone(
        models.for_role("manager"), {"browser": "web", "calculator": "sums"}, SAID
    )
    skills = [subtask.skill for subtask in outcome.plan.subtasks]
    assert skills == [
        "web_search",
        "extract_values",
        "web_search",
        "extract_values",
        "days_between",
        "calculate",
    ]
    assert not any(subtask.doubt for subtask in outcome.plan.subtasks)
    assert len(models.backends["manager"].requests) == 1
