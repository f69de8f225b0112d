"""A site opened and left at once for a search of the whole web is a doubt (the program is
the 1.5B Manager's, as recorded on pc15, 2026-12-03)."""

from __future__ import annotations

from tests.agents.program_steps import gold_programs, program

from pcagent.agents.doubts import Evidence
from pcagent.agents.focused_steps import FocusedSteps
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.site_left import site_left_for_search
from pcagent.models.messages import Message
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SITE = {"skill": "open_page", "args": {"address": "https://arxiv.org/"}}
FIRST = {"skill": "follow_result", "args": {"place": 1}}


def test_a_web_search_right_after_a_site_opened_is_doubted_and_names_the_form() -> None:
    written = program(SITE, {"skill": "web_search", "args": {"query": "multimodal agent"}}, FIRST)
    (doubt,) = site_left_for_search(written, CATALOG)
    assert doubt.step == "s2" and doubt.skills == ("fill_form",)
    assert "right after s1 opened 'https://arxiv.org/'" in doubt.problem
    # The search step's own: where the re-asks keep it, that step is asked for again alone.
    given = ["https://arxiv.org/", "multimodal agent"]
    mine = [d for d in Evidence(given=given).doubts(written, CATALOG) if d.problem == doubt.problem]
    assert [(d.step, d.own) for d in mine] == [("s2", True)]


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


def test_the_search_step_is_written_again_alone_and_the_form_kept() -> None:
    """With a scripted Manager: asked for s2 again with the doubt, the site's form filled in its
    place is kept (no doubt left); a web search written again is not."""
    written = program(SITE, {"skill": "web_search", "args": {"query": "multimodal agent"}}, FIRST)
    evidence = Evidence(given=["https://arxiv.org/", "multimodal agent"])
    doubts = evidence.doubts(written, CATALOG)
    form = {
        "id": "s2",
        "skill": "fill_form",
        "args": {"fields": [{"label": "Search", "value": "multimodal agent"}]},
    }
    again = {"id": "s2", "skill": "web_search", "args": {"query": "arxiv multimodal agent"}}
    for reply, kept in ((form, "fill_form"), (again, "web_search")):
        asked: list[str] = []

        def ask(
            messages: list[Message], _type: type[Program], reply: dict = reply, asked=asked
        ) -> Program:
            asked.append(messages[-1].text)
            return Program(steps=[ProgramStep.model_validate(reply)])

        focused = FocusedSteps(
            CATALOG,
            ["browser"],
            ask,
            mend=lambda one: one,
            problems=lambda one: [],
            doubts=lambda one: evidence.doubts(one, CATALOG),
            unused_apps=lambda one: [],
        )
        changed, left = focused.improved("search arxiv.org for multimodal agent", written, doubts)
        assert [s.skill for s in changed.steps] == ["open_page", kept, "follow_result"]
        assert len(asked) == 1 and "searches the whole web" in asked[0]
        assert (left == []) == (kept == "fill_form")
