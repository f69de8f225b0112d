"""A file only memory's examples name, written with a value found, becomes ``tell_user`` of that
value: the program pc02r1's planner wrote, files the instruction or a value names, steps that
write more than a text, and the Manager's use of the examples it showed."""

from __future__ import annotations

import json
from dataclasses import replace

from tests.agents.program_steps import program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.example_files import with_example_files_told
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.manager_memory import Example
from pcagent.agents.named_apps import AskedApp
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

EXAMPLE = Example(
    "... save it as logbook_entry.txt",
    ({"id": "s3", "skill": "write_text_file",
      "args": {"path": "Documents/logbook_entry.txt", "text": "..."}},),
)  # fmt: skip
EXAMPLES = EXAMPLE.shown()
TASK = "How long is the trip from the Empire State Building to there? Let me know."
FOUND = {"skill": "extract_values", "args": {"text": "38 min", "names": ["m"], "what": "time"}}
WRITE = {
    "skill": "write_text_file",
    "args": {"path": "Documents/logbook_entry.txt", "text": {"from": "s1", "key": "m"}},
}


def test_a_value_written_into_an_example_s_file_is_told() -> None:
    mended = with_example_files_told(program(FOUND, WRITE), default_catalog(), EXAMPLES, [TASK])
    told = mended.steps[1]
    assert (told.id, told.skill, told.args) == ("s2", "tell_user", {"text": WRITE["args"]["text"]})


def test_a_file_the_run_was_given_or_the_examples_do_not_name_is_written() -> None:
    written = program(FOUND, WRITE)
    catalog = default_catalog()
    said = "Put the trip's minutes into logbook_entry.txt"
    assert with_example_files_told(written, catalog, EXAMPLES, [said]) == written
    assert with_example_files_told(written, catalog, EXAMPLES, [TASK, "the logbook_entry"]) == (
        written
    )
    assert with_example_files_told(written, catalog, "", [TASK]) == written
    other = {"skill": "write_text_file", "args": {"path": "Documents/trip.txt", "text": "38"}}
    assert with_example_files_told(program(other), catalog, EXAMPLES, [TASK]) == program(other)
    # A sheet's rows are more than a text: left to the doubt.
    rows = {"rows": [["a", 1]], "save_as": "Documents/logbook_entry.txt"}
    sheet = program({"skill": "fill_cells", "args": rows})
    assert with_example_files_told(sheet, catalog, EXAMPLES, [TASK]) == sheet


def test_a_file_written_in_an_application_the_instruction_asks_for_is_left_to_its_doubt() -> None:
    # A rewording of pc21 (2026-12-06): the translation "into a new LibreOffice Writer
    # document" was told instead, and no document was written.
    written = program(FOUND, WRITE)
    catalog = default_catalog()
    assert with_example_files_told(written, catalog, EXAMPLES, [TASK], ["text_editor"]) == written
    mended = with_example_files_told(written, catalog, EXAMPLES, [TASK], ["writer", "browser"])
    assert mended.steps[1].skill == "tell_user"


def test_the_manager_tells_what_its_program_wrote_into_an_example_s_file() -> None:
    def memory(instruction: str, k: int = 3, *_: object, **__: object) -> list[Example]:
        return [EXAMPLE]

    steps = [{"id": "s1", **FOUND}, {"id": "s2", **WRITE}]
    models = ScriptedModels(manager=[json.dumps({"steps": steps})])
    manager = Manager(
        models.for_role("manager"),
        apps={"text_editor": "notes"},
        skills=default_catalog().for_apps(["text_editor"]),
        memory=memory,
    )
    outcome = manager.plan(TASK)
    assert [s.skill for s in outcome.plan.subtasks] == ["extract_values", "tell_user"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    # Where the applications' reading says the text editor is asked for, the file is wanted:
    # the write is not told; doubted for the example's name on every ask, it is cut, and the
    # step before it says why (nothing is made under an example's name, the run unverified).
    asked = InstructionReadings(apps=lambda _said: (AskedApp("text_editor", "the editor"),))
    models = ScriptedModels(manager=[json.dumps({"steps": steps})] * PROGRAM_ATTEMPTS)
    manager = replace(
        manager, model=models.for_role("manager"), readings=asked, asks_single_steps=False
    )
    outcome = manager.plan(TASK)
    assert [s.skill for s in outcome.plan.subtasks] == ["extract_values"]
    assert "s2 was left out" in (outcome.plan.subtasks[-1].doubt or "")
    assert len(models.prompts("manager")) == PROGRAM_ATTEMPTS


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    """A gold program writes the files its own instruction names, with the examples of other
    tasks shown."""
    catalog = default_catalog()
    tasks = generate_tasks(120, 31)
    shown = "\n".join(
        json.dumps([step.model_dump() for step in task.program or []]) for task in tasks
    )
    changed = []
    for task in tasks:
        if task.program is None:
            continue
        gold = Program(steps=task.program)
        if with_example_files_told(gold, catalog, shown, [task.instruction]) != gold:
            changed.append(task.id)
    assert changed == []
