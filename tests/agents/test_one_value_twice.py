"""One value given to two parameters of one step is doubted (pc03 at 357032e: the travel time
given to both the alarm's time and its minutes before)."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs

from pcagent.agents.doubts import Evidence
from pcagent.agents.one_value_twice import one_value_twice
from pcagent.skills import default_catalog

CATALOG = default_catalog()
FOUND = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": "memo", "names": ["time", "place"], "what": "the meeting's time and place"},
}
MAP = {
    "id": "s4",
    "skill": "fill_form",
    "args": {"fields": [{"label": "To", "value": {"from": "s2", "key": "place"}}]},
}
TRAVEL = {
    "id": "s5",
    "skill": "extract_values",
    "args": {"text": "page", "names": ["time"], "what": "the travel time in minutes"},
}
TWICE = {
    "id": "s6",
    "skill": "set_alarm",
    "args": {
        "time": {"from": "s5", "key": "time"},
        "minutes_before": {"from": "s5", "key": "time"},
    },
}


def test_the_travel_time_given_as_the_alarm_s_time_and_its_minutes_before_is_doubted() -> None:
    (doubt,) = one_value_twice(as_program(FOUND, MAP, TRAVEL, TWICE), CATALOG)
    assert doubt.step == "s6" and doubt.own
    assert "{s5.time} to time and minutes_before" in doubt.problem
    # The value found and used by no step is named: the meeting's time; its place is used.
    assert doubt.problem.endswith("found and used by no step: {s2.time}")
    evidence = Evidence(given=["memo"])
    assert any(
        d.problem == doubt.problem
        for d in evidence.doubts(as_program(FOUND, MAP, TRAVEL, TWICE), CATALOG)
    )


def test_each_parameter_with_its_own_value_or_one_value_in_two_texts_is_left() -> None:
    right = TWICE | {
        "args": {
            "time": {"from": "s2", "key": "time"},
            "minutes_before": {"from": "s5", "key": "time"},
        }
    }
    assert one_value_twice(as_program(FOUND, TRAVEL, right), CATALOG) == []
    texts = {
        "id": "s6",
        "skill": "send_mail",
        "args": {"to": "ann@example.test", "subject": "{s2.place}", "body": "At {s2.place}."},
    }
    assert one_value_twice(as_program(FOUND, texts), CATALOG) == []


def test_no_gold_program_gives_one_value_to_two_parameters() -> None:
    programs = list(gold_programs())
    assert len(programs) >= 300
    for task, gold in programs:
        assert one_value_twice(gold, CATALOG) == [], task.id
