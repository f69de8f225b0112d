"""A screen step whose task is a skill's name, on one file, becomes that skill's call."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs, mended

from pcagent.agents.skill_named_tasks import with_skill_named_tasks_called
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOC = "Documents/test_doc3.docx"
SAID = (
    "Could you open test_doc3.docx in my Documents folder from Thunar and add an English "
    "translation of its text underneath the original, then save the document?"
)


def _gui(task: str, app: str = "file_manager", files: list[str] | None = None) -> dict[str, object]:
    return {"id": "s4", "skill": "gui", "app": app, "task": task, "files": files or [DOC]}


def test_a_task_that_names_a_skill_of_one_path_is_that_call() -> None:
    """A rewording of pc14 (2026-12-03): the step asked for alone, ``"open_file"`` as a task."""
    program = mended(as_program(_gui("open_file")), SAID, (SAID,))
    assert [(s.id, s.skill, s.args) for s in program.steps] == [("s4", "open_file", {"path": DOC})]


def test_tasks_in_words_other_apps_and_other_files_stay_screen_steps() -> None:
    for step in (
        _gui("open test_doc3.docx"),
        _gui("open_file", app="writer"),  # not an application of the skill's
        _gui("open_file", files=[DOC, "Documents/b.docx"]),
        _gui("write_document"),  # the text it needs is nowhere in the step
    ):
        program = as_program(step)
        assert with_skill_named_tasks_called(program, CATALOG) is program


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for _, gold in gold_programs():
        checked += 1
        assert with_skill_named_tasks_called(gold, CATALOG) is gold
    assert checked >= 300
