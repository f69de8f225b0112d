"""A whole-file read or write of the wrong kind goes to its kind's skill before anything runs
(the real skills' declarations; scripted replies for the Manager)."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents.file_kinds import with_kind_twins
from pcagent.agents.manager import Manager
from pcagent.agents.program import Program, ProgramStep, check_program
from pcagent.skills import default_catalog

APPS = {"text_editor": "plain text files", "writer": "documents", "spreadsheet": "workbooks"}


def _one(skill: str, **args: object) -> Program:
    return Program(steps=[ProgramStep(id="s1", skill=skill, args=args)])  # type: ignore[arg-type]


def _swapped(skill: str, **args: object) -> ProgramStep:
    (step,) = with_kind_twins(_one(skill, **args), default_catalog().for_apps(APPS)).steps
    return step


def test_a_read_or_write_goes_to_the_skill_of_the_path_s_kind() -> None:
    read = _swapped("read_text_file", path="Documents/a.docx")
    assert (read.skill, read.args) == ("read_document", {"path": "Documents/a.docx"})
    assert _swapped("read_document", path="notes.txt").skill == "read_text_file"
    assert _swapped("read_document", path="Documents/prices.xlsx").skill == "read_sheet"
    written = _swapped("write_text_file", path="Documents/Tech.docx", text="a\nb", append=False)
    assert (written.skill, written.args) == (
        "write_document",
        {"path": "Documents/Tech.docx", "text": "a\nb", "append": False},
    )
    assert _swapped("write_document", path="todo.txt", text="x").skill == "write_text_file"
    appended = _swapped("write_text_file", path="Documents/d.docx", text="x", append=True)
    assert (appended.skill, appended.args["append"]) == ("write_document", True)
    catalog = default_catalog().for_apps(APPS)
    for step in (read, written):
        check_program(Program(steps=[step]), catalog, list(APPS))  # the call now validates


def test_nothing_is_swapped_where_the_kind_fits_or_something_would_be_lost() -> None:
    assert _swapped("read_text_file", path="data.csv").skill == "read_text_file"
    assert _swapped("read_document", path="Documents/a.odt").skill == "read_document"
    # An argument the other skill does not take must be at its default.
    kept = _swapped("write_text_file", path="a.xlsx", text="x", append=True)
    assert kept.skill == "write_text_file"
    # No workbook writer from a text; formatting has no twin.
    assert _swapped("write_text_file", path="a.xlsx", text="x").skill == "write_text_file"
    assert _swapped("format_paragraphs", path="a.txt", paragraphs=[0]).skill == "format_paragraphs"
    # The other kind's skill is not on this desktop.
    editor_only = default_catalog().for_apps({"text_editor": "plain text files"})
    (step,) = with_kind_twins(_one("read_text_file", path="a.docx"), editor_only).steps
    assert step.skill == "read_text_file"


def test_a_bare_name_keeps_its_writer_and_takes_the_kind_s_ending() -> None:
    """pc09 (2026-11-29): write_document of "Documents/TechCompanies" had become a plain-text
    file named so, where a Writer document was asked."""
    document = _swapped("write_document", path="Documents/TechCompanies", text="a")
    assert (document.skill, document.args["path"]) == (
        "write_document",
        "Documents/TechCompanies.docx",
    )
    check_program(Program(steps=[document]), default_catalog().for_apps(APPS), list(APPS))
    # A plain-text file may have a bare name; a reader is not given an ending.
    assert _swapped("write_text_file", path="Documents/notes", text="a").args["path"] == (
        "Documents/notes"
    )
    read = _swapped("read_document", path="Documents/TechCompanies")
    assert (read.skill, read.args["path"]) == ("read_document", "Documents/TechCompanies")


def test_the_manager_takes_the_swapped_call_without_asking_again() -> None:
    program = {
        "steps": [
            {
                "id": "s1",
                "skill": "write_text_file",
                "args": {"path": "Documents/TechCompanies.docx", "text": "Two paragraphs"},
            }
        ]
    }
    models = ScriptedModels(manager=[json.dumps(program)])
    manager = Manager(
        models.for_role("manager"), apps=APPS, skills=default_catalog().for_apps(APPS)
    )
    outcome = manager.plan("Save two paragraphs about tech companies as TechCompanies.docx")
    assert not outcome.fallback
    (subtask,) = outcome.plan.subtasks
    assert subtask.skill == "write_document" and not subtask.doubt
    assert len(models.backends["manager"].requests) == 1
