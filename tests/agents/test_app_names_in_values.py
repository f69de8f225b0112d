"""An application's name in a step's values is a doubt: the program pc02r1's planner wrote, the
names the instruction reading found, screen steps, and gold programs of generated tasks read with
every application their instruction names by a program's name."""

from __future__ import annotations

import json

from tests.agents.program_steps import program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.app_names_in_values import (
    app_names_as_contents,
    app_names_in_values,
    file_names,
    without_app_names_in_searches,
    without_words_in_searches,
)
from pcagent.agents.doubts import Evidence
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.named_apps import AskedApp, known_as
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog
from pcagent.text import contains

ASKED = (AskedApp("text_editor", "in Mousepad"), AskedApp("browser", "in Chromium"))
READ = {"skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}


def test_a_name_typed_followed_or_searched_for_is_doubted() -> None:
    typed = {"skill": "type_in_editor", "args": {"text": "Mousepad"}}
    search = {"skill": "web_search", "args": {"query": "Mousepad journey from the Empire State"}}
    follow = {"skill": "follow_link", "args": {"text": "chromium"}}
    doubts = app_names_in_values(program(READ, typed, search, follow), ASKED)
    assert [d.step for d in doubts] == ["s2", "s3", "s4"]
    assert '"mousepad"' in doubts[0].problem and "text_editor" in doubts[0].problem
    assert "browser" in doubts[2].problem


def test_other_words_screen_steps_and_names_not_said_are_no_doubt() -> None:
    search = {"skill": "web_search", "args": {"query": "journey time Empire State Building"}}
    screen = {"skill": "gui", "app": "browser", "task": "open Chromium and look it up"}
    steps = program(READ, search, screen)
    assert app_names_in_values(steps, ASKED) == []
    # The instruction called the editor "the text editor": its program's name is no doubt.
    typed = program({"skill": "type_in_editor", "args": {"text": "notes for Mousepad users"}})
    assert app_names_in_values(typed, (AskedApp("text_editor", "the text editor"),)) == []
    # A name inside a longer word is not the name.
    word = program({"skill": "type_in_editor", "args": {"text": "Mousepads on sale"}})
    assert app_names_in_values(word, ASKED) == []


def test_a_search_leaves_the_names_out_and_is_then_no_doubt() -> None:
    query = "Mousepad Chromium Empire State Building {s2.place} travel time"
    search = {"skill": "web_search", "args": {"query": query}}
    typed = {"skill": "type_in_editor", "args": {"text": "Mousepad"}}
    only_names = {"skill": "web_search", "args": {"query": "chromium  MOUSEPAD"}}
    written = program(READ, search, typed, only_names)
    mended = without_app_names_in_searches(written, ASKED, default_catalog())
    assert mended.steps[1].args["query"] == "Empire State Building {s2.place} travel time"
    assert mended.steps[2].args == typed["args"]  # typed text is no search: a doubt stays
    assert mended.steps[3].args == only_names["args"]  # nothing would be left to search for
    assert [d.step for d in app_names_in_values(mended, ASKED)] == ["s3", "s4"]
    # Names the instruction does not use for an application stay in the words.
    said = (AskedApp("browser", "in the browser"),)
    assert without_app_names_in_searches(written, said, default_catalog()) == written


def test_the_evidence_holds_the_doubt() -> None:
    typed = {"skill": "type_in_editor", "args": {"text": "Mousepad"}}
    evidence = Evidence(given=["Open that in Mousepad"], asked_apps=ASKED)
    doubts = evidence.doubts(program(READ, typed), default_catalog())
    assert any("names the text_editor" in d.problem for d in doubts)


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    tried = 0
    for task in generate_tasks(150, 31):
        asked = tuple(
            AskedApp(app, name)
            for app in task.apps
            for name in known_as(app)
            if contains(task.instruction, name)
        ) or tuple(AskedApp(app, name) for app in task.apps for name in known_as(app))
        tried += bool(asked)
        assert app_names_in_values(Program(steps=list(task.program or ())), asked) == [], task.id
    assert tried > 100


def test_the_manager_keeps_a_search_without_the_names_and_asks_no_more() -> None:
    search = {"id": "s1", "skill": "web_search", "args": {"query": "Chromium travel time"}}
    models = ScriptedModels(manager=[json.dumps({"steps": [search]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "web", "text_editor": "notes"},
        skills=default_catalog().for_apps(["browser", "text_editor"]),
        readings=InstructionReadings(apps=lambda _: ASKED[1:]),
    )
    outcome = manager.plan("look the travel time up in Chromium")
    (step,) = outcome.plan.subtasks
    assert step.args == {"query": "travel time"}
    # No re-ask for the names; the search left last is doubted only once kept (ends_on_reading).
    assert step.doubt.startswith("s1 ends the program on what web_search reads")
    assert len(models.backends["manager"].requests) == 1


def test_the_names_of_files_the_instruction_names_leave_the_search_words() -> None:
    assert file_names(["Documents/memo.txt"]) == ["Documents", "Documents/memo.txt", "memo.txt"]
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
    find = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["place"], "what": "where the meeting is"},
    }
    query = "memo.txt Documents {s2.place} Empire State Building travel time"
    search = {"id": "s3", "skill": "web_search", "args": {"query": query}}
    models = ScriptedModels(manager=[json.dumps({"steps": [read, find, search]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "web", "text_editor": "notes"},
        skills=default_catalog().for_apps(["browser", "text_editor"]),
        readings=InstructionReadings(files=lambda _: ["Documents/memo.txt"]),
        is_file=lambda path: path == "Documents/memo.txt",
    )
    said = "Read Documents/memo.txt, then look up the travel time from the Empire State Building"
    outcome = manager.plan(f"{said} on the web")
    searched = outcome.plan.subtasks[2]
    assert searched.args == {"query": "{s2.place} Empire State Building travel time"}
    # The file's name stays where it is a file: the read, and a search of nothing else.
    assert outcome.plan.subtasks[0].args == read["args"]
    alone = program({"skill": "web_search", "args": {"query": "memo.txt"}})
    assert without_words_in_searches(alone, ["memo.txt"], default_catalog()) == alone


def test_a_cell_or_a_text_that_is_an_application_s_name_is_the_step_s_own_doubt() -> None:
    """A rewording of pc07 (2026-12-04): the prices of "a blank Calc workbook" written as
    "calc"."""
    catalog = default_catalog()
    rows = [["Nvidia", "calc"], ["Apple", "calc"]]
    sheet = {"skill": "fill_cells", "args": {"rows": rows, "save_as": "Documents/stocks.xlsx"}}
    note = {"skill": "write_text_file", "args": {"path": "Documents/a.txt", "text": " Calc "}}
    doubts = app_names_as_contents(program(sheet, note), catalog)
    assert [(d.step, d.own) for d in doubts] == [("s1", True), ("s2", True)]
    assert "'calc', the name of an application" in doubts[0].problem
    assert any("'calc'" in str(d) for d in Evidence(["x"]).doubts(program(sheet), catalog))
    # A name inside a longer text, or in a path, is no doubt.
    said = {"skill": "write_text_file", "args": {"path": "Documents/calc.txt", "text": "Calc it"}}
    assert not app_names_as_contents(program(said), catalog)


def test_no_gold_program_writes_an_application_s_name_as_a_value() -> None:
    catalog = default_catalog()
    for seed in (7, 31, 77, 102, 2041):
        for task in generate_tasks(200, seed):
            if task.program:
                gold = Program(steps=list(task.program))
                assert not app_names_as_contents(gold, catalog), task.instruction
