"""A number the instruction gives once, written in one column of several rows, is a doubt:
the real skills' declarations, gold programs of generated tasks, and the evidence's wiring."""

from __future__ import annotations

from tests.agents.program_steps import program

from pcagent.agents.doubts import Evidence
from pcagent.agents.given_once import given_once_in_rows
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = "Put the 2024 populations of Peru, Chile and Cuba into a new sheet, names in column A."


def _sheet(rows: list[list[object]]) -> Program:
    return program({"skill": "fill_cells", "args": {"path": "Documents/p.xlsx", "rows": rows}})


def test_a_given_year_written_as_every_row_s_value_is_doubted() -> None:
    rows: list[list[object]] = [["Peru", 2024], ["Chile", "2024"], ["Cuba", 2024]]
    (doubt,) = given_once_in_rows(_sheet(rows), CATALOG, [SAID])
    assert doubt.step == "s1" and doubt.own
    assert "writes 2024 in 3 rows, and the instruction gives it 1 time(s)" in doubt.problem
    # The same through the evidence every program is judged against.
    assert any(
        "2024 in 3 rows" in d.problem for d in Evidence([SAID]).doubts(_sheet(rows), CATALOG)
    )


def test_numbers_given_as_often_as_written_or_in_other_columns_are_not() -> None:
    said = "Write apples 3 and pears 3 into a new sheet, with 2024 in the header."
    rows: list[list[object]] = [["Year", 2024], ["apples", 3], ["pears", 3]]
    assert given_once_in_rows(_sheet(rows), CATALOG, [said]) == []
    # One row holding it, or found values by reference: nothing to judge.
    assert given_once_in_rows(_sheet([["Peru", 2024]]), CATALOG, [SAID]) == []
    found = [["Peru", {"from": "s2", "key": "peru"}], ["Chile", {"from": "s3", "key": "chile"}]]
    assert given_once_in_rows(_sheet(found), CATALOG, [SAID]) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    tasks = [t for t in generate_tasks(300, 31) if t.program]
    sheets = [t for t in tasks if any(s.skill == "fill_cells" for s in t.program or ())]
    assert len(sheets) > 20  # the check is tried on programs that write rows
    for task in tasks:
        steps = Program(steps=list(task.program or ()))
        assert given_once_in_rows(steps, CATALOG, [task.instruction]) == [], task.id
