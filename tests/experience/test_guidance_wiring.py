"""Where experience reaches the agents (orchestration, with scripted models; the retrieval
itself is tested on a real graph with the real encoder in test_page_graph.py): Decision's prompt
gets the lines, the Manager's prompt gets the programs of similar tasks, and the no_experience
ablation silences both."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels, decision

from pcagent.agents import DecisionAgent, Manager
from pcagent.agents.decision import DecisionInput
from pcagent.agents.manager_memory import Example
from pcagent.agents.roles import default_pool
from pcagent.config import RunConfig
from pcagent.env.apps import app_infos
from pcagent.runtime.loop.parts import NoExperience, build_parts
from pcagent.skills import default_catalog

APPS = {info.name: info.description for info in app_infos()}
PROGRAM = json.dumps(
    {"steps": [{"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/a.txt"}}]}
)
EXAMPLE = Example(
    "Set an alarm at 06:45 in the clock app",
    ({"id": "s1", "skill": "set_alarm", "args": {"time": "06:45"}},),
)
REMEMBERED = (
    "Instruction: Set an alarm at 06:45 in the clock app\n"
    'Program: {"steps":[{"id":"s1","skill":"set_alarm","args":{"time":"06:45"}}]}'
)


class Remembered:
    """An experience source that always has the same thing to say, and counts questions."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def guidance(self, app: str, window: str, listing: str, subtask: str) -> str:
        self.asked.append(subtask)
        return '- click tab "Alarms" → clock: Clocks (achieved: Add an alarm at 6:45)'

    def similar_programs(self, instruction: str, *_: object, **__: object) -> list[Example]:
        self.asked.append(instruction)
        return [EXAMPLE]


def test_decision_prompt_carries_the_graph_lines_only_when_there_are_some() -> None:
    role = default_pool(APPS).get("calculator_clock")
    models = ScriptedModels(decision=[decision({"kind": "wait", "seconds": 1})] * 2)
    agent = DecisionAgent(models.for_role("decision"), role=role)
    seen = DecisionInput(subtask="Add an alarm at 7:00", listing='1 tab "Alarms" @200,40',
                         screen=(1280, 800))  # fmt: skip
    agent.decide(seen)
    agent.decide(
        DecisionInput(**{**seen.__dict__, "experience": Remembered().guidance("", "", "", "")})
    )
    without, with_lines = models.prompts("decision")
    assert "Earlier runs" not in without
    assert "Earlier runs, from a page like this one" in with_lines
    assert 'click tab "Alarms" → clock: Clocks' in with_lines


def test_manager_prompt_carries_programs_of_similar_instructions() -> None:
    memory = Remembered()
    models = ScriptedModels(manager=[PROGRAM, PROGRAM])
    skills = default_catalog().for_apps(APPS)
    manager = Manager(
        models.for_role("manager"), apps=APPS, skills=skills, memory=memory.similar_programs
    )
    manager.plan("Read the time in a.txt and set an alarm at it")
    Manager(models.for_role("manager"), apps=APPS, skills=skills).plan("Read a.txt")
    remembered, plain = models.prompts("manager")
    assert REMEMBERED in remembered
    assert "similar earlier tasks" in remembered and "similar earlier tasks" not in plain
    assert memory.asked == ["Read the time in a.txt and set an alarm at it"]


def test_the_ablation_switches_experience_off_and_none_given_means_none() -> None:
    memory = Remembered()
    common = dict(environment=object(), models=ScriptedModels(), sink=lambda *_: None,
                  run=RunConfig(), pool=default_pool(APPS), apps=APPS, generalist="generalist")  # fmt: skip
    assert build_parts("none", experience=memory, **common).experience is memory  # type: ignore[arg-type]
    off = build_parts("no_experience", experience=memory, **common)  # type: ignore[arg-type]
    assert isinstance(off.experience, NoExperience)
    assert isinstance(build_parts("none", **common).experience, NoExperience)  # type: ignore[arg-type]
    assert off.planner.experience.similar_programs("x") == []  # type: ignore[attr-defined]
