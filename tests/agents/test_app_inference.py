"""Reading the application a subtask is about off its words, from the environment's own list."""

from __future__ import annotations

import pytest

from pcagent.agents.app_inference import app_scores, infer_app, named_apps
from pcagent.env.apps import app_infos

APPS = {info.name: info.description for info in app_infos()}


@pytest.mark.parametrize(
    ("text", "app"),
    [
        ("Open the calculator and compute 12 * 7 + 5", "calculator"),
        ("Set an alarm at 9:15", "clock"),
        ("Open memo.txt in the text editor", "text_editor"),
        ("Search the web for the opening hours", "browser"),
        ("Create a new spreadsheet with the prices", "spreadsheet"),
        ("Send it by e-mail", "mail"),
        ("Open the Documents folder in the file manager", "file_manager"),
        ("Fill in B2 and B3", ""),  # names nothing
        ("Copy the result from the calculator into the spreadsheet", ""),  # names two alike
    ],
)
def test_the_application_a_text_names(text: str, app: str) -> None:
    assert infer_app(text, APPS) == app


def test_only_the_environments_applications_count() -> None:
    assert infer_app("Open the calculator", {"mail": "e-mail client"}) == ""
    assert set(app_scores("compute in the calculator, then mail it", APPS)) == {
        "calculator",
        "mail",
    }


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Open the calculator and compute 12 * 7 + 5", {"calculator"}),
        ("In the Clocks app, set an alarm at 7:00", {"clock"}),
        ("Write a letter in the word processor", {"writer"}),
        ("Open the file manager", {"file_manager"}),
        # description words alone are too weak to plan by
        ("Add two words to notes.txt", set()),
        ("Open report.txt in the Documents folder", set()),
        ("In the text editor, open memo.txt", {"text_editor"}),
    ],
)
def test_applications_named_outright(text: str, named: set[str]) -> None:
    assert named_apps(text, APPS) == named
