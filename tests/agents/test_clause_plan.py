"""Instructions whose clauses name their applications are planned by their clauses."""

from __future__ import annotations

import pytest
from tests.agents.scripted import ScriptedModels

from pcagent.agents.clause_plan import clause_plan, clause_visits
from pcagent.agents.manager import Manager
from pcagent.env.apps import app_infos

APPS = {info.name: info.description for info in app_infos()}


def apps_of(instruction: str) -> list[str]:
    return [app for app, _ in clause_visits(instruction, APPS)]


@pytest.mark.parametrize(
    ("instruction", "expected"),
    [
        (
            "In the text editor, open notes.txt in the Documents folder and find the dentist's "
            "phone number. Then add a world clock for Lisbon in the Clocks app.",
            ["text_editor", "clock"],
        ),
        (
            "Look up the boiling point of ethanol on the web, and compute it times 3 with the "
            "calculator.",
            ["browser", "calculator"],
        ),
        (
            "Open budget.xlsx in the Documents folder from the file manager, put 12 in cell C4, "
            "and save it.",
            ["file_manager", "spreadsheet"],
        ),
        (
            "Write the list into a new text file, and save it as list.txt in the Documents "
            "folder. Send list.txt to ana@example.test with the mail client.",
            ["text_editor", "mail"],
        ),
        (
            # the file manager moves a document here: it does not open it
            "In the file manager, create a folder Old in the Documents folder and move a.docx "
            "into it. Then write a short note in the word processor and save it as b.",
            ["file_manager", "writer"],
        ),
    ],
)
def test_visits_follow_the_clauses(instruction: str, expected: list[str]) -> None:
    assert apps_of(instruction) == expected


def test_a_clause_naming_no_application_continues_the_visit_before_it() -> None:
    visits = clause_visits(
        "Create a new spreadsheet, write the names in column A, and save it as staff in the "
        "Documents folder. Then read the mail Staff in the mail client.",
        APPS,
    )
    assert [app for app, _ in visits] == ["spreadsheet", "mail"]
    assert "save it as staff" in visits[0][1]  # the Documents folder names no application


def test_findings_flow_to_the_later_visits() -> None:
    plan = clause_plan(
        "Search the web for the height of the Eiffel Tower. Then compute half of it with the "
        "calculator.",
        APPS,
    )
    assert plan is not None
    first, second = plan.subtasks
    # named after what it finds: a small model answered an opaque name with the name
    assert (first.app, first.outputs) == ("browser", ["height_eiffel_tower"])
    assert (second.app, second.inputs, second.depends_on) == (
        "calculator",
        ["height_eiffel_tower"],
        ["s1"],
    )


def test_a_finding_without_words_after_its_verb_is_named_by_its_visit() -> None:
    plan = clause_plan("Read the mail client's newest mail. Then open the calculator.", APPS)
    assert plan is not None and plan.subtasks[0].outputs == ["mail_client_newest_mail"]
    plan = clause_plan("In the mail client, look. Then compute 2 * 3 with the calculator.", APPS)
    assert plan is not None and plan.subtasks[0].outputs == ["s1_found"]


@pytest.mark.parametrize(
    "instruction",
    [
        "Compute 3 * 4 with the calculator.",  # one application: the one-visit rule's
        "Find out what the weather is like and tell me.",  # names none
        "Tell me a joke. Then open the calculator.",  # the first clause names none
    ],
)
def test_no_plan_without_two_named_applications(instruction: str) -> None:
    assert clause_plan(instruction, APPS) is None


def test_the_manager_plans_by_clauses_without_its_model() -> None:
    models = ScriptedModels(manager=[])  # a Manager call would find no reply
    manager = Manager(models.for_role("manager"), apps=APPS)
    outcome = manager.plan(
        "In the mail client, read the mail Dinner and note the restaurant. Then look up the "
        "restaurant's address in the browser."
    )
    assert not outcome.fallback
    assert [s.app for s in outcome.plan.subtasks] == ["mail", "browser"]


def test_a_last_visit_that_is_to_tell_what_it_finds_reports_it() -> None:
    told = clause_plan(
        "In the text editor, open plan.txt and find the city. Then look up in the browser the "
        "weather there, and tell me.",
        APPS,
    )
    assert told is not None and told.subtasks[-1].outputs != []
    silent = clause_plan(
        "In the text editor, open plan.txt and find the city. Then look up in the browser the "
        "weather there.",
        APPS,
    )
    assert silent is not None and silent.subtasks[-1].outputs == []
