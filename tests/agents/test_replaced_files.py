"""A file read and then written over with a value not made from it is a doubt: the real
skills' declarations of what they read and write, programs as the Manager writes them."""

from __future__ import annotations

from typing import Any

import pytest
from tests.agents.program_steps import as_program, program

from pcagent.agents.doubts import Evidence
from pcagent.agents.program import ProgramStep
from pcagent.agents.replaced_files import replaced_files
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ = {"skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
PLACE = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["place"], "what": "where the meeting is"},
}
SEARCH = {"skill": "web_search", "args": {"query": "travel time to {s2.place}"}}
FOUND = {
    "skill": "extract_values",
    "args": {"text": {"from": "s3"}, "names": ["minutes"], "what": "the travel time"},
}


def _write(path: str, text: Any, **more: Any) -> dict[str, Any]:
    return {"skill": "write_text_file", "args": {"path": path, "text": text, **more}}


def test_a_note_read_for_its_place_and_written_over_with_a_search_s_count_is_doubted() -> None:
    # The results page's "10 results" over the note: not made from what s1 read.
    unrelated = {"skill": "extract_values", "args": {"text": {"from": "s3"}, "names": ["n"]}}
    search = {"skill": "web_search", "args": {"query": "travel time from the station"}}
    steps = program(READ, PLACE, search, unrelated, _write("~/Documents/memo.txt", {"from": "s4"}))
    (doubt,) = replaced_files(steps, CATALOG)
    assert doubt.step == "s5"
    assert "Documents/memo.txt" in doubt.problem and "s1 read" in doubt.problem
    assert "new file" in doubt.problem and "append" in doubt.problem


@pytest.mark.parametrize(
    "last",
    [
        # Built on what was read, through the steps between: a corrected file written back.
        _write("Documents/memo.txt", "{s4.minutes} minutes to {s2.place}"),
        # Added at the end: what the file held stays.
        _write("Documents/memo.txt", {"from": "s4", "key": "minutes"}, append=True),
        # Another file.
        _write("Documents/travel.txt", {"from": "s4", "key": "minutes"}),
    ],
)
def test_a_file_changed_from_what_was_read_appended_to_or_another_file_is_not(
    last: dict[str, Any],
) -> None:
    assert replaced_files(program(READ, PLACE, SEARCH, FOUND, last), CATALOG) == []


def test_a_document_formatted_in_place_after_it_was_read_is_not_doubted() -> None:
    read = {"skill": "read_document", "args": {"path": "Documents/report.docx"}}
    bold = {
        "skill": "format_paragraphs",
        "args": {"path": "Documents/report.docx", "paragraphs": [0], "bold": True},
    }
    assert replaced_files(program(read, bold), CATALOG) == []


def test_a_file_a_finished_step_read_counts_for_a_re_plan() -> None:
    finished = [ProgramStep.model_validate({"id": "s1", **READ})]
    # The re-plan's own steps are numbered after the finished one.
    later = as_program({"id": "s2", **_write("Documents/memo.txt", "10 results")})
    (doubt,) = replaced_files(later, CATALOG, finished)
    assert doubt.step == "s2" and "s1 read" in doubt.problem
    # The evidence the Manager is re-asked with holds it too.
    evidence = Evidence(given=["Read memo.txt and note 10 results"], finished=finished)
    assert any("writes over" in d.problem for d in evidence.doubts(later, CATALOG))


def test_a_re_plan_after_more_finished_steps_than_a_program_holds_is_judged() -> None:
    # Twelve finished steps and a re-plan of three: more than one program's limit together.
    finished = [
        ProgramStep.model_validate({"id": f"s{n}", **(READ if n == 1 else SEARCH)})
        for n in range(1, 13)
    ]
    later = as_program(
        {"id": "s13", **FOUND},
        {"id": "s14", **_write("Documents/memo.txt", "10 results")},
        {"id": "s15", **_write("Documents/other.txt", "10 results")},
    )
    (doubt,) = replaced_files(later, CATALOG, finished)
    assert doubt.step == "s14"


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    for task in generate_tasks(60, 2031):
        assert task.program is not None
        steps = program(*(s.model_dump(exclude={"id"}) for s in task.program))
        assert replaced_files(steps, CATALOG) == [], task.instruction
