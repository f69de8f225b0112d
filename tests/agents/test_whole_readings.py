"""A file's or a page's whole text given where one value is wanted is a doubt; given to what
writes, types, sends, tells or reads text it is not."""

from __future__ import annotations

from typing import Any

from tests.agents.program_steps import FIND_PLACE, READ_MEMO, as_program, gold_programs

from pcagent.agents.doubts import Evidence
from pcagent.agents.whole_readings import whole_readings
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ, FIND = READ_MEMO, FIND_PLACE
MAPS = {"id": "s3", "skill": "open_page", "args": {"address": "maps.local"}}
FORM = {
    "id": "s4",
    "skill": "fill_form",
    "args": {
        "fields": [{"label": "From", "value": "Home"}, {"label": "To", "value": "{s2.place}"}]
    },
}


def _doubted(*steps: dict[str, Any]) -> list[str]:
    return [doubt.step for doubt in whole_readings(as_program(*steps), CATALOG)]


def test_a_page_computed_with_is_a_doubt_naming_the_extraction_to_write() -> None:
    """pc02 (2026-12-01): the directions page put into the calculator's expression."""
    compute = {"id": "s5", "skill": "calculate", "args": {"expression": "60 * (24 - {s4})"}}
    program = as_program(READ, FIND, MAPS, FORM, compute)
    (doubt,) = whole_readings(program, CATALOG)
    assert doubt.step == "s5" and "s4 gives the page's text" in doubt.problem
    assert '"text": {"from": "s4"}' in doubt.problem
    # Judged with the other doubts the Manager is re-asked with.
    evidence = Evidence(given=["Tell me how long it takes from Home to the meeting place"])
    assert any(d.problem == doubt.problem for d in evidence.doubts(program, CATALOG))


def test_a_reading_filled_into_a_form_a_sheet_or_a_search_is_a_doubt() -> None:
    whole_note = dict(FORM, args={"fields": [{"label": "To", "value": {"from": "s1"}}]})
    assert _doubted(READ, MAPS, whole_note) == ["s4"]
    cells = {"id": "s2", "skill": "fill_cells", "args": {"rows": [["Total", {"from": "s1"}]]}}
    assert _doubted(READ, cells) == ["s2"]
    search = {"id": "s2", "skill": "web_search", "args": {"query": "flights to {s1}"}}
    assert _doubted(READ, search) == ["s2"]
    alarm = {"id": "s2", "skill": "set_alarm", "args": {"time": {"from": "s1", "key": "time"}}}
    assert _doubted(READ, alarm) == ["s2"]


def test_a_reading_written_told_or_read_by_a_language_skill_is_no_doubt() -> None:
    copy = {
        "id": "s2",
        "skill": "write_text_file",
        "args": {"path": "Documents/copy.txt", "text": {"from": "s1"}},
    }
    told = {"id": "s2", "skill": "tell_user", "args": {"text": "The note says: {s1}"}}
    mail = {"id": "s2", "skill": "send_mail", "args": {"to": ["a@b.c"], "body": {"from": "s1"}}}
    summary = {
        "id": "s2",
        "skill": "compose_text",
        "args": {"request": "a summary", "facts": "{s1}"},
    }
    for step in (copy, told, mail, summary):
        assert not _doubted(READ, step), step
    # The value found in it, and a screen step shown the reading, are not judged either.
    form = dict(FORM, id="s4")
    assert not _doubted(READ, FIND, MAPS, form)
    gui = {"id": "s2", "skill": "gui", "app": "clock", "task": "set it", "uses": ["s1"]}
    assert not _doubted(READ, gui)


def test_a_search_sorted_whole_is_left_to_the_search_for_each() -> None:
    """A rewording of pc08 (2026-12-03): told to extract, the re-ask dropped the sort."""
    search = {"id": "s1", "skill": "web_search", "args": {"query": "population of a, b, c"}}
    items = {"id": "s2", "skill": "sort_items", "args": {"items": {"from": "s1"}}}
    assert whole_readings(as_program(search, items), default_catalog()) == []
    keyed = {"id": "s2", "skill": "sort_items", "args": {"items": [
        {"label": "a", "value": {"from": "s1"}}]}}  # fmt: skip
    (doubt,) = whole_readings(as_program(search, keyed), default_catalog())
    assert "extract_values" in doubt.problem


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    checked = 0
    for task, program in gold_programs():
        checked += 1
        assert not whole_readings(program, CATALOG), (task.id, task.program)
    assert checked >= 300


def test_each_declared_text_parameter_is_a_parameter_of_its_skill() -> None:
    declared = [(one.name, name) for one in CATALOG for name in one.texts]
    assert len(declared) >= 5
    for skill_name, name in declared:
        assert name in CATALOG.get(skill_name).parameters.model_fields, (skill_name, name)
