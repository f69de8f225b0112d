"""Times relative to a found one, worked out by the run; list items counted for a subtask that
picks one by its place."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents.list_items import counted_items, picks_by_place, uncounted
from pcagent.agents.progress import ProgressAgent, ProgressInput
from pcagent.agents.time_offsets import offset_times

AGENDA = """Plan for Friday

Early
07:45  Swim at the lido
09:05  Dentist
12:20  Lunch with Omar

Late
18:00  Choir practice"""


def test_a_time_before_or_after_a_found_one() -> None:
    found = {"the_event": "09:05  Dentist", "agenda": AGENDA}
    assert offset_times("Set an alarm one hour before that event", found) == {
        "one_hour_before": "08:05 (one hour before 09:05)"
    }
    assert offset_times("Remind me 20 minutes after it", found) == {
        "20_minutes_after": "09:25 (20 minutes after 09:05)"
    }
    # a time the subtask gives itself comes first; midnight wraps
    assert offset_times("an alarm half an hour later than 23:50", found) == {
        "half_an_hour_later": "00:20 (half an hour later than 23:50)"
    }


def test_no_offset_asked_or_no_single_time_known_gives_nothing() -> None:
    assert offset_times("Set an alarm at that time", {"the_event": "09:05"}) == {}
    assert offset_times("an hour before the first event", {"agenda": AGENDA}) == {}


def test_list_items_are_counted_under_each_heading() -> None:
    counted = counted_items(AGENDA).splitlines()
    assert counted[3:6] == [
        "[1st] 07:45  Swim at the lido",
        "[2nd] 09:05  Dentist",
        "[3rd] 12:20  Lunch with Omar",
    ]
    assert counted[8] == "[1st] 18:00  Choir practice"  # a new heading, a new count
    assert counted[0] == "Plan for Friday" and counted[2] == "Early"
    assert uncounted("[2nd] 09:05  Dentist") == "09:05  Dentist"
    assert picks_by_place("find the second event") and picks_by_place("the 3rd row")
    assert not picks_by_place("find the dentist's time")


def _reading(subtask: str, output: str, read: str) -> ProgressInput:
    """Progress's input right after a step that read ``read``."""
    return ProgressInput(
        subtask=subtask,
        outputs_needed=[output],
        previous="",
        action="editor_open(path='plan.txt')",
        verdict="success",
        answers={},
        read=read,
    )


def _reply(outputs: dict[str, str]) -> str:
    return json.dumps({"progress": "found it", "completed": True, "outputs": outputs})


def test_progress_sees_the_count_only_where_a_place_is_asked_and_keeps_the_value_bare() -> None:
    reply = _reply({"the_event": "[2nd] 09:05  Dentist"})
    models = ScriptedModels(progress=[reply, reply])
    agent = ProgressAgent(models.for_role("progress"))
    report = agent.update(_reading("Find the second event of the early part", "the_event", AGENDA))
    assert report.outputs == {"the_event": "09:05  Dentist"}
    assert "[2nd] 09:05  Dentist" in models.prompts("progress")[0]
    agent.update(_reading("Find the dentist's time", "the_event", AGENDA))
    assert "[2nd]" not in models.prompts("progress")[1]


def test_progress_completes_a_value_that_gives_one_of_the_listed_things() -> None:
    reading = "Results\nAlder Inc (ALD) closed at $4.10.\nBirch Co (BRC) closed at $9.99."
    models = ScriptedModels(progress=[_reply({"prices": "Alder Inc (ALD) closed at $4.10."})])
    asked = "Search the web for the prices of Alder Inc and Birch Co"
    report = ProgressAgent(models.for_role("progress")).update(_reading(asked, "prices", reading))
    assert report.outputs == {
        "prices": "Alder Inc (ALD) closed at $4.10.; Birch Co (BRC) closed at $9.99."
    }


def test_when_to_leave_to_arrive_in_time() -> None:
    found = {
        "meeting": "15:10  Dentist at the Elm Street clinic",
        "journey": "By bus from home to the Elm Street clinic takes about 1 h 25 min.",
        "s2_read": "Elm Street clinic by bus 1 h 25 min\nby taxi 20 min",
    }
    asked = "Set an alarm so that I leave home in time to get to the dentist"
    assert offset_times(asked, found) == {"leave_by": "13:45 (15:10 less 1 h 25 min)"}
    # two durations found, or no time: nothing worked out
    assert offset_times(asked, found | {"other": "a walk of 40 min"}) == {}
    assert offset_times(asked, {"journey": found["journey"]}) == {}
    assert offset_times("Set an alarm for the dentist", found) == {}
