"""A reference's key that can mean one thing only is made to say it; one that could mean several
stays the Manager's to answer (the real skills' declarations)."""

from __future__ import annotations

from typing import Any

import pytest

from pcagent.agents.program import SLOT, Program, ProgramStep, check_program
from pcagent.agents.reference_keys import with_keys_mended
from pcagent.bench.generate import generate_tasks
from pcagent.errors import PlanError
from pcagent.skills import default_catalog

APPS = ["text_editor"]
READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/films.txt"}}


def _extract(*names: str, what: str = "the films' ratings") -> dict[str, Any]:
    args = {"text": {"from": "s1"}, "names": list(names), "what": what}
    return {"id": "s2", "skill": "extract_values", "args": args}


def _tell(text: object) -> dict[str, object]:
    return {"id": "s3", "skill": "tell_user", "args": {"text": text}}


def _mended(*steps: dict[str, object]) -> Program:
    program = Program(steps=[ProgramStep.model_validate(step) for step in steps])
    return with_keys_mended(program, default_catalog().for_apps({"text_editor": "notes"}))


def test_a_key_of_a_one_value_step_is_dropped() -> None:
    keyed = {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1", "key": "text"}}}
    program = _mended(READ, keyed)
    assert program.steps[1].args["text"] == {"from": "s1"}
    slotted = {"id": "s2", "skill": "tell_user", "args": {"text": "It says {s1.text}"}}
    assert _mended(READ, slotted).steps[1].args["text"] == "It says {s1}"


def test_a_key_another_step_extracted_refers_to_that_extraction() -> None:
    save = {"id": "s3", "skill": "write_text_file", "args": {"path": "Documents/a.txt",
            "text": {"from": "s2", "key": "rating"}}}  # fmt: skip
    typed = {
        "id": "s4",
        "skill": "type_in_editor",
        "args": {"text": {"from": "s3", "key": "rating"}},
    }
    program = _mended(READ, _extract("rating"), save, typed)
    assert program.steps[3].args["text"] == {"from": "s2", "key": "rating"}
    told = _tell("It is {s1.rating}")  # a reading's key: the extraction of that name
    assert _mended(READ, _extract("rating"), told).steps[2].args["text"] == "It is {s2.rating}"
    nowhere = {"id": "s4", "skill": "type_in_editor", "args": {"text": {"from": "s3", "key": "x"}}}
    assert _mended(READ, _extract("rating"), save, nowhere).steps[3].args["text"] == {"from": "s3"}


def test_a_key_of_a_one_field_object_names_that_field() -> None:
    program = _mended(READ, _extract("rating"), _tell({"from": "s2", "key": "ratings"}))
    assert program.steps[2].args["text"] == {"from": "s2", "key": "rating"}
    check_program(program, default_catalog(), APPS)  # now valid


def test_a_key_that_could_mean_several_fields_stays_a_problem() -> None:
    program = _mended(READ, _extract("title", "rating"), _tell("{s2.score}"))
    assert program.steps[2].args["text"] == "{s2.score}"
    with pytest.raises(PlanError, match="s2 gives \\['rating', 'title'\\], not 'score'"):
        check_program(program, default_catalog(), APPS)


def test_a_reference_written_as_a_text_is_made_the_reference() -> None:
    """The 1.5B Manager wrote a spreadsheet row as ["Loaves baked", "from:s2"]."""
    rows = {"path": "", "save_as": "Documents/t.xlsx", "rows": [["Loaves", "from:s2"]]}
    sheet = {"id": "s3", "skill": "fill_cells", "args": rows}
    program = _mended(READ, _extract("number"), sheet, _tell("from: s2.number"))
    assert program.steps[2].args["rows"] == [["Loaves", {"from": "s2"}]]
    assert program.steps[3].args["text"] == {"from": "s2", "key": "number"}
    # A text naming no earlier step, or more than the reference, stays a text.
    later = _mended(READ, _tell("from:s3"), _tell("taken from:s1 today") | {"id": "s4"})
    assert [s.args["text"] for s in later.steps[1:]] == ["from:s3", "taken from:s1 today"]


def test_a_text_that_describes_an_extracted_value_is_made_a_reference_to_it() -> None:
    """The 1.5B Manager filled a form's "To" with "the place where John is meeting", the words
    its extract step gave for the place it extracted."""
    found = {"text": {"from": "s1"}, "names": ["place"], "what": "the place where John is meeting"}
    extract = {"id": "s2", "skill": "extract_values", "args": found}
    program = _mended(READ, extract, _tell("The Place where John is  meeting"))
    assert program.steps[2].args["text"] == {"from": "s2", "key": "place"}
    # Other words, or the words of a step extracting several values, stay texts.
    several = {**extract, "args": {**found, "names": ["place", "time"]}}
    kept = _mended(READ, several, _tell("the place where John is meeting"))
    assert kept.steps[2].args["text"] == "the place where John is meeting"
    assert _mended(READ, extract, _tell("the museum")).steps[2].args["text"] == "the museum"
    # A second extraction may say what the first one's value is, in the same words.
    again = {**extract, "id": "s3"}
    assert _mended(READ, extract, again).steps[2].args == found


def _form_mended(extract: dict[str, Any], fields: list[dict[str, str]]) -> Program:
    """READ, ``extract`` and a form filled with ``fields`` mended with every skill (a form is
    the browser's)."""
    form = {"id": "s3", "skill": "fill_form", "args": {"fields": fields}}
    steps = [ProgramStep.model_validate(step) for step in (READ, extract, form)]
    return with_keys_mended(Program(steps=steps), default_catalog())


def test_a_text_that_is_the_name_of_an_extracted_value_is_made_a_reference_to_it() -> None:
    """The 1.5B Manager filled a booking form's "Origin" with the word "start", the name under
    which its extract step had found where the journey starts."""
    extract = _extract("start", "end", what="where it starts, ends")
    found = extract["args"]
    fields = [{"label": "Origin", "value": "Start"}, {"label": "end", "value": "Paris"}]
    mended = _form_mended(extract, fields)
    assert mended.steps[2].args["fields"] == [
        {"label": "Origin", "value": {"from": "s2", "key": "start"}},
        {"label": "end", "value": "Paris"},  # a label stays a label
    ]
    # Another extraction naming a value so keeps its names; a name two steps extracted, or
    # a text that only contains it, stays a text.
    again = {**extract, "id": "s3"}
    assert _mended(READ, extract, again).steps[2].args == found
    twice = _mended(READ, extract, again, {**_tell("start"), "id": "s4"})
    assert twice.steps[3].args["text"] == "start"
    assert _mended(READ, extract, _tell("the start")).steps[2].args["text"] == "the start"


def test_a_value_s_name_with_an_item_s_place_is_made_that_item_s_slot() -> None:
    """A rewording of pc25: the form's "Departure Date" was filled with the text "dates[0]"."""
    extract = _extract("start", "dates", what="where it starts and the dates")
    fields = [
        {"label": "Depart", "value": "dates[0]"},
        {"label": "Return", "value": "Dates [1]"},
        {"label": "Via", "value": "stops[0]"},  # no value of that name: a text
        {"label": "Note", "value": "see dates[0]"},  # more than the name: a text
    ]
    mended = _form_mended(extract, fields)
    assert [field["value"] for field in mended.steps[2].args["fields"]] == [
        "{s2.dates[0]}",
        "{s2.dates[1]}",
        "stops[0]",
        "see dates[0]",
    ]
    assert SLOT.fullmatch("{s2.dates[1]}") is not None  # a slot the run fills


def test_a_reference_by_a_value_s_name_stays_as_written() -> None:
    """pc03 (2026-11-29): ``{"from": "s2", "key": "time"}`` after an extraction of ``time`` and
    ``place`` had its key made a reference to the same value, and the program was refused."""
    extract = _extract("time", "place", what="the meeting's time and place")
    for reference in ({"from": "s2", "key": "time"}, {"from": "s2", "key": "place"}):
        mended = _mended(READ, extract, _tell(reference))
        assert mended.steps[2].args["text"] == reference
        check_program(mended, default_catalog().for_apps({"text_editor": "notes"}), APPS)


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    """The templates' own programs refer to their values properly: nothing to mend."""
    catalog = default_catalog()
    changed = []
    for task in generate_tasks(200, 37):
        gold = Program(steps=task.program or [])
        if task.program and with_keys_mended(gold, catalog) != gold:
            changed.append(task.id)
    assert changed == []


def test_a_key_written_after_the_slot_s_brace_is_put_inside_it() -> None:
    """pc16: the booking form's "From" got the whole object and ".city" after it."""
    fields = [{"label": "From", "value": "{s2}.city"}, {"label": "On", "value": "{s2}.day"}]
    mended = _form_mended(_extract("city", "date", what="where and when"), fields)
    # A field s2 gives goes inside; one it does not give stays as written (a problem to ask).
    assert mended.steps[2].args["fields"] == [
        {"label": "From", "value": "{s2.city}"},
        {"label": "On", "value": "{s2}.day"},
    ]


def test_a_key_of_a_worked_out_value_is_dropped_not_sent_to_an_extraction() -> None:
    """A rewording of pc01 (2026-12-04): ``text`` extracted, moved an hour back, and the alarm
    set at ``{"from": "s3", "key": "text"}``; the moved time is what the alarm takes."""
    moved = {"id": "s3", "skill": "shift_time",
             "args": {"time": {"from": "s2", "key": "text"}, "direction": "before", "hours": 1}}  # fmt: skip
    told = {"id": "s4", "skill": "tell_user", "args": {"text": {"from": "s3", "key": "text"}}}
    program = _mended(READ, _extract("text"), moved, told)
    assert program.steps[3].args["text"] == {"from": "s3"}
    assert program.steps[2].args["time"] == {"from": "s2", "key": "text"}
