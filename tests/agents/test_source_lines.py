"""A referenced value its parameter refuses is read again from its source line (the real
skills' parameter models decide what is accepted)."""

from __future__ import annotations

from pcagent.agents.filled_values import resolve
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.source_lines import widened_to_lines
from pcagent.skills.catalog import default_catalog

MEMO = "Morning\n08:30  Breakfast\n10:15  Call with the agency\n\nAfternoon\n14:00  Meeting\n"


def _steps() -> list[SubtaskSpec]:
    return [
        SubtaskSpec(id="s1", description="read", skill="read_text_file", args={"path": "m.txt"}),
        SubtaskSpec(
            id="s2",
            description="extract",
            skill="extract_values",
            args={"text": {"from": "s1"}, "names": ["event"], "what": "the second event"},
        ),
    ]


def _widen(args: dict, values: dict) -> tuple[dict, list[str]]:
    parameters = default_catalog().get("set_alarm").parameters
    return widened_to_lines(args, resolve(args, values), parameters, _steps(), values)


def test_a_title_given_for_a_time_is_read_from_its_line() -> None:
    values = {"s1": MEMO, "s2": {"event": "Call with the agency"}}
    args = {"time": {"from": "s2", "key": "event"}, "hours_before": 1}
    widened, notes = _widen(args, values)
    assert widened["time"] == "10:15  Call with the agency"
    assert widened["hours_before"] == 1
    assert notes and "Call with the agency" in notes[0]
    # The skill's own parameter model takes the one time out of the line.
    parameters = default_catalog().get("set_alarm").parameters
    assert parameters.model_validate(widened).time == "10:15"


def test_an_accepted_value_and_a_literal_are_left_alone() -> None:
    values = {"s1": MEMO, "s2": {"event": "10:15"}}
    assert _widen({"time": {"from": "s2", "key": "event"}}, values) == ({"time": "10:15"}, [])
    literal = {"time": "Call with the agency"}
    assert _widen(literal, values) == (literal, [])


def test_no_line_that_the_parameter_accepts_changes_nothing() -> None:
    values = {"s1": MEMO, "s2": {"event": "Afternoon"}}  # its line holds no time
    args = {"time": {"from": "s2", "key": "event"}}
    assert _widen(args, values) == ({"time": "Afternoon"}, [])
    values = {"s1": MEMO, "s2": {"event": "Dinner"}}  # not in the text at all
    assert _widen(args, values) == ({"time": "Dinner"}, [])


def test_the_value_is_found_ignoring_case_and_only_on_one_line() -> None:
    values = {"s1": MEMO, "s2": {"event": "call WITH the agency"}}
    args = {"time": {"from": "s2", "key": "event"}}
    assert _widen(args, values)[0] == {"time": "10:15  Call with the agency"}
    twice = {"s1": MEMO + "12:00  Call with the agency\n", "s2": {"event": "Call with the agency"}}
    assert _widen(args, twice) == ({"time": "Call with the agency"}, [])
