"""Where the first program has doubts, the Manager's second ask shows memory's nearest program
alone, to be changed into this instruction's; its program is judged like any other."""

from __future__ import annotations

import json

from tests.agents.scripted import RecordingMemory, ScriptedModels

from pcagent.agents.manager import Manager
from pcagent.agents.manager_memory import Example
from pcagent.agents.prompting import prompt_part
from pcagent.skills import default_catalog

SAID = "Work out 17 * 23 with the calculator and tell me the result."
APPS = {"calculator": "calculator", "text_editor": "plain text files"}
NEAREST = Example(
    "Work out 12 * 4 on the calculator and tell me what it comes to.",
    (
        {"id": "s1", "skill": "calculate", "args": {"expression": "12 * 4"}},
        {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1"}}},
    ),
)
OTHER = Example(
    "Add 5 and 6 on the calculator.",
    ({"id": "s1", "skill": "calculate", "args": {"expression": "5 + 6"}},),
)
MADE_UP = {"steps": [{"id": "s1", "skill": "calculate", "args": {"expression": "17 * 99"}},
                     {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1"}}}]}  # fmt: skip
RIGHT = {"steps": [{"id": "s1", "skill": "calculate", "args": {"expression": "17 * 23"}},
                   {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1"}}}]}  # fmt: skip


def _manager(models: ScriptedModels, memory: RecordingMemory, **options: object) -> Manager:
    catalog = default_catalog().for_apps(APPS)
    return Manager(models.for_role("manager"), apps=APPS, skills=catalog, memory=memory, **options)


def test_the_second_ask_shows_the_nearest_program_alone_to_be_changed() -> None:
    models = ScriptedModels(manager=[json.dumps(MADE_UP), json.dumps(RIGHT)])
    memory = RecordingMemory(first=[NEAREST, OTHER])
    outcome = _manager(models, memory).plan(SAID)
    calculate = outcome.plan.subtasks[0]
    assert calculate.skill == "calculate" and not calculate.doubt
    assert '"17 * 23"' in calculate.description
    first, second = models.backends["manager"].requests
    assert "Add 5 and 6" in first.messages[-1].text  # the first ask shows every program
    # a new conversation: the system prompt and one user message, the nearest program alone
    assert [m.role for m in second.messages] == ["system", "user"]
    asked = second.messages[-1].text
    assert asked.startswith("A similar earlier task that succeeded, and its program:\n")
    assert NEAREST.shown() in asked and "Add 5 and 6" not in asked
    assert "The task now:\nInstruction: Work out 17 * 23" in asked
    assert asked.endswith(prompt_part("manager_adapt_closing"))
    assert second.messages[0].text == first.messages[0].text
    assert [(a.instruction, a.k) for a in memory.asks] == [(SAID, 3), (SAID, 1)]


def test_without_memory_or_with_it_off_the_second_ask_is_the_re_ask() -> None:
    for memory, options in (
        (RecordingMemory(), {}),
        (RecordingMemory(first=[NEAREST]), {"adapts_nearest": False}),
    ):
        models = ScriptedModels(manager=[json.dumps(MADE_UP), json.dumps(RIGHT)])
        _manager(models, memory, **options).plan(SAID)
        second = models.backends["manager"].requests[1]
        assert second.messages[-1].text.startswith("That program is unusable:")
        assert second.messages[-2].role == "assistant" and "17 * 99" in second.messages[-2].text
