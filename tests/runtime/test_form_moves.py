"""Searching through a site's own form by rule: open the site, read its fields, fill them."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent import app_actions
from pcagent.agents.composer import Composer
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import default_pool
from pcagent.runtime.form_moves import (
    fill_move,
    form_read_move,
    just_read_form,
    searched_site,
    site_move,
)

KINDS = frozenset({"browser_open", "browser_read", "browser_fill", "browser_click"})
ROLE = default_pool(["browser"], KINDS).get("browser")
SEARCH = SubtaskSpec(
    id="s2", description="Then search for a train for that trip on rail.test", app="browser"
)
OPENED = ["3: browser_open(url='rail.test') -> success"]
READ = [*OPENED, "4: browser_read() -> success"]
PLAN = [("Return ticket", "true"), ("Leaving from", "Bergen"), ("Going to", "Oslo")]


def test_the_site_searched_through_is_named_and_pointed_back_from() -> None:
    assert searched_site(SEARCH.description) == "rail.test"
    assert searched_site("Search for a flight for it on www.booking.com.") == "www.booking.com"
    # nothing found before to fill the form with, or no site: a web search serves
    assert searched_site("Search for tea prices on shop.test") == ""
    assert searched_site("Search the web for trains to Oslo and note them") == ""


def test_the_site_is_opened_then_read_then_its_form_filled_and_submitted() -> None:
    move = site_move(SEARCH, ROLE, "browser", [])
    assert move is not None and move.action == app_actions.BrowserOpen(url="rail.test")
    assert site_move(SEARCH, ROLE, "browser", OPENED) is None  # once
    read = form_read_move(SEARCH, ROLE, "browser", OPENED)
    assert read is not None and read.action == app_actions.BrowserRead()
    assert form_read_move(SEARCH, ROLE, "browser", READ) is None
    assert just_read_form(SEARCH, READ) and not just_read_form(SEARCH, OPENED)
    steps = []
    history = list(READ)
    while (move := fill_move(SEARCH, ROLE, "browser", history, PLAN)) is not None:
        steps.append(move.action)
        history.append(f"{len(history) + 3}: {move.action.kind}(label=...) -> success")
    assert steps == [
        app_actions.BrowserFill(label="Return ticket", value="true"),
        app_actions.BrowserFill(label="Leaving from", value="Bergen"),
        app_actions.BrowserFill(label="Going to", value="Oslo", submit=True),
    ]


def test_a_refused_field_or_no_plan_hands_the_form_to_the_model() -> None:
    refused = [*READ, "5: browser_fill(label='Return ticket') -> no_change"]
    assert fill_move(SEARCH, ROLE, "browser", refused, PLAN) is None
    assert fill_move(SEARCH, ROLE, "browser", READ, []) is None
    assert fill_move(SEARCH, ROLE, "mail", READ, PLAN) is None


def test_a_site_s_one_search_box_gets_the_subtask_s_search_words() -> None:
    from pcagent.runtime.form_moves import plan_form, site_search_words

    going = 'Go to https://papers.test/ in the browser, search for papers about "robot hands", and download the first'
    assert site_search_words(going) == "robot hands"  # the quoted phrase
    assert site_search_words("Go to www.shop.test and search for green tea") == "green tea"
    assert site_search_words("Search the web for green tea") == ""  # no site to go to
    reading = 'Fields:\n- "Search papers" (text) = ""'
    subtask = SubtaskSpec(id="s1", description=going, app="browser")
    models = ScriptedModels()  # never asked: a search box needs no model
    composer = Composer(models.for_role("composer"))
    assert plan_form(subtask, reading, going, {}, composer, 3) == [("Search papers", "robot hands")]
    assert plan_form(subtask, "Text:\nno form", going, {}, composer, 3) == []


def test_a_form_of_several_fields_is_planned_by_the_composer_and_checked() -> None:
    from pcagent.runtime.form_moves import plan_form

    reading = (
        'Fields:\n- "From" / "from" (text) = ""\n- "To" / "to" (text) = ""\n'
        '- "Depart" / "YYYY-MM-DD" (text) = ""'
    )
    reply = {
        "fields": [
            {"label": "From", "value": "Lima"},
            {"label": "To", "value": "Quito"},
            {"label": "Depart", "value": "3 June 2026"},
        ]
    }
    models = ScriptedModels(composer=[json.dumps(reply)])
    composer = Composer(models.for_role("composer"))
    task = "Read the mail Trip, then search for a flight for it on fly.test"
    plan = plan_form(SEARCH, reading, task, {"s1_read": "Lima to Quito"}, composer, 5)
    assert plan == [("From", "Lima"), ("To", "Quito"), ("Depart", "2026-06-03")]
    prompt = models.prompts("composer")[0]
    assert f"(from the task: {task})" in prompt and "s1_read = Lima to Quito" in prompt
