"""A time moved by two steps is a doubt: the real skills' declarations (which parameters move a
time), the program pc01r1's planner wrote, the ways of moving it once, and the gold programs of
generated tasks."""

from __future__ import annotations

from typing import Any

import pytest
from tests.agents.program_steps import program

from pcagent.agents.doubts import Evidence
from pcagent.agents.moved_twice import moved_twice
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ = {"skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
FIND = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["event"], "what": "the second event"},
}
SHIFT = {
    "skill": "shift_time",
    "args": {"time": {"from": "s2", "key": "event"}, "direction": "before", "hours": 1},
}


def test_an_alarm_hours_before_a_time_already_moved_is_doubted() -> None:
    alarm = {"skill": "set_alarm", "args": {"time": {"from": "s3"}, "hours_before": 1}}
    (doubt,) = moved_twice(program(READ, FIND, SHIFT, alarm), CATALOG)
    assert doubt.step == "s4"
    assert "s3" in doubt.problem and "hours_before" in doubt.problem
    assert "not both" in doubt.problem


def test_the_same_doubt_comes_from_a_slot_and_from_a_shift_of_a_shift() -> None:
    alarm = {"skill": "set_alarm", "args": {"time": "{s3}", "minutes_before": 30}}
    assert [d.step for d in moved_twice(program(READ, FIND, SHIFT, alarm), CATALOG)] == ["s4"]
    again = {
        "skill": "shift_time",
        "args": {"time": {"from": "s3"}, "direction": "after", "minutes": 15},
    }
    assert [d.step for d in moved_twice(program(READ, FIND, SHIFT, again), CATALOG)] == ["s4"]


@pytest.mark.parametrize(
    "steps",
    [
        # Moved once, by the alarm.
        [
            READ,
            FIND,
            {
                "skill": "set_alarm",
                "args": {"time": {"from": "s2", "key": "event"}, "hours_before": 1},
            },
        ],
        # Moved once, by shift_time; the alarm rings at the result.
        [READ, FIND, SHIFT, {"skill": "set_alarm", "args": {"time": {"from": "s3"}}}],
        # Offsets of zero move nothing.
        [
            READ,
            FIND,
            SHIFT,
            {"skill": "set_alarm", "args": {"time": {"from": "s3"}, "hours_before": 0}},
        ],
    ],
    ids=["alarm-offset", "shift-then-alarm", "zero-offset"],
)
def test_a_time_moved_once_is_no_doubt(steps: list[dict[str, Any]]) -> None:
    assert moved_twice(program(*steps), CATALOG) == []


def test_the_evidence_holds_the_doubt() -> None:
    alarm = {"skill": "set_alarm", "args": {"time": {"from": "s3"}, "hours_before": 1}}
    doubts = Evidence(given=["an alarm one hour before the second event"]).doubts(
        program(READ, FIND, SHIFT, alarm), CATALOG
    )
    assert any("already moved" in d.problem for d in doubts)


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    programs = [t.program for t in generate_tasks(150, 31) if t.program]
    assert any(s.skill == "set_alarm" for p in programs for s in p)
    for steps in programs:
        assert moved_twice(Program(steps=list(steps)), CATALOG) == [], steps
