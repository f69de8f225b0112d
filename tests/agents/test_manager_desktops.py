"""The Manager across several desktops: the prompt names them with their applications, every
subtask of the plan ends up on one of them, and a plan naming none (or an unknown one) is asked
again once, then repaired from the subtask's words and applications."""

from __future__ import annotations

from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents import Manager
from pcagent.env.apps import app_infos

APPS = {info.name: info.description for info in app_infos()}
DESKTOPS = {"workstation": ["calculator", "text_editor"], "laptop": ["writer", "text_editor"]}


def subtask(id_: str, app: str, environment: str = "", text: str = "") -> dict[str, str]:
    return {
        "id": id_,
        "description": text or f"work in {app}",
        "app": app,
        "environment": environment,
    }


def manager(models: ScriptedModels) -> Manager:
    return Manager(models.for_role("manager"), apps=APPS, environments=DESKTOPS)


def test_the_prompt_names_each_desktop_and_a_good_plan_is_kept() -> None:
    models = ScriptedModels(
        manager=[
            reply(
                subtasks=[
                    subtask("s1", "calculator", "workstation"),
                    subtask("s2", "writer", "laptop"),
                ]
            )
        ]
    )
    outcome = manager(models).plan("compute on the workstation, write on the laptop")
    assert [s.environment for s in outcome.plan.subtasks] == ["workstation", "laptop"]
    prompt = models.prompts("manager")[0]
    assert "- workstation: calculator, text_editor" in prompt
    assert "- laptop: writer, text_editor" in prompt and '"environment"' in prompt


def test_a_plan_without_desktops_is_asked_again_then_repaired() -> None:
    missing = reply(
        subtasks=[
            subtask("s1", "calculator"),  # only the workstation has it
            subtask("s2", "text_editor", text="save it on the laptop in notes.txt"),  # named
            subtask("s3", "text_editor", "phone"),  # unknown, nothing else tells: the first
        ]
    )
    models = ScriptedModels(manager=[missing, missing])
    outcome = manager(models).plan("do it across both")
    assert not outcome.fallback
    assert [s.environment for s in outcome.plan.subtasks] == [
        "workstation",
        "laptop",
        "workstation",
    ]
    again = models.prompts("manager")[1]
    assert "name no desktop this task has" in again and "s1, s2, s3" in again


def test_same_application_on_two_desktops_stays_two_visits() -> None:
    models = ScriptedModels(
        manager=[
            reply(
                subtasks=[
                    subtask("s1", "text_editor", "workstation"),
                    subtask("s2", "text_editor", "laptop"),
                ]
            )
        ]
    )
    plan = manager(models).plan("copy the note from one editor to the other").plan
    assert [(s.id, s.environment) for s in plan.subtasks] == [
        ("s1", "workstation"),
        ("s2", "laptop"),
    ]


def test_one_desktop_plans_name_none() -> None:
    models = ScriptedModels(
        manager=[reply(subtasks=[subtask("s1", "writer", "laptop"), subtask("s2", "calculator")])]
    )
    plan = Manager(models.for_role("manager"), apps=APPS).plan("write, then compute").plan
    assert [s.environment for s in plan.subtasks] == ["", ""]
    assert '"environment"' not in models.prompts("manager")[0]


def test_the_fallback_plan_works_on_the_desktop_the_instruction_names() -> None:
    models = ScriptedModels(manager=["not a plan", "still not a plan"])
    outcome = manager(models).plan("On the laptop, write a letter in the word processor")
    assert outcome.fallback
    (only,) = outcome.plan.subtasks
    assert only.environment == "laptop"
    models = ScriptedModels(manager=["not a plan", "still not a plan"])
    (only,) = manager(models).plan("compute 2 + 2 in the calculator").plan.subtasks
    assert only.environment == "workstation"  # the only desktop with the calculator
