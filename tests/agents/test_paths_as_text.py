"""A file's path written as a text is a doubt: the real skills' declarations, gold programs of
generated tasks, and the evidence's wiring."""

from __future__ import annotations

from tests.agents.program_steps import program

from pcagent.agents.doubts import Evidence
from pcagent.agents.paths_as_text import paths_as_text
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOC = "Documents/test_doc1.docx"
SAID = f"Make the title of {DOC} one font size step larger and save it."
OPEN = {"skill": "open_file", "args": {"path": DOC}}


def _appended(text: str) -> Program:
    return program(
        OPEN, {"skill": "write_document", "args": {"path": DOC, "text": text, "append": True}}
    )


def test_a_path_or_a_file_name_written_as_the_text_is_doubted() -> None:
    for text in (DOC, "~/Documents/test_doc1.docx", "test_doc1.docx"):
        (doubt,) = paths_as_text(_appended(text), CATALOG)
        assert doubt.step == "s2" and doubt.own
        assert "file path" in doubt.problem and "as its text" in doubt.problem
    # Through the evidence every program is judged against.
    assert any("file path" in d.problem for d in Evidence([SAID]).doubts(_appended(DOC), CATALOG))


def test_a_text_that_only_names_a_file_among_other_words_is_not() -> None:
    assert paths_as_text(_appended("The notes are in test_doc1.docx."), CATALOG) == []
    # A path in a parameter that takes a path, and a text of another file, are not judged.
    other = program(
        {"skill": "write_text_file", "args": {"path": "Documents/a.txt", "text": "b.txt"}}
    )
    assert paths_as_text(other, CATALOG) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    tasks = [t for t in generate_tasks(300, 31) if t.program]
    writers = [t for t in tasks if any(s.skill == "write_document" for s in t.program or ())]
    assert len(writers) > 10  # tried on programs that write documents
    for task in tasks:
        assert paths_as_text(Program(steps=list(task.program or ())), CATALOG) == [], task.id
