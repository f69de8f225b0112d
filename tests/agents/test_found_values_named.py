"""A found value written out in words by a later step ("the destination", "John's place")
becomes its slot, where no step refers to it; labels, an extraction's own words and values
already referred to stay as written."""

from __future__ import annotations

from tests.agents.program_steps import as_program

from pcagent.agents.found_values_named import with_found_values_named

READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/trip.txt"}}
FIND = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["time", "place"], "what": "the time and place"},
}


def test_a_phrase_naming_an_unused_value_becomes_its_slot() -> None:
    search = {"id": "s3", "skill": "web_search", "args": {"query": "traffic side in the place"}}
    form = {
        "id": "s4",
        "skill": "fill_form",
        "args": {"fields": [{"label": "The place", "value": "John's place"}]},
    }
    look = {
        "id": "s5",
        "skill": "extract_values",
        "args": {"text": {"from": "s4"}, "names": ["minutes"], "what": "minutes to the place"},
    }
    alarm = {"id": "s6", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}
    mended = with_found_values_named(as_program(READ, FIND, search, form, look, alarm))
    steps = {step.id: step.args for step in mended.steps}
    assert steps["s3"] == {"query": "traffic side in {s2.place}"}
    assert steps["s4"] == {"fields": [{"label": "The place", "value": "{s2.place}"}]}
    assert steps["s5"]["what"] == "minutes to the place"  # an extraction's own words
    assert steps["s6"] == alarm["args"]


def test_a_value_already_referred_to_or_a_bare_word_stays() -> None:
    told = {"id": "s3", "skill": "tell_user", "args": {"text": "{s2.place}, at the time"}}
    bare = {"id": "s4", "skill": "web_search", "args": {"query": "time zones of place names"}}
    program = as_program(READ, FIND, told, bare)
    mended = with_found_values_named(program)
    # "the time": time is unused, so it is the slot; "place" is used already; bare words stay.
    assert mended.steps[2].args == {"text": "{s2.place}, at {s2.time}"}
    assert mended.steps[3].args == bare["args"]
