"""One value passed where a list is wanted is named before anything runs, and the Manager is
re-asked with it (the real skills' declarations; scripted replies for the Manager)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.program import Program
from pcagent.agents.reference_shapes import one_value_for_a_list
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/prices.txt"}}


def _sort(items: object) -> dict[str, object]:
    return {"id": "s3", "skill": "sort_items", "args": {"items": items, "first": "highest"}}


#: The sorted list told: a list sorted last and shown nowhere is a doubt of its own.
TELL = {"id": "s4", "skill": "tell_user", "args": {"text": "{s3}"}}


def test_a_text_or_a_named_value_for_a_list_is_a_problem() -> None:
    catalog = default_catalog()
    (doubt,) = one_value_for_a_list(as_program(READ, _sort({"from": "s1"})), catalog)
    text = str(doubt)
    assert text.startswith("s3: items takes a list, and s1 is one value")
    assert "read_text_file gives the file's text" in text
    extract = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["prices"], "what": "the prices"},
    }
    (named,) = one_value_for_a_list(
        as_program(READ, extract, _sort({"from": "s2", "key": "prices"})), catalog
    )
    assert "s2.prices is one value" in str(named)
    assert "web_search_each" not in text + str(named)


def test_a_search_for_a_list_is_told_of_the_search_for_each() -> None:
    # Asked for three populations sorted, the 1.5B Manager sorted one search's page
    # (pc08r2, 2026-12-03); its re-ask then dropped the sort with no way to a list it knew.
    search = {"id": "s1", "skill": "web_search", "args": {"query": "population of a, b, c"}}
    (doubt,) = one_value_for_a_list(as_program(search, _sort({"from": "s1"})), default_catalog())
    assert "call web_search_each instead of web_search" in str(doubt)


def test_a_list_a_gui_value_and_literal_items_pass() -> None:
    catalog = default_catalog()
    items = [{"label": "a", "value": 2}, {"label": "b", "value": {"from": "s1"}}]
    assert one_value_for_a_list(as_program(READ, _sort(items)), catalog) == []
    ordered = {"id": "s4", "skill": "move_files", "args": {"files": {"from": "s3"}, "into": "x"}}
    assert one_value_for_a_list(as_program(READ, _sort(items), ordered), catalog) == []
    gui = {"id": "s1", "skill": "gui", "app": "browser", "task": "read prices", "outputs": ["p"]}
    assert one_value_for_a_list(as_program(gui, _sort({"from": "s1"})), catalog) == []


def test_no_gold_training_program_passes_one_value_for_a_list() -> None:
    catalog = default_catalog()
    for task in generate_tasks(120, 5):
        assert task.program is not None
        assert one_value_for_a_list(Program(steps=list(task.program)), catalog) == [], task.id


def test_the_manager_is_re_asked_and_takes_the_corrected_program() -> None:
    apps = {"text_editor": "plain text files"}
    wrong = json.dumps({"steps": [READ, _sort({"from": "s1"}), TELL]})
    # Each item one value found in the file (the file's whole text is no item's value).
    find = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["b"], "what": "the price of b"},
    }
    items = [{"label": "a", "value": 2}, {"label": "b", "value": {"from": "s2", "key": "b"}}]
    right = json.dumps({"steps": [READ, find, _sort(items), TELL]})
    models = ScriptedModels(manager=[wrong, right])
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan("Tell me the prices in prices.txt, sorted")
    assert not outcome.fallback and outcome.plan.subtasks[2].args["items"] == items
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "items takes a list, and s1 is one value" in asked_again


def test_the_last_program_asked_for_is_kept_with_one_value_for_a_list() -> None:
    """Rather than the whole program lost to one GUI task: the step fails and is re-planned."""
    apps = {"text_editor": "plain text files"}
    wrong = json.dumps({"steps": [READ, _sort({"from": "s1"}), TELL]})
    models = ScriptedModels(manager=[wrong] * PROGRAM_ATTEMPTS)
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan("Tell me the prices in prices.txt, sorted")
    assert not outcome.fallback
    assert outcome.plan.subtasks[1].args["items"] == {"from": "s1"}
    assert outcome.plan.subtasks[1].doubt.startswith("items takes a list, and s1 is one value")
    assert not outcome.plan.subtasks[0].doubt
    assert len(models.backends["manager"].requests) == PROGRAM_ATTEMPTS
