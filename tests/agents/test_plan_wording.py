"""Opening clauses the run does by itself are dropped from plans; work is kept."""

from __future__ import annotations

from pcagent.agents.plan import Plan, SubtaskSpec
from pcagent.agents.plan_wording import drop_openings, opens_only, without_opening

APPS = {
    "text_editor": "plain-text editor",
    "calculator": "calculator",
    "browser": "web browser",
    "writer": "word processor (documents .docx/.odt)",
}


def test_a_clause_that_only_opens_the_application_is_dropped() -> None:
    text = "Open the calculator in the calculator app and compute the days between the dates."
    assert without_opening(text, "calculator", APPS) == "Compute the days between the dates."
    browser = "Open the web browser, then search for the opening hours"
    assert without_opening(browser, "browser", APPS) == "Search for the opening hours"
    assert without_opening("Launch the word processor; write a letter", "writer", APPS) == (
        "Write a letter"
    )


def test_opening_a_file_or_another_application_is_work() -> None:
    memo = "Open memo.txt in the text editor and read the second event"
    assert without_opening(memo, "text_editor", APPS) == memo
    file = "Open it in the text editor, fix the error"  # "it" is a file
    assert without_opening(file, "text_editor", APPS) == file
    other = "Open the calculator and compute 3 * 4"
    assert without_opening(other, "browser", APPS) == other  # not this subtask's application
    assert without_opening("Open the calculator", "calculator", APPS) == "Open the calculator"
    assert not opens_only("Compute the sum in the calculator", "calculator", APPS)
    assert opens_only("Open the browser and navigate to the internet", "browser", APPS)


def test_a_subtask_that_only_opens_an_application_another_works_in_is_dropped() -> None:
    plan = Plan(
        subtasks=[
            SubtaskSpec(id="s1", description="Open the web browser", app="browser"),
            SubtaskSpec(id="s2", description="Search the price", app="browser", depends_on=["s1"]),
            SubtaskSpec(id="s3", description="Open the calculator", app="calculator"),
        ]
    )
    repaired = drop_openings(plan, APPS)
    assert [s.id for s in repaired.subtasks] == ["s2", "s3"]
    assert repaired.subtasks[0].depends_on == []  # s1's own dependencies, none
    # the calculator's only subtask stays: nothing else would open it
    assert repaired.subtasks[1].description == "Open the calculator"
