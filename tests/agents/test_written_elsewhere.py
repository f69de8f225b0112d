"""A file written in an application not asked for, while one asked for is only read in, is a
doubt naming the asked application's writers (the program a rewording of pc21 wrote)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program, gold_programs
from tests.agents.scripted import ScriptedModels

from pcagent.agents.doubts import Evidence
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.named_apps import AskedApp
from pcagent.agents.program import ProgramStep
from pcagent.agents.written_elsewhere import written_elsewhere
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOC = "Documents/test_doc3.docx"
SAID = (
    "Translate the Chinese text of test_doc3.docx into English: open the file from the Documents "
    "folder in Thunar, type the English version into a fresh Writer document, and store it in "
    "Documents as translation."
)
ASKED = (AskedApp("writer", "Writer"), AskedApp("file_manager", "Thunar"))
READ = {"id": "s1", "skill": "read_document", "args": {"path": DOC}}
TRANSLATE = {
    "id": "s2",
    "skill": "translate_text",
    "args": {"text": {"from": "s1"}, "language": "English"},
}
TYPE = {"id": "s3", "skill": "type_in_editor", "args": {"text": {"from": "s2"}}}
WRITE = {
    "id": "s4",
    "skill": "write_text_file",
    "args": {"path": "Documents/translation", "text": {"from": "s3"}, "append": True},
}
OPEN = {"id": "s5", "skill": "open_file", "args": {"path": DOC}}


def test_a_text_file_written_where_the_writer_only_reads_is_doubted() -> None:
    program = as_program(READ, TRANSLATE, TYPE, WRITE, OPEN)
    (doubt,) = written_elsewhere(program, ASKED, CATALOG)
    assert doubt.step == "s4" and doubt.skills == ("write_document",)
    assert doubt.own and doubt.skill_instead
    assert "text_editor" in doubt.problem and '("Writer")' in doubt.problem
    assert doubt in Evidence([SAID], asked_apps=ASKED).doubts(program, CATALOG)


def test_a_writer_that_writes_or_a_text_editor_asked_for_is_no_doubt() -> None:
    document = {"id": "s4", "skill": "write_document",
                "args": {"path": "Documents/translation.docx", "text": {"from": "s2"}}}  # fmt: skip
    assert written_elsewhere(as_program(READ, TRANSLATE, document), ASKED, CATALOG) == []
    program = as_program(READ, TRANSLATE, WRITE)
    editor = (*ASKED, AskedApp("text_editor", "a text file"))
    assert written_elsewhere(program, editor, CATALOG) == []
    assert written_elsewhere(program, (), CATALOG) == []
    screen = ProgramStep(id="s9", skill="gui", app="writer", task="type the text")
    with_screen = as_program(READ, TRANSLATE, WRITE).model_copy(
        update={"steps": [*program.steps, screen]}
    )
    assert written_elsewhere(with_screen, ASKED, CATALOG) == []  # a screen step may write
    done = [ProgramStep.model_validate(READ)]
    rest = as_program(TRANSLATE, WRITE)
    assert [d.step for d in written_elsewhere(rest, ASKED, CATALOG, done)] == ["s4"]


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    for task, program in gold_programs():
        asked = [AskedApp(app, app) for app in task.apps]
        assert written_elsewhere(program, asked, CATALOG) == [], task.id


def test_the_step_is_asked_for_again_alone_under_the_asked_application_s_writers() -> None:
    """A rewording of pc21 at 27d0e28 (2026-12-07): re-asked with the whole program, the
    Manager wrote the text file again; the step alone is now offered only the writer's
    skills that write a file, and no screen step."""
    apps = {"writer": "documents", "text_editor": "plain text files"}
    catalog = CATALOG.for_apps(apps)
    editor = {**WRITE, "id": "s3", "args": {**WRITE["args"], "text": {"from": "s2"}}}
    document = {"id": "s3", "skill": "write_document",
                "args": {"path": "Documents/translation.docx", "text": {"from": "s2"}}}  # fmt: skip
    whole = [json.dumps({"steps": [READ, TRANSLATE, editor]})] * PROGRAM_ATTEMPTS
    models = ScriptedModels(manager=[*whole, json.dumps({"steps": [document]})])
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=catalog,
        readings=InstructionReadings(apps=lambda _: (ASKED[0],)),
    )
    subtasks = manager.plan(SAID).plan.subtasks
    assert [s.skill for s in subtasks][2:] == ["write_document"] and not any(
        s.doubt for s in subtasks
    )
    alone = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    branches = alone.schema["properties"]["steps"]["items"]["anyOf"]
    assert {branch["properties"]["skill"]["const"] for branch in branches} == {"write_document"}
