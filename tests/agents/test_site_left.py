"""A site opened and left at once for a search of the whole web is a doubt (the program is
the 1.5B Manager's, as recorded on pc15, 2026-12-03)."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, program

from pcagent.agents.site_left import site_left_for_search
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SITE = {"skill": "open_page", "args": {"address": "https://arxiv.org/"}}
FIRST = {"skill": "follow_result", "args": {"place": 1}}


def test_a_web_search_right_after_a_site_opened_is_doubted_and_names_the_form() -> None:
    written = program(SITE, {"skill": "web_search", "args": {"query": "multimodal agent"}}, FIRST)
    (doubt,) = site_left_for_search(written, CATALOG)
    assert doubt.step == "s2" and doubt.skills == ("fill_form",)
    assert "right after s1 opened 'https://arxiv.org/'" in doubt.problem


def test_the_site_s_form_filled_or_a_search_elsewhere_is_no_doubt() -> None:
    form = {"skill": "fill_form", "args": {"fields": [{"label": "Search", "value": "agents"}]}}
    assert site_left_for_search(program(SITE, form, FIRST), CATALOG) == []
    search_first = program({"skill": "web_search", "args": {"query": "arxiv agents"}}, SITE)
    assert site_left_for_search(search_first, CATALOG) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    checked = 0
    for _task, gold in gold_programs():
        checked += 1
        assert site_left_for_search(gold, CATALOG) == []
    assert checked >= 300
