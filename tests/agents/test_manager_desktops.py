"""The Manager across several desktops: the prompt names them with their applications, every
step of the program works on one of them, and a step naming an unknown one is asked again."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents import Manager
from pcagent.agents.manager import PROGRAM_ATTEMPTS
from pcagent.env.apps import app_infos
from pcagent.skills import SkillCatalog

APPS = {info.name: info.description for info in app_infos()}
DESKTOPS = {"workstation": ["calculator", "text_editor"], "laptop": ["writer", "text_editor"]}


def step(id_: str, app: str, environment: str = "") -> dict[str, str]:
    return {
        "id": id_,
        "skill": "gui",
        "app": app,
        "task": f"work in {app}",
        "environment": environment,
    }


def program(*steps: dict[str, str]) -> str:
    return json.dumps({"steps": list(steps)})


def manager(models: ScriptedModels, desktops: dict[str, list[str]] = DESKTOPS) -> Manager:
    """A Manager with no skills, so the screen steps these programs are written in carry no
    doubt (beside skills they would: tests/agents/test_screen_steps.py)."""
    return Manager(
        models.for_role("manager"), apps=APPS, skills=SkillCatalog(()), environments=desktops
    )


def test_the_prompt_names_each_desktop_and_a_good_program_is_kept() -> None:
    models = ScriptedModels(
        manager=[program(step("s1", "calculator", "workstation"), step("s2", "writer", "laptop"))]
    )
    outcome = manager(models).plan("compute on the workstation, write on the laptop")
    assert [s.environment for s in outcome.plan.subtasks] == ["workstation", "laptop"]
    prompt = models.prompts("manager")[0]
    assert "- workstation: calculator, text_editor" in prompt
    assert "- laptop: writer, text_editor" in prompt and '"environment"' in prompt
    schema = json.dumps(models.backends["manager"].requests[0].schema)
    assert '"workstation"' in schema and '"laptop"' in schema


def test_an_unknown_desktop_is_asked_again_and_a_missing_one_is_the_first() -> None:
    wrong = program(step("s1", "calculator", "phone"))
    fixed = program(step("s1", "calculator"), step("s2", "writer", "laptop"))
    models = ScriptedModels(manager=[wrong, fixed])
    outcome = manager(models).plan("do it across both")
    assert not outcome.fallback
    assert "no desktop 'phone'" in models.prompts("manager")[1]
    assert [s.environment for s in outcome.plan.subtasks] == ["workstation", "laptop"]


def test_one_desktop_plans_name_none() -> None:
    models = ScriptedModels(manager=[program(step("s1", "calculator", "anything"))])
    plan = manager(models, {}).plan("compute").plan
    assert [s.environment for s in plan.subtasks] == [""]


def test_the_fallback_works_on_the_first_desktop() -> None:
    wrong = program(step("s1", "calculator", "phone"))
    models = ScriptedModels(manager=[wrong] * PROGRAM_ATTEMPTS)
    outcome = manager(models).plan("compute it")
    assert outcome.fallback
    assert [s.environment for s in outcome.plan.subtasks] == ["workstation"]
