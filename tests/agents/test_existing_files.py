"""A program reads only files that are there: what each skill reads is declared with it, files an
earlier step writes count, and the run (not the agent) says whether a path names a file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels
from tests.runtime.memory_desktop import MemoryDesktop

from pcagent.agents.existing_files import missing_files
from pcagent.agents.manager import Manager
from pcagent.runtime.loop.desktop_state import home_file_check
from pcagent.skills import default_catalog

THERE = {"Documents/memo.txt"}
APPS = {"text_editor": "plain text files", "writer": "documents"}


def _missing(*steps: dict[str, object]) -> list[str]:
    return missing_files(as_program(*steps), default_catalog(), THERE.__contains__)


def test_a_read_of_a_file_that_is_not_there_is_a_problem() -> None:
    (problem,) = _missing(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/price.txt"}}
    )
    assert problem.startswith("s1: 'Documents/price.txt' is no file in HOME")
    # The problem names the skills that make a file without reading one (a mail's attachment
    # saved), and none that changes a file that must be there.
    assert "save_attachment" in problem and "write_text_file" in problem
    assert "format_paragraphs" not in problem
    assert not _missing(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
    )
    # A document to format must be there too: it is changed, not made.
    (changed,) = _missing(
        {"id": "s1", "skill": "format_paragraphs", "args": {"path": "a.docx", "bold": True}}
    )
    assert changed.startswith("s1: 'a.docx' is no file")


def test_a_file_an_earlier_step_writes_or_a_screen_step_may_make_is_not_a_problem() -> None:
    write = {"id": "s1", "skill": "write_text_file", "args": {"path": "new.txt", "text": "x"}}
    read = {"id": "s2", "skill": "read_text_file", "args": {"path": "new.txt"}}
    assert not _missing(write, read)
    gui = {"id": "s1", "skill": "gui", "app": "text_editor", "task": "make new.txt"}
    assert not _missing(gui, read)
    by_reference = {"id": "s2", "skill": "read_text_file", "args": {"path": {"from": "s1"}}}
    assert not _missing(write, by_reference)


def test_a_file_an_earlier_step_moved_is_read_at_its_new_place() -> None:
    """A planner moved a report into a new folder, then attached it from the old one."""
    move = {
        "id": "s1",
        "skill": "move_files",
        "args": {"files": ["Documents/memo.txt"], "into": "Documents/Done"},
    }

    def mail(path: str) -> dict[str, object]:
        return {
            "id": "s2",
            "skill": "send_mail",
            "args": {"to": ["a@b.test"], "attachments": [path]},
        }

    (problem,) = _missing(move, mail("~/Documents/memo.txt"))
    assert problem.startswith("s2: 'Documents/memo.txt' is no longer there: s1 moves it to ")
    assert "'Documents/Done/memo.txt'" in problem
    assert not _missing(move, mail("Documents/Done/memo.txt"))
    # A copy leaves the original; an attachment nobody has is a problem like any read.
    copy = {**move, "args": {**move["args"], "keep_originals": True}}  # type: ignore[dict-item]
    assert not _missing(copy, mail("Documents/memo.txt"))
    (invented,) = _missing(mail("Documents/report.pdf"))
    assert invented.startswith("s2: 'Documents/report.pdf' is no file in HOME")
    # The files to move must be there too (a planner moved another task's files).
    (copied,) = _missing({**move, "args": {"files": ["Documents/packing_list.txt"], "into": "A"}})
    assert copied.startswith("s1: 'Documents/packing_list.txt' is no file in HOME")


def test_the_manager_is_re_asked_with_the_missing_file_and_takes_the_corrected_program() -> None:
    wrong = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/price.txt"}}
    right = {
        "id": "s1",
        "skill": "write_text_file",
        "args": {"path": "Documents/price.txt", "text": "9"},
    }
    models = ScriptedModels(
        manager=[json.dumps({"steps": [wrong]}), json.dumps({"steps": [right]})]
    )
    manager = Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        is_file=THERE.__contains__,
    )
    outcome = manager.plan('Write "9" into Documents/price.txt')
    assert not outcome.fallback and outcome.plan.subtasks[0].skill == "write_text_file"
    reask = models.backends["manager"].requests[1].messages[-1].text
    assert "'Documents/price.txt' is no file in HOME" in reask


def test_the_run_answers_from_the_desktop_s_home(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "memo.txt").write_text("x")
    is_file = home_file_check(MemoryDesktop(tmp_path))
    assert is_file is not None
    assert is_file("Documents/memo.txt") and is_file("~/Documents/memo.txt")
    assert not is_file("Documents/price.txt") and not is_file("Documents")
    # As the actions that read it find it: a bare name in the one folder that holds it; never
    # out of HOME; no guess between two files of one name.
    assert is_file("memo.txt") and not is_file("../memo.txt") and not is_file("/etc/hostname")
    (tmp_path / "memo.txt").write_text("y")
    assert is_file("memo.txt") and not is_file("Downloads/memo.txt")
    (tmp_path / "Downloads").mkdir()
    (tmp_path / "Downloads" / "memo.txt").write_text("z")
    assert not is_file("Downloads/other/memo.txt")


def test_a_new_file_written_where_a_file_was_moved_away_from_is_a_problem() -> None:
    """A planner moved a formatted document into a folder, then wrote a new one in its place."""
    move = {
        "id": "s1",
        "skill": "move_files",
        "args": {"files": ["Documents/memo.txt"], "into": "Documents/Done"},
    }
    again = {"id": "s2", "skill": "write_text_file", "args": {"path": "Documents/memo.txt"}}
    (problem,) = _missing(move, {**again, "args": {**again["args"], "text": "x"}})  # type: ignore[dict-item]
    assert problem == (
        "s2: 'Documents/memo.txt' is written where s1 moved it away from (to "
        "'Documents/Done/memo.txt'): work on a moved file at its new place"
    )
    there = {**again, "args": {"path": "Documents/Done/memo.txt", "text": "x"}}
    assert not _missing(move, there)
    # A change in place (read and written) is named once, as a read of a file no longer there.
    bold = {
        "id": "s2",
        "skill": "format_paragraphs",
        "args": {"path": "Documents/memo.docx", "paragraphs": [0], "bold": True},
    }
    moved_doc = {**move, "args": {"files": ["Documents/memo.docx"], "into": "Documents/Done"}}
    program = as_program(moved_doc, bold)
    (read,) = missing_files(program, default_catalog(), {"Documents/memo.docx"}.__contains__)
    assert "is no longer there" in read


# --- a reading of a file that is not there, for nothing, is left out -----------------------------


def test_a_read_of_a_missing_file_whose_value_nobody_uses_is_left_out() -> None:
    from pcagent.agents.existing_files import without_unused_missing_reads

    read_new = {"id": "s1", "skill": "read_document", "args": {"path": "Documents/New.docx"}}
    compose = {"id": "s2", "skill": "compose_text", "args": {"request": "two paragraphs"}}
    write = {
        "id": "s3",
        "skill": "write_document",
        "args": {"path": "Documents/New.docx", "text": {"from": "s2"}},
    }
    program = as_program(read_new, compose, write)
    mended = without_unused_missing_reads(program, default_catalog(), THERE.__contains__)
    assert [s.id for s in mended.steps] == ["s2", "s3"]
    assert missing_files(mended, default_catalog(), THERE.__contains__) == []
    # Used by a later step, or a file that is there: kept (the first a problem, as before).
    used = as_program(read_new, {**compose, "args": {"request": "sum up", "facts": {"from": "s1"}}})
    assert without_unused_missing_reads(used, default_catalog(), THERE.__contains__) == used
    there = as_program({**read_new, "args": {"path": "Documents/memo.txt"}}, compose)
    assert without_unused_missing_reads(there, default_catalog(), THERE.__contains__) == there


def test_the_manager_runs_the_program_without_the_read_of_a_document_to_be_made() -> None:
    steps = [
        {"id": "s1", "skill": "read_document", "args": {"path": "Documents/New.docx"}},
        {"id": "s2", "skill": "compose_text", "args": {"request": "two paragraphs"}},
        {
            "id": "s3",
            "skill": "write_document",
            "args": {"path": "Documents/New.docx", "text": {"from": "s2"}},
        },
    ]
    models = ScriptedModels(manager=[json.dumps({"steps": steps})])
    manager = Manager(
        models.for_role("manager"),
        apps={"writer": "documents"},
        skills=default_catalog().for_apps({"writer": "documents"}),
        is_file=THERE.__contains__,
    )
    outcome = manager.plan("Write two paragraphs into a new document New")
    assert not outcome.fallback
    assert [s.skill for s in outcome.plan.subtasks] == ["compose_text", "write_document"]
    assert len(models.backends["manager"].requests) == 1
