"""Every file the instruction names must be worked on by some step: a model lists the names,
code keeps those that stand in the instruction and checks the program against them. The real
model's reading is measured in benchmarks/named_files.py (its quick run is in
tests/test_benchmarks.py, smollm2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import PurePosixPath

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.named_files import FileNamesAgent, kept_names, untouched_files
from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog
from pcagent.text import contains

SAID = (
    'Using the text editor, start a new file with the line "Crates packed: 95" and save it as '
    "reminder_card.txt in the Documents folder, then mail it to ann@example.test."
)


def test_only_names_with_an_ending_that_stand_in_the_instruction_are_kept() -> None:
    listed = [
        "reminder_card.txt",
        "REMINDER_CARD.TXT",  # the same name again
        "report.docx",  # made up
        "Documents/reminder_card.txt",  # with a folder: its name
        "ann@example.test",
        "Documents",
        '"reminder_card.txt"',
    ]
    assert kept_names(listed, SAID) == ("reminder_card.txt",)
    assert kept_names(["Documents/reminder_card.txt"], SAID) == ("reminder_card.txt",)


def test_a_named_file_no_step_works_on_is_a_doubt_on_the_last_step() -> None:
    typed = as_program(
        {"id": "s1", "skill": "type_in_editor", "args": {"text": "Crates packed: 95"}},
        {"id": "s2", "skill": "send_mail", "args": {"to": ["ann@example.test"]}},
    )
    (doubt,) = untouched_files(typed, ["reminder_card.txt"])
    assert doubt.step == "s2"
    assert "names the file reminder_card.txt, and no step reads, writes" in str(doubt)
    saved = as_program(
        {
            "id": "s1",
            "skill": "write_text_file",
            "args": {"path": "Documents/Reminder_Card.txt", "text": "Crates packed: 95"},
        }
    )
    assert untouched_files(saved, ["reminder_card.txt"]) == []
    # Another kind of file of the same name is not it.
    other = as_program(
        {"id": "s1", "skill": "write_text_file", "args": {"path": "garden_tally.txt", "text": "x"}}
    )
    (doubt,) = untouched_files(other, ["garden_tally.xlsx"])
    # The doubt says which skills take a file of that kind.
    assert str(doubt).endswith("(a workbook, which read_sheet, fill_cells, sort_sheet take)")
    (doubt,) = untouched_files(typed, ["notes"])
    assert str(doubt).endswith("with that file")


def test_a_finished_step_a_screen_step_or_an_ending_may_work_on_it() -> None:
    mail = as_program({"id": "s2", "skill": "send_mail", "args": {"to": ["ann@example.test"]}})
    finished = ProgramStep.model_validate(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/notes.txt"}}
    )
    assert untouched_files(mail, ["notes.txt"], [finished]) == []
    screen = as_program(
        {"id": "s1", "skill": "gui", "app": "text_editor", "task": "Save notes.txt as a copy"}
    )
    assert untouched_files(screen, ["notes.txt"]) == []
    by_ending = as_program(
        {
            "id": "s1",
            "skill": "move_files",
            "args": {"from_folder": "Documents", "suffix": ".txt", "into": "Documents/Old"},
        }
    )
    assert untouched_files(by_ending, ["notes.txt"]) == []
    assert untouched_files(by_ending, ["notes.docx"]) != []


def test_a_name_the_program_opens_as_a_web_address_is_used() -> None:
    """pc15 (2026-12-03): "arxiv.org" read as a file, https://arxiv.org/ opened."""
    catalog = default_catalog()
    opened = as_program(
        {"id": "s1", "skill": "open_page", "args": {"address": "https://arxiv.org/"}},
        {"id": "s2", "skill": "follow_result", "args": {"place": 1}},
    )
    assert untouched_files(opened, ["arxiv.org"], catalog=catalog) == []
    # Searched for, the name is no address opened.
    searched = as_program({"id": "s1", "skill": "web_search", "args": {"query": "arxiv.org"}})
    assert untouched_files(searched, ["arxiv.org"], catalog=catalog) != []


def test_the_reader_keeps_what_stands_in_the_instruction_and_survives_no_reply() -> None:
    models = ScriptedModels(named_files=[reply(files=["reminder_card.txt", "report.docx"])])
    reader = FileNamesAgent(models.for_role("named_files"))
    assert reader.named(SAID) == ("reminder_card.txt",)
    assert "Instruction: Using the text editor" in models.prompts("named_files")[0]
    broken = ScriptedModels(named_files=["no json", "none again"])
    assert FileNamesAgent(broken.for_role("named_files")).named(SAID) == ()


def _reader(asked: list[str]) -> Callable[[str], tuple[str, ...]]:
    def names(instruction: str) -> tuple[str, ...]:
        asked.append(instruction)
        return ("reminder_card.txt",)

    return names


def test_the_manager_is_asked_again_for_a_named_file_and_keeps_the_doubt_if_it_stays() -> None:
    typed = {
        "steps": [{"id": "s1", "skill": "type_in_editor", "args": {"text": "Crates packed: 95"}}]
    }
    saved = {
        "steps": [
            {
                "id": "s1",
                "skill": "write_text_file",
                "args": {"path": "Documents/reminder_card.txt", "text": "Crates packed: 95"},
            }
        ]
    }
    apps = {"text_editor": "plain text files", "mail": "e-mail"}
    for later, doubted in (([saved], False), ([typed] * (PROGRAM_ATTEMPTS - 1), True)):
        models = ScriptedModels(manager=[json.dumps(p) for p in (typed, *later)])
        asked: list[str] = []
        names = _reader(asked)

        manager = Manager(
            models.for_role("manager"),
            apps=apps,
            skills=default_catalog(),
            readings=InstructionReadings(files=names),
        )
        outcome = manager.plan(SAID)
        assert asked == [SAID]  # read once, though asked twice
        again = models.backends["manager"].requests[1].messages[-1].text
        assert "names the file reminder_card.txt" in again
        (step,) = outcome.plan.subtasks
        assert bool(step.doubt) is doubted, step


def test_with_the_skills_a_file_is_named_only_by_a_file_a_skill_works_on() -> None:
    # pc19 (2026-12-02): a text composed whose request named the file, the file never written.
    composed = as_program(
        {
            "id": "s1",
            "skill": "compose_text",
            "args": {"request": "Write kth_largest.py in Documents", "paragraphs": 1},
        }
    )
    assert untouched_files(composed, ["kth_largest.py"]) == []  # any literal, as before
    catalog = default_catalog()
    (doubt,) = untouched_files(composed, ["kth_largest.py"], catalog=catalog)
    assert "names the file kth_largest.py" in str(doubt)
    mailed = as_program(
        {
            "id": "s1",
            "skill": "send_mail",
            "args": {"to": ["a@example.test"], "attachments": ["Documents/kth_largest.py"]},
        }
    )
    assert untouched_files(mailed, ["kth_largest.py"], catalog=catalog) == []


def test_no_gold_program_leaves_a_file_its_instruction_names_untouched() -> None:
    catalog = default_catalog()
    tasks = [t for t in generate_tasks(300, 31) if t.program]
    named = 0
    for task in tasks:
        steps = as_program(*(step.model_dump() for step in task.program or ()))
        # The files the gold steps work on (not addresses such as maps.local) that the
        # instruction writes out.
        paths = [
            path
            for step in steps.steps
            if step.skill in catalog
            for one in [catalog.get(step.skill)]
            for path in (*one.read_files(step.args), *one.written_files(step.args))
        ]
        names = [
            PurePosixPath(path).name
            for path in paths
            if contains(task.instruction, PurePosixPath(path).name)
        ]
        named += bool(names)
        assert untouched_files(steps, names, catalog=catalog) == [], task.id
    assert named > 50  # the check is tried on instructions that name files
