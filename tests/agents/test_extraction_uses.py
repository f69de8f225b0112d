"""An extraction whose value a typed parameter takes records that use (the program is the
1.5B Manager's, as recorded on a rewording of pc01, 2026-12-04)."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs, mended

from pcagent.agents.extraction_uses import with_extraction_uses_told
from pcagent.agents.program import check_program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
EXTRACT = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["text"], "what": "the text of the memo"},
}
COMPOSE = {
    "id": "s3",
    "skill": "compose_text",
    "args": {"request": "find the start in {s2.text} of the memo", "facts": "{s2.text}"},
}
ALARM = {"id": "s4", "skill": "set_alarm", "args": {"time": "{s2.text}", "hours_before": 1}}


def test_the_value_an_alarm_takes_records_the_alarm_s_time_as_its_use() -> None:
    written = as_program(READ, EXTRACT, COMPOSE, ALARM)
    told = with_extraction_uses_told(written, CATALOG)
    assert told.steps[1].args == {**EXTRACT["args"], "uses": {"text": "set_alarm.time"}}
    # Nothing else changes, and the program is as valid as before.
    assert [step for step in told.steps if step.id != "s2"] == [
        step for step in written.steps if step.id != "s2"
    ]
    check_program(told, CATALOG, apps=["text_editor", "clock"])


def test_a_reference_object_is_a_use_and_a_text_parameter_is_not() -> None:
    alarm = {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "text"}}}
    note = {
        "id": "s4",
        "skill": "write_text_file",
        "args": {"path": "Documents/a.txt", "text": "{s2.text}"},
    }
    told = with_extraction_uses_told(as_program(READ, EXTRACT, note, alarm), CATALOG)
    assert told.steps[1].args["uses"] == {"text": "set_alarm.time"}


def test_values_used_only_inside_texts_or_by_text_parameters_leave_the_program_as_it_is() -> None:
    note = {
        "id": "s3",
        "skill": "write_text_file",
        "args": {"path": "Documents/a.txt", "text": "{s2.text}"},
    }
    written = as_program(READ, EXTRACT, COMPOSE, note)
    assert with_extraction_uses_told(written, CATALOG) is written


def test_a_told_program_is_told_once_and_a_recorded_use_is_kept() -> None:
    told = with_extraction_uses_told(as_program(READ, EXTRACT, ALARM), CATALOG)
    assert with_extraction_uses_told(told, CATALOG) is told
    recorded = {**EXTRACT, "args": {**EXTRACT["args"], "uses": {"text": "shift_time.time"}}}
    again = with_extraction_uses_told(as_program(READ, recorded, ALARM), CATALOG)
    assert again.steps[1].args["uses"] == {"text": "shift_time.time"}


def test_gold_programs_change_only_in_their_extractions_uses() -> None:
    changed = 0
    for task, program in gold_programs():
        told = with_extraction_uses_told(program, CATALOG)
        for before, after in zip(program.steps, told.steps, strict=True):
            if before == after:
                continue
            changed += 1
            assert after.skill == "extract_values", task.id
            assert {**after.args, "uses": None} == {**before.args, "uses": None}, task.id
            assert set(after.args["uses"]) <= set(after.args["names"])
        check_program(told, CATALOG, apps=list(task.apps))
    assert changed, "no gold extraction feeds a typed parameter: the test tests nothing"


def test_the_manager_s_mends_record_the_uses() -> None:
    told = mended(as_program(READ, EXTRACT, ALARM), "an alarm an hour before the second entry")
    assert told.steps[1].args["uses"] == {"text": "set_alarm.time"}
