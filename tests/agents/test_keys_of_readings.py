"""A value's name as the key of a reading becomes an extraction of that value (the program is
the 1.5B Manager's, as recorded on a rewording of pc24, 2026-12-03)."""

from __future__ import annotations

import pytest
from tests.agents.program_steps import as_program, gold_programs
from tests.agents.program_steps import mended as mended_by_manager

from pcagent.agents.keys_of_readings import with_keys_of_readings_extracted
from pcagent.agents.program import check_program
from pcagent.errors import PlanError
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SEARCH = {"id": "s1", "skill": "web_search", "args": {"query": "new Nintendo Switch console"}}
NOTE = {
    "id": "s2",
    "skill": "write_text_file",
    "args": {"path": "Documents/switch_price.txt", "text": {"from": "s1", "key": "price"}},
}


def test_a_price_asked_of_a_search_page_is_extracted_from_it_first() -> None:
    mended = with_keys_of_readings_extracted(as_program(SEARCH, NOTE), CATALOG)
    assert [step.skill for step in mended.steps] == [
        "web_search",
        "extract_values",
        "write_text_file",
    ]
    extraction = mended.steps[1]
    assert extraction.id == "s3"
    assert extraction.args == {"text": {"from": "s1"}, "names": ["price"], "what": "the price"}
    assert mended.steps[2].args["text"] == {"from": "s3", "key": "price"}
    # The mended program passes the checks the written one failed (a key of one value).
    check_program(mended, CATALOG, apps=["browser", "text_editor"])
    with pytest.raises(PlanError, match="one value, not an object"):
        check_program(as_program(SEARCH, NOTE), CATALOG, apps=["browser", "text_editor"])


def test_slots_and_two_uses_of_one_name_share_one_extraction() -> None:
    note = {
        "id": "s2",
        "skill": "write_text_file",
        "args": {"path": "a.txt", "text": "Cheapest: {s1.shop} at {s1.price}"},
    }
    mail = {
        "id": "s3",
        "skill": "send_mail",
        "args": {
            "to": "ann@example.com",
            "subject": "Price",
            "body": {"from": "s1", "key": "price"},
        },
    }
    mended = with_keys_of_readings_extracted(as_program(SEARCH, note, mail), CATALOG)
    assert [step.id for step in mended.steps] == ["s1", "s4", "s5", "s2", "s3"]
    assert [step.args["names"] for step in mended.steps[1:3]] == [["shop"], ["price"]]
    assert mended.steps[3].args["text"] == "Cheapest: {s4.shop} at {s5.price}"
    assert mended.steps[4].args["body"] == {"from": "s5", "key": "price"}


def test_a_key_that_names_the_reading_itself_or_a_value_with_fields_is_left() -> None:
    for key in ("text", "page", "content"):
        whole = dict(NOTE, args={**NOTE["args"], "text": {"from": "s1", "key": key}})
        program = as_program(SEARCH, whole)
        assert with_keys_of_readings_extracted(program, CATALOG) == program
    found = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["price"], "what": "the lowest price"},
    }
    note = dict(NOTE, id="s3", args={**NOTE["args"], "text": {"from": "s2", "key": "price"}})
    program = as_program(SEARCH, found, note)
    assert with_keys_of_readings_extracted(program, CATALOG) == program


def test_the_manager_mends_apply_it_before_keys_are_dropped() -> None:
    said = "Where is a Switch cheapest? Note the price in switch_price.txt."
    mended = mended_by_manager(as_program(SEARCH, NOTE), said)
    assert mended.steps[-1].args["text"] == {"from": "s3", "key": "price"}


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for _task, gold in gold_programs():
        checked += 1
        assert with_keys_of_readings_extracted(gold, CATALOG) == gold
    assert checked >= 300


def test_a_new_step_s_id_repeats_no_step_already_run() -> None:
    """A re-plan's program refers to finished steps; the extraction's id comes after all."""
    search = dict(SEARCH, id="s7")
    note = dict(NOTE, id="s8", args={**NOTE["args"], "text": {"from": "s7", "key": "price"}})
    mended = with_keys_of_readings_extracted(as_program(search, note), CATALOG, ["s1", "s2", "s12"])
    assert [step.id for step in mended.steps] == ["s7", "s13", "s8"]


def test_a_key_an_earlier_step_extracts_from_the_reading_refers_to_that_extraction() -> None:
    """pc03's program at 2e14a63: the alarm's time referred to the map page's "time", which s5
    already extracts from it; a second extraction of "the time" answered a time the page does
    not hold."""
    page = {"id": "s4", "skill": "open_page", "args": {"address": "maps.local"}}
    found = {
        "id": "s5",
        "skill": "extract_values",
        "args": {"text": {"from": "s4"}, "names": ["time"], "what": "the travel time"},
    }
    alarm = {
        "id": "s6",
        "skill": "set_alarm",
        "args": {"time": {"from": "s4", "key": "time"}, "minutes_before": 15},
    }
    mended = with_keys_of_readings_extracted(as_program(page, found, alarm), CATALOG)
    assert [step.id for step in mended.steps] == ["s4", "s5", "s6"]
    assert mended.steps[2].args["time"] == {"from": "s5", "key": "time"}
    # An extraction after the step that refers to the key is no help: a new one comes first.
    later = as_program(page, dict(alarm, id="s5"), dict(found, id="s6"))
    mended = with_keys_of_readings_extracted(later, CATALOG)
    assert [step.skill for step in mended.steps] == [
        "open_page",
        "extract_values",
        "set_alarm",
        "extract_values",
    ]
    assert mended.steps[2].args["time"] == {"from": "s7", "key": "time"}
