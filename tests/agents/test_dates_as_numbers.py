"""A value one step takes as a date and another computes with as a number is a doubt on the
computing step (the program a rewording of pc05 wrote at ce77147)."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs

from pcagent.agents.dates_as_numbers import dates_as_numbers
from pcagent.agents.doubts import Evidence
from pcagent.agents.program import ProgramStep
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "How many days lie between International Labour Day and American Independence Day in 2025? "
    "Could you look both dates up online and work out the gap in Galculator?"
)


def _found(step_id: str, holiday: str) -> list[dict]:
    search = {"id": f"s{int(step_id[1:]) - 1}", "skill": "web_search", "args": {"query": holiday}}
    extract = {
        "id": step_id,
        "skill": "extract_values",
        "args": {"text": {"from": search["id"]}, "names": ["date"], "what": f"{holiday}'s date"},
    }
    return [search, extract]


DAYS = {
    "id": "s5",
    "skill": "days_between",
    "args": {"start": {"from": "s2", "key": "date"}, "end": {"from": "s4", "key": "date"}},
}


def _calculate(expression: str) -> dict:
    return {"id": "s6", "skill": "calculate", "args": {"expression": expression}}


def test_a_found_date_computed_with_on_the_calculator_is_the_step_s_own_doubt() -> None:
    steps = [*_found("s2", "Labour Day"), *_found("s4", "Independence Day"), DAYS]
    (doubt,) = dates_as_numbers(as_program(*steps, _calculate("({s5} - {s2}) / 7")), CATALOG)
    assert doubt.step == "s6" and doubt.own
    assert "{s2}, a date (s5 takes it as one)" in doubt.problem
    assert "compute with what s5 works out of it ({s5})" in doubt.problem
    keyed = as_program(*steps, _calculate("{s4.date} - 1"))
    assert "{s4.date}, a date" in dates_as_numbers(keyed, CATALOG)[0].problem
    program = as_program(*steps, _calculate("({s5} - {s2}) / 7"))
    assert doubt in Evidence([SAID]).doubts(program, CATALOG)


def test_the_days_worked_out_or_a_date_taken_by_a_finished_step_are_judged_alike() -> None:
    steps = [*_found("s2", "Labour Day"), *_found("s4", "Independence Day"), DAYS]
    assert dates_as_numbers(as_program(*steps, _calculate("{s5} / 7")), CATALOG) == []
    # a re-plan: the days were counted by a finished step
    finished = [ProgramStep.model_validate(step) for step in steps]
    later = as_program(_calculate("{s5} - {s2.date}"))
    assert [d.step for d in dates_as_numbers(later, CATALOG, finished)] == ["s6"]
    assert dates_as_numbers(as_program(_calculate("{s5} - 3")), CATALOG, finished) == []


def test_no_gold_program_is_doubted() -> None:
    for task, program in gold_programs():
        assert dates_as_numbers(program, CATALOG) == [], task.id
