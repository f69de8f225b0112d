"""A file written with nothing but what was read out of it is a doubt, and a doubted write
into a file that is there is cut: the real skills' declarations, programs as the Manager
writes them."""

from __future__ import annotations

from typing import Any

import pytest
from tests.agents.program_steps import as_program, gold_programs, program

from pcagent.agents.doubted_changes import without_doubted_changes
from pcagent.agents.doubts import Evidence
from pcagent.agents.program import ProgramStep
from pcagent.agents.written_back import written_back
from pcagent.skills import default_catalog

CATALOG = default_catalog()
PLAN = "Documents/travel_plan.txt"
READ = {"skill": "read_text_file", "args": {"path": PLAN}}
CITY = {
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["destination"], "what": "where the trip goes"},
}
CLOCK = {"skill": "add_world_clock", "args": {"city": {"from": "s2", "key": "destination"}}}


def _write(path: str, text: Any, **more: Any) -> dict[str, Any]:
    return {"skill": "write_text_file", "args": {"path": path, "text": text, **more}}


@pytest.mark.parametrize(
    "text",
    [
        {"from": "s2", "key": "destination"},
        "{s2.destination}",
        " {s2.destination}  {s2.destination}\n",
        {"from": "s1"},
    ],
)
@pytest.mark.parametrize("append", [True, False])
def test_a_plan_s_own_destination_written_back_into_it_is_doubted(text: Any, append: bool) -> None:
    # A rewording of pc23 (2026-12-06): the destination appended to the person's own plan.
    steps = program(READ, CITY, CLOCK, _write(f"~/{PLAN}", text, append=append))
    (doubt,) = written_back(steps, CATALOG)
    assert doubt.step == "s4"
    assert PLAN in doubt.problem and "only what s1 read" in doubt.problem


@pytest.mark.parametrize(
    "last",
    [
        # Words of its own beside the value: something new.
        _write(PLAN, "Clock added for {s2.destination}", append=True),
        # Another file.
        _write("Documents/cities.txt", {"from": "s2", "key": "destination"}),
        # A value from elsewhere (a search's reading, a literal).
        _write(PLAN, {"from": "s4"}, append=True),
        _write(PLAN, "Packed", append=True),
    ],
)
def test_new_text_another_file_or_a_value_from_elsewhere_is_not_doubted(
    last: dict[str, Any],
) -> None:
    search = {"skill": "web_search", "args": {"query": "weather in {s2.destination}"}}
    assert written_back(program(READ, CITY, CLOCK, search, last), CATALOG) == []


def test_a_value_from_two_files_is_not_one_file_s_own() -> None:
    other = {"skill": "read_text_file", "args": {"path": "Documents/notes.txt"}}
    both = {
        "skill": "extract_values",
        "args": {"text": "{s1} {s2}", "names": ["city"], "what": "the city"},
    }
    steps = program(READ, other, both, _write(PLAN, {"from": "s3"}, append=True))
    assert written_back(steps, CATALOG) == []


def test_a_file_a_finished_step_read_counts_for_a_re_plan_and_in_the_evidence() -> None:
    finished = [
        ProgramStep.model_validate({"id": "s1", **READ}),
        ProgramStep.model_validate({"id": "s2", **CITY}),
    ]
    later = as_program({"id": "s3", **_write(PLAN, {"from": "s2"}, append=True)})
    (doubt,) = written_back(later, CATALOG, finished)
    assert doubt.step == "s3"
    evidence = Evidence(given=["Read my travel plan"], finished=finished)
    assert any("only what s1 read" in d.problem for d in evidence.doubts(later, CATALOG))
    # A finished step's own write is not doubted again in a re-plan.
    assert written_back(as_program({"id": "s3", **CLOCK}), CATALOG, finished) == []


def test_the_doubted_write_into_the_plan_is_cut_and_the_steps_before_it_run() -> None:
    steps = program(READ, CITY, CLOCK, _write(PLAN, {"from": "s2"}, append=True))
    kept, doubts = without_doubted_changes(
        steps, written_back(steps, CATALOG), CATALOG, is_file=lambda path: path == PLAN
    )
    assert [step.id for step in kept.steps] == ["s1", "s2", "s3"]
    (left,) = doubts
    assert left.step == "s3" and "s4 was left out" in left.problem


def test_no_gold_program_writes_a_file_back() -> None:
    for task, gold in gold_programs():
        assert written_back(gold, CATALOG) == [], task.instruction
