"""A value a site refused is not sent again by a re-plan: which of the failed call's values the
refusal names, and the Manager re-asked when its re-plan sends one again (scripted replies; the
refusal's words are the browser's own, ``browser_tabs.landed``)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.manager import Manager
from pcagent.agents.plan import Replanning, SubtaskSpec
from pcagent.agents.refused_values import REFUSAL, sends_refused, with_refusals
from pcagent.skills import default_catalog

APPS = {"browser": "web browser"}
FIELDS = [
    {"label": "From", "value": "Howie"},
    {"label": "To", "value": "Berlin"},
    {"label": "Depart", "value": "14 March 2025"},
]
FAILED = SubtaskSpec(
    id="s4", description="fill_form(...)", skill="fill_form", args={"fields": FIELDS}
)
REASON = (
    "its skill failed: browser_fill failed: \"Depart\" filled with '2025-03-14' and submitted; "
    "the page is now https://booking.com/search?from=Howie&to=Berlin; the site answered HTTP "
    f"400, {REFUSAL} \"Booking.com Unknown city or airport: 'Howie'. Search flights From To "
    'Airports: Berlin (BER), Paris (PAR)"'
)


def test_the_values_the_refusal_quotes_are_the_refused_ones() -> None:
    assert with_refusals(FAILED, REASON).refused == ["Howie"]
    assert with_refusals(FAILED, "no page change seen") is FAILED
    named_unquoted = REASON.replace("'Howie'", "Howie")
    assert with_refusals(FAILED, named_unquoted) is FAILED


def test_a_program_that_sends_a_refused_value_again_is_a_problem() -> None:
    failed = with_refusals(FAILED, REASON)
    relabelled = [{**FIELDS[0]}, FIELDS[1], {"label": "Date", "value": "14 March 2025"}]
    again = as_program({"id": "s5", "skill": "fill_form", "args": {"fields": relabelled}})
    assert "s5 sends 'Howie' again, which the site refused when s4 sent it" in sends_refused(
        again, failed
    )
    typed = as_program({"id": "s5", "skill": "gui", "app": "browser", "task": "Type howie in From"})
    assert "s5 sends 'Howie'" in sends_refused(typed, failed)
    right = [{"label": "From", "value": "Berlin"}, {"label": "To", "value": "Paris"}]
    assert (
        sends_refused(
            as_program({"id": "s5", "skill": "fill_form", "args": {"fields": right}}), failed
        )
        == ""
    )


def test_the_manager_is_re_asked_when_its_replan_sends_the_refused_value() -> None:
    again = {"id": "s5", "skill": "fill_form", "args": {"fields": FIELDS[:2]}}
    right = {
        "id": "s5",
        "skill": "fill_form",
        "args": {
            "fields": [{"label": "From", "value": "Berlin"}, {"label": "To", "value": "Paris"}]
        },
    }
    models = ScriptedModels(
        manager=[json.dumps({"steps": [again]}), json.dumps({"steps": [right]})]
    )
    manager = Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        asks_single_steps=False,
    )
    opened = SubtaskSpec(
        id="s3", description="open_page(...)", skill="open_page", args={"address": "booking.com"}
    )
    said = "Read my mail to Howie and search a one-way flight from Berlin to Paris on booking.com"
    replanning = Replanning(said, [opened], {"s3": "Booking.com"}, FAILED, REASON)
    outcome = manager.replan(replanning)
    assert not outcome.fallback and outcome.plan.subtasks[0].args == right["args"]
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "sends 'Howie' again, which the site refused" in asked_again
