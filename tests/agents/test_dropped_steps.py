"""A corrected program keeps the steps of the one before that no problem was about."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.dropped_steps import dropped_steps, faulted_steps
from pcagent.agents.manager import Manager
from pcagent.agents.plan import Doubt
from pcagent.skills import default_catalog

APPS = {"browser": "web pages", "text_editor": "plain text files"}
SEARCH = {"id": "s1", "skill": "web_search", "args": {"query": "Attention Is All You Need"}}
FOLLOW = {"id": "s2", "skill": "follow_link", "args": {"text": "Attention Is All You Need"}}
MISSING_READ = {"id": "s3", "skill": "read_text_file", "args": {"path": "paper.txt"}}
WRITE = {
    "id": "s4",
    "skill": "write_text_file",
    "args": {"path": "Documents/abstract.txt", "text": {"from": "s3"}},
}


def test_a_correction_that_drops_a_step_no_problem_named_is_doubted() -> None:
    before = as_program(SEARCH, FOLLOW, MISSING_READ, WRITE)
    faulted = faulted_steps(before, ["s3: 'paper.txt' is no file in HOME"], [])
    assert faulted == {"s3"}
    (doubt,) = dropped_steps(before, faulted, as_program(SEARCH, FOLLOW), default_catalog())
    assert doubt.step == "s2" and "s4 (write_text_file)" in doubt.problem
    assert doubt.skills == ("write_text_file",)


def test_a_step_named_by_a_problem_or_a_doubt_may_go() -> None:
    before = as_program(SEARCH, FOLLOW, MISSING_READ, WRITE)
    for faulted in (
        faulted_steps(before, ["s4: the path names a folder"], []),
        faulted_steps(before, [], [Doubt("s4", "an example's file")]),
    ):
        assert faulted >= {"s4"}
        assert not dropped_steps(before, faulted, as_program(SEARCH, FOLLOW), default_catalog())
    # "s1" in a problem is not "s10": ids are matched whole.
    assert faulted_steps(before, ["s10: unknown"], []) == set()


def test_reads_searches_and_pages_may_go_and_a_skill_kept_with_other_arguments_counts() -> None:
    catalog = default_catalog()
    before = as_program(SEARCH, FOLLOW, MISSING_READ, WRITE)
    rewritten = {**WRITE, "id": "s3", "args": {"path": "Documents/a.txt", "text": {"from": "s2"}}}
    assert not dropped_steps(before, set(), as_program({**SEARCH}, rewritten), catalog)
    told = {"id": "s5", "skill": "tell_user", "args": {"text": {"from": "s3"}}}
    (doubt,) = dropped_steps(as_program(SEARCH, told), set(), as_program(SEARCH), catalog)
    assert "s5 (tell_user)" in doubt.problem
    assert not dropped_steps(None, set(), as_program(SEARCH), catalog)


def test_the_manager_asks_again_when_a_correction_drops_the_writing() -> None:
    """Told only that a read named no file, the model wrote the program again up to that read
    (which, used by nothing, is left out): the pages alone would have said "finished"."""
    first = [SEARCH, FOLLOW, MISSING_READ, WRITE]
    cut = [SEARCH, FOLLOW, MISSING_READ]
    extract = {
        "id": "s3",
        "skill": "extract_values",
        "args": {"text": {"from": "s2"}, "names": ["abstract"], "what": "the paper's abstract"},
    }
    written = {"from": "s3", "key": "abstract"}
    right = [SEARCH, FOLLOW, extract, {**WRITE, "args": {**WRITE["args"], "text": written}}]
    models = ScriptedModels(manager=[json.dumps({"steps": steps}) for steps in (first, cut, right)])
    manager = Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        is_file=set[str]().__contains__,
    )
    outcome = manager.plan('Find "Attention Is All You Need" and save its abstract in abstract.txt')
    skills = [subtask.skill for subtask in outcome.plan.subtasks]
    assert skills == ["web_search", "follow_link", "extract_values", "write_text_file"]
    requests = models.backends["manager"].requests
    assert len(requests) == 3
    assert "s4 (write_text_file)" in requests[2].messages[-1].text
