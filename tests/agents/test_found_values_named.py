"""A found value written out in words by a later step ("the destination", "John's place")
becomes its slot; labels, an extraction's own words, bare words and a name two extractions
find stay as written."""

from __future__ import annotations

from tests.agents.program_steps import as_program

from pcagent.agents.found_values_named import with_found_values_named
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()

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
    mended = with_found_values_named(as_program(READ, FIND, search, form, look, alarm), CATALOG)
    steps = {step.id: step.args for step in mended.steps}
    assert steps["s3"] == {"query": "traffic side in {s2.place}"}
    assert steps["s4"] == {"fields": [{"label": "The place", "value": "{s2.place}"}]}
    assert steps["s5"]["what"] == "minutes to the place"  # an extraction's own words
    assert steps["s6"] == alarm["args"]


def test_a_value_also_referred_to_is_named_so_too_but_bare_words_and_twins_stay() -> None:
    """pc04 (2026-11-29): the destination went into a form by reference and the search still
    said "the destination"."""
    told = {"id": "s3", "skill": "tell_user", "args": {"text": "{s2.place}: the place, the time"}}
    bare = {"id": "s4", "skill": "web_search", "args": {"query": "time zones of place names"}}
    mended = with_found_values_named(as_program(READ, FIND, told, bare), CATALOG)
    assert mended.steps[2].args == {"text": "{s2.place}: {s2.place}, {s2.time}"}
    assert mended.steps[3].args == bare["args"]
    # A name two extractions find: which one "the place" means is not code's to say.
    again = {**FIND, "id": "s5", "args": {**FIND["args"], "text": {"from": "s4"}}}  # type: ignore[dict-item]
    last = {"id": "s6", "skill": "tell_user", "args": {"text": "the place"}}
    twins = with_found_values_named(as_program(READ, FIND, told, bare, again, last), CATALOG)
    assert twins.steps[-1].args == {"text": "the place"}


def test_a_value_s_name_in_angle_brackets_becomes_its_slot() -> None:
    """A rewording of pc25 (2026-12-05): the booking form filled with "<destination>" and
    "<return>", the names of the values the mail's extraction found."""
    found = {**FIND, "args": {**FIND["args"], "names": ["destination", "return"]}}
    form = {
        "id": "s3",
        "skill": "fill_form",
        "args": {
            "fields": [
                {"label": "To", "value": "<destination>"},
                {"label": "Return", "value": "< return >"},
                {"label": "<destination>", "value": "<departure>"},
            ]
        },
    }
    mended = with_found_values_named(as_program(READ, found, form), CATALOG)
    assert mended.steps[2].args["fields"] == [
        {"label": "To", "value": "{s2.destination}"},
        {"label": "Return", "value": "{s2.return}"},
        {"label": "<destination>", "value": "<departure>"},  # a label, and a name none found
    ]


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    """The templates' own programs refer to their values: no phrase to make a slot (two seeds,
    400 tasks, every template among them)."""
    changed = []
    for task in [*generate_tasks(200, 37), *generate_tasks(200, 38)]:
        gold = Program(steps=task.program or [])
        if task.program and with_found_values_named(gold, CATALOG) != gold:
            changed.append(task.id)
    assert changed == []
