"""A screen step where skills do the work is a doubt of its own: the Manager is asked for a
skill call first, and a program without the screen step is kept over one with it."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program, gold_programs
from tests.agents.scripted import ScriptedModels

from pcagent.agents.doubts import Evidence
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.plan import Doubt
from pcagent.agents.screen_steps import screen_steps_beside_skills, skills_instead
from pcagent.skills import SkillCatalog, default_catalog

CATALOG = default_catalog()
APPS = {"calculator": "arithmetic", "text_editor": "plain text files"}
SAID = (
    "How many days are there from 18 February 2025 to 3 March 2025? Count them on the calculator."
)


def _screen(step_id: str = "s2", app: str = "calculator", task: str = "calculate") -> dict:
    return {"id": step_id, "skill": "gui", "app": app, "task": task, "uses": ["s1"]}


DAYS = {"id": "s1", "skill": "days_between", "args": {"start": "2025-02-18", "end": "2025-03-03"}}
CALC = {"id": "s2", "skill": "calculate", "args": {"expression": "{s1}"}}


def test_a_screen_step_in_an_application_with_skills_is_doubted_naming_them() -> None:
    """pc23r2 at 0e716b8 (2026-12-07): "calculate [s6: {s6}]" as a screen step."""
    (doubt,) = screen_steps_beside_skills(as_program(DAYS, _screen()), CATALOG)
    assert doubt.step == "s2" and doubt.own and doubt.asks_only
    assert doubt.skills == tuple(s.name for s in CATALOG if "calculator" in s.apps)
    assert "calculate" in doubt.skills and "type_in_editor" not in doubt.skills
    assert "s2 is a screen step" in doubt.problem and "in the calculator" in doubt.problem


def test_a_screen_step_in_no_application_names_the_skills_of_none() -> None:
    """pc06r2 (2026-12-07): "name the one with the shortest flight" after a sort."""
    step = {"id": "s3", "skill": "gui", "task": "name the one with the shortest flight"}
    (doubt,) = screen_steps_beside_skills(as_program(step), CATALOG)
    assert "tell_user" in doubt.skills and "pick_extreme" in doubt.skills
    assert all(not CATALOG.get(name).apps for name in doubt.skills)
    assert "without an application" in doubt.problem


def test_no_doubt_without_skills_there_nor_on_skill_calls() -> None:
    assert screen_steps_beside_skills(as_program(DAYS, CALC), CATALOG) == []
    assert screen_steps_beside_skills(as_program(_screen()), SkillCatalog(())) == []
    # an application no skill works in: a screen step is the only way there
    no_calculator = SkillCatalog(s for s in CATALOG if "calculator" not in s.apps)
    assert screen_steps_beside_skills(as_program(_screen()), no_calculator) == []


def test_the_evidence_holds_the_doubt() -> None:
    doubts = Evidence([SAID]).doubts(as_program(DAYS, _screen()), CATALOG)
    assert any("s2 is a screen step" in d.problem for d in doubts)


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    checked = 0
    for _, gold in gold_programs():
        checked += 1
        assert screen_steps_beside_skills(gold, CATALOG) == []
    assert checked >= 300


def _reply(*steps: dict) -> str:
    return json.dumps({"steps": list(steps)})


def test_the_manager_keeps_the_skill_call_written_when_asked_again() -> None:
    models = ScriptedModels(manager=[_reply(DAYS, _screen()), _reply(DAYS, CALC)])
    catalog = CATALOG.for_apps(APPS)
    manager = Manager(models.for_role("manager"), apps=APPS, skills=catalog)
    outcome = manager.plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["days_between", "calculate"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    asked_again = models.prompts("manager")[1]
    assert "s2 is a screen step" in asked_again


def test_a_screen_step_written_at_every_ask_runs_as_written() -> None:
    """Kept where nothing better comes: the doubt only asked again (``asks_only``), so the step
    carries none, and what it does is judged by its effect as before."""
    models = ScriptedModels(manager=[_reply(DAYS, _screen())] * PROGRAM_ATTEMPTS)
    catalog = CATALOG.for_apps(APPS)
    manager = Manager(
        models.for_role("manager"), apps=APPS, skills=catalog, asks_single_steps=False
    )
    outcome = manager.plan(SAID)
    assert not outcome.fallback
    days, screen = outcome.plan.subtasks
    assert days.skill == "days_between" and not days.doubt
    assert screen.skill == "" and screen.description.startswith("calculate") and not screen.doubt
    assert len(models.backends["manager"].requests) == PROGRAM_ATTEMPTS


def test_the_screen_step_asked_for_alone_offers_the_skills_named_and_no_screen_step() -> None:
    """pc06r2 at bbc9bb1 (2026-12-07): asked for alone under the whole catalog and a screen
    step's branch, the Manager wrote the screen step again; the grammar now leaves it the
    choice among the skills the doubt names."""
    whole = [_reply(DAYS, _screen())] * PROGRAM_ATTEMPTS
    models = ScriptedModels(manager=[*whole, _reply(CALC)])
    catalog = CATALOG.for_apps(APPS)
    outcome = Manager(models.for_role("manager"), apps=APPS, skills=catalog).plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["days_between", "calculate"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    alone = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    assert "Write step s2 again" in alone.messages[-1].text
    branches = alone.schema["properties"]["steps"]["items"]["anyOf"]
    offered = {branch["properties"]["skill"]["const"] for branch in branches}
    assert offered == {s.name for s in catalog if "calculator" in s.apps}
    assert "calculate" in offered and "gui" not in offered


def test_a_skill_call_doubted_otherwise_is_asked_for_under_the_whole_catalog() -> None:
    step = as_program(DAYS, CALC).step("s2")
    other = Doubt("s2", "a number nobody gave", own=True)
    assert skills_instead(step, [other], CATALOG) is None
    screen = as_program(DAYS, _screen()).step("s2")
    assert skills_instead(screen, [other], CATALOG) is None  # not a screen step's doubt
    (doubt,) = screen_steps_beside_skills(as_program(DAYS, _screen()), CATALOG)
    offered = skills_instead(screen, [doubt], CATALOG)
    assert offered is not None and {s.name for s in offered} == set(doubt.skills)
