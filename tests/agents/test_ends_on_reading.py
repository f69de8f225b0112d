"""A program that ends on a reading (a file read, a search) tells the person nothing: its last
step is doubted once the program is kept, and the Manager is not asked again for it."""

from __future__ import annotations

import json

from tests.agents.program_steps import program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.ends_on_reading import ends_on_reading
from pcagent.agents.manager import Manager, Replanning
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ = {"skill": "read_text_file", "args": {"path": "Documents/trip.txt"}}
FIND = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["country"], "what": "where the trip goes"},
}


def test_a_search_or_a_read_last_is_doubted() -> None:
    search = {"skill": "web_search", "args": {"query": "which side of the road {s2.country}"}}
    (doubt,) = ends_on_reading(program(READ, FIND, search), CATALOG)
    assert doubt.step == "s3" and "ends the program on what web_search reads" in doubt.problem
    assert doubt.skills == ("extract_values", "tell_user")
    assert [d.step for d in ends_on_reading(program(READ), CATALOG)] == ["s1"]
    # The search engine's page opened by its address, or words the browser searches for.
    for address in ("search.local/?q=driving+side", "driving side in Peru"):
        opened = {"skill": "open_page", "args": {"address": address}}
        assert [d.step for d in ends_on_reading(program(opened), CATALOG)] == ["s1"], address


def test_a_page_opened_last_is_doubted_but_not_in_a_replan() -> None:
    """Told to search arxiv.org and download the top hit, the 1.5B Manager opened the site alone
    and the run said "finished" (a rewording of pc15, 2026-12-07). A re-plan's program may be
    followed by steps of the old plan, so a page it opens last is not judged."""
    page = {"skill": "open_page", "args": {"address": "https://arxiv.org/"}}
    (doubt,) = ends_on_reading(program(page), CATALOG)
    assert doubt.step == "s1" and "ends the program on a page opened (open_page)" in doubt.problem
    assert "follow_link" in doubt.skills and "fill_form" in doubt.skills
    assert ends_on_reading(program(page), CATALOG, pages=False) == []
    search = {"skill": "web_search", "args": {"query": "driving side in Peru"}}
    assert len(ends_on_reading(program(search), CATALOG, pages=False)) == 1


def test_a_link_followed_a_value_told_or_a_change_last_is_not() -> None:
    told = {"skill": "tell_user", "args": {"text": "{s2.country}"}}
    assert ends_on_reading(program(READ, FIND, told), CATALOG) == []
    page = {"skill": "open_page", "args": {"address": "example.org/papers"}}
    download = {"skill": "follow_link", "args": {"text": "Download PDF"}}
    assert ends_on_reading(program(page, download), CATALOG) == []
    screen = {"skill": "gui", "app": "browser", "task": "find the side of the road"}
    assert ends_on_reading(program(screen), CATALOG) == []


def test_no_gold_program_of_generated_tasks_ends_on_a_reading() -> None:
    programs = [t.program for t in generate_tasks(300, 31) if t.program]
    for steps in programs:
        assert ends_on_reading(Program(steps=list(steps)), CATALOG) == [], steps


def test_the_manager_keeps_it_with_the_doubt_without_asking_again() -> None:
    search = {"id": "s1", "skill": "web_search", "args": {"query": "driving side in Peru"}}
    models = ScriptedModels(manager=[json.dumps({"steps": [search]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "the web"},
        skills=CATALOG.for_apps(["browser"]),
    )
    outcome = manager.plan("Which side of the road do they drive on in Peru?")
    (step,) = outcome.plan.subtasks
    assert step.skill == "web_search" and "tells the person nothing" in step.doubt
    assert len(models.backends["manager"].requests) == 1


def test_the_manager_doubts_a_page_opened_last_in_a_plan_and_not_in_a_replan() -> None:
    opened = {"id": "s1", "skill": "open_page", "args": {"address": "https://arxiv.org/"}}
    said = "Search https://arxiv.org/ for agent papers and download the top hit"
    models = ScriptedModels(manager=[json.dumps({"steps": [opened]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "the web"},
        skills=CATALOG.for_apps(["browser"]),
    )
    (step,) = manager.plan(said).plan.subtasks
    assert "a page opened" in step.doubt and len(models.backends["manager"].requests) == 1
    failed = SubtaskSpec(id="s1", description="fill_form(...)", skill="fill_form")
    again = {**opened, "id": "s2"}
    models = ScriptedModels(manager=[json.dumps({"steps": [again]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "the web"},
        skills=CATALOG.for_apps(["browser"]),
    )
    (step,) = manager.replan(Replanning(said, [], {}, failed, "no field")).plan.subtasks
    assert step.doubt == ""
