"""A form filled on a page of search results is a doubt: the real skills' declarations, the
program pc02r2's planner wrote, the ways of reaching a form, and the gold programs of generated
tasks."""

from __future__ import annotations

from tests.agents.program_steps import program

from pcagent.agents.doubts import Evidence
from pcagent.agents.form_on_results import forms_on_results
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SEARCH = {"skill": "web_search", "args": {"query": "travel time from North Station to Market Hall"}}
FORM = {
    "skill": "fill_form",
    "args": {
        "fields": [{"label": "From", "value": "North Station"}, {"label": "To", "value": "x"}]
    },
}


def test_a_form_filled_right_after_a_search_is_doubted_and_names_the_ways_out() -> None:
    (doubt,) = forms_on_results(program(SEARCH, FORM), CATALOG)
    assert doubt.step == "s2" and "s1's web_search" in doubt.problem
    assert set(doubt.skills) == {"follow_link", "open_page"}
    # It is one of the program's doubts, with the others.
    assert "search box" in " ".join(
        d.problem for d in Evidence(["x"]).doubts(program(SEARCH, FORM), CATALOG)
    )


def test_a_form_on_a_result_followed_or_a_site_opened_is_no_doubt() -> None:
    link = {"skill": "follow_link", "args": {"text": "North Station to Market Hall"}}
    opened = {"skill": "open_page", "args": {"address": "maps.local"}}
    screen = {"skill": "gui", "app": "browser", "task": "Open the directions page"}
    for steps in ((SEARCH, link, FORM), (SEARCH, opened, FORM), (SEARCH, screen, FORM)):
        assert forms_on_results(program(*steps), CATALOG) == []
    # Following a result is what a results page is for.
    assert forms_on_results(program(SEARCH, link), CATALOG) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    for task in generate_tasks(300, 102):
        assert task.program is not None
        assert forms_on_results(Program(steps=task.program), CATALOG) == [], task.id
