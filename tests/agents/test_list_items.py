"""List items counted for Progress, and the values it keeps."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents.progress import ProgressAgent, ProgressInput
from pcagent.skills.lists import counted_items, uncounted

AGENDA = """Plan for Friday

Early
07:45  Swim at the lido
09:05  Dentist
12:20  Lunch with Omar

Late
18:00  Choir practice"""


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


def test_progress_sees_lists_counted_and_keeps_the_value_bare() -> None:
    reply = _reply({"the_event": "[2nd] 09:05  Dentist"})
    models = ScriptedModels(progress=[reply])
    agent = ProgressAgent(models.for_role("progress"))
    report = agent.update(_reading("Find the second event of the early part", "the_event", AGENDA))
    assert report.outputs == {"the_event": "09:05  Dentist"}
    assert "[2nd] 09:05  Dentist" in models.prompts("progress")[0]
