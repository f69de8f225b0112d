"""A number made up for a cell, where one value found or worked out goes unused, becomes that
value; anything less clear is left to the doubts."""

from __future__ import annotations

import json
from typing import Any

from tests.agents.program_steps import as_program, gold_programs, mended, planned_alone
from tests.agents.scripted import ScriptedModels

from pcagent.agents.invented_cells import (
    with_unused_rows_in_invented_list,
    with_unused_value_in_invented_cell,
    with_unused_value_in_ungiven_field,
    with_unused_values_in_labelled_rows,
)
from pcagent.agents.program import Program
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    'In the mail client, read the mail "Library notes" and find the number of books returned. '
    'Start a new spreadsheet with "Pallets stacked" in cell A1 and that number in cell B1, and '
    "save it as garden_tally in the Documents folder."
)
READ = {"id": "s1", "skill": "read_mail", "args": {"folder": "Sent"}}
FIND = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["number"], "what": "the number of books returned"},
}


def _sheet(rows: list[list[Any]], step: str = "s3") -> dict[str, Any]:
    return {
        "id": step,
        "skill": "fill_cells",
        "args": {"rows": rows, "save_as": "Documents/garden_tally.xlsx"},
    }


def _rows(program: Program, step: int = 2) -> Any:
    return program.steps[step].args["rows"]


def test_the_one_made_up_cell_takes_the_one_value_found_and_unused() -> None:
    """gen-6161-6 (2026-12-01): the count found, then ``1`` written in its cell, three times."""
    mended = with_unused_value_in_invented_cell(
        as_program(READ, FIND, _sheet([["Pallets stacked", 1]])), CATALOG, [SAID]
    )
    assert _rows(mended) == [["Pallets stacked", {"from": "s2", "key": "number"}]]
    # A value worked out and left unused: the cell refers to the whole result.
    compute = {"id": "s1", "skill": "calculate", "args": {"expression": "12 * 4"}}
    summed = with_unused_value_in_invented_cell(
        as_program(compute, _sheet([["Total", "0"]], "s2")), CATALOG, ["12 times 4 in B1"]
    )
    assert _rows(summed, 1) == [["Total", {"from": "s1"}]]


def test_what_could_mean_more_than_one_thing_is_left_as_written() -> None:
    two_cells = as_program(READ, FIND, _sheet([["Pallets", 1], ["Crates", 2]]))
    assert with_unused_value_in_invented_cell(two_cells, CATALOG, [SAID]) == two_cells
    two_names = dict(FIND, args={**FIND["args"], "names": ["number", "date"]})
    two_values = as_program(READ, two_names, _sheet([["Pallets stacked", 1]]))
    assert with_unused_value_in_invented_cell(two_values, CATALOG, [SAID]) == two_values
    # The instruction's own number, and a value already used, are no slip to mend.
    given = as_program(READ, FIND, _sheet([["Pallets stacked", 1]]))
    assert with_unused_value_in_invented_cell(given, CATALOG, [SAID + " Put 1 in C1."]) == given
    used = as_program(
        READ,
        FIND,
        _sheet([["Pallets stacked", {"from": "s2", "key": "number"}], ["Extra", 7]]),
    )
    assert with_unused_value_in_invented_cell(used, CATALOG, [SAID]) == used
    # A cell before the value is found cannot hold it.
    early = as_program(_sheet([["Pallets", 1]], "s1"), dict(READ, id="s2"), dict(FIND, id="s3"))
    assert with_unused_value_in_invented_cell(early, CATALOG, [SAID]) == early


POPULATIONS = (
    "Could you find the 2024 populations of China, the United States and India online and put "
    "them into a new sheet, the countries in column A and their populations in column B?"
)
EACH = {
    "id": "s1",
    "skill": "web_search_each",
    "args": {
        "things": ["China", "United States", "India"],
        "search": "population 2024",
        "value": "population",
    },
}
MADE_UP = [["China", 143372000000], ["United States", 331002640000], ["India", 138004368000]]


def test_a_made_up_list_of_the_things_looked_up_takes_their_rows() -> None:
    """pc08's rewording (2026-12-03): the rows looked up, then the same countries written with
    populations of the model's own."""
    mended = with_unused_rows_in_invented_list(
        as_program(EACH, _sheet(MADE_UP, "s2")), CATALOG, [POPULATIONS]
    )
    assert _rows(mended, 1) == {"from": "s1"}
    # Items to sort, as ``{"label", "value"}``, likewise.
    items = [{"label": label, "value": value} for label, value in MADE_UP]
    sort = {"id": "s2", "skill": "sort_items", "args": {"items": items, "first": "highest"}}
    sorted_ = with_unused_rows_in_invented_list(as_program(EACH, sort), CATALOG, [POPULATIONS])
    assert sorted_.steps[1].args["items"] == {"from": "s1"}


def test_one_given_number_for_every_thing_looked_up_takes_their_rows() -> None:
    """A rewording of pc08 (2026-12-04): the three populations looked up, then sorted as items
    each valued 2024, the year the instruction gives."""
    items = [{"label": label, "value": 2024} for label, _ in MADE_UP]
    sort = {"id": "s2", "skill": "sort_items", "args": {"items": items, "first": "highest"}}
    mended = with_unused_rows_in_invented_list(as_program(EACH, sort), CATALOG, [POPULATIONS])
    assert mended.steps[1].args["items"] == {"from": "s1"}
    # Two numbers given, one of them twice: not one number for all, left as written.
    numbers = (2024, 2024, 3)
    mixed = [{"label": row[0], "value": n} for row, n in zip(MADE_UP, numbers, strict=True)]
    other = {"id": "s2", "skill": "sort_items", "args": {"items": mixed, "first": "highest"}}
    said = POPULATIONS + " Give India 3."
    program = as_program(EACH, other)
    assert with_unused_rows_in_invented_list(program, CATALOG, [said]) == program


def test_a_made_up_list_under_column_names_takes_the_rows_looked_up() -> None:
    """A rewording of pc08 (2026-12-04): the populations looked up, then a sheet of the column
    names above the same countries with populations of the model's own."""
    header = [["Country", "Population"], *MADE_UP]
    mended = with_unused_rows_in_invented_list(
        as_program(EACH, _sheet(header, "s2")), CATALOG, [POPULATIONS]
    )
    assert _rows(mended, 1) == {"from": "s1"}
    # A first row that is one of the things, or holds a number, is no header: left as written.
    for first in (["China", "Population"], ["Country", 2024]):
        program = as_program(EACH, _sheet([first, *MADE_UP], "s2"))
        assert with_unused_rows_in_invented_list(program, CATALOG, [POPULATIONS]) == program


def test_rows_of_the_value_s_name_take_the_sorted_rows_left_unused() -> None:
    """pc07 (2026-12-03): three share prices looked up as ``stock`` and sorted, then the rows
    ``["Nvidia", "stock"]`` written."""
    each = {
        "id": "s1",
        "skill": "web_search_each",
        "args": {
            "things": ["Nvidia", "Apple", "Microsoft"],
            "search": "stock price",
            "value": "stock",
        },
    }
    ordered = {
        "id": "s2",
        "skill": "sort_items",
        "args": {"items": {"from": "s1"}, "first": "highest"},
    }
    named = [["Nvidia", "stock"], ["Apple", "stock"], ["Microsoft", "stock"]]
    said = "Look up the stock prices of Nvidia, Apple and Microsoft and put them in a sheet."
    mended = with_unused_rows_in_invented_list(
        as_program(each, ordered, _sheet(named)), CATALOG, [said]
    )
    assert _rows(mended) == {"from": "s2"}
    # Without the sort, the looked-up rows themselves; a word that is not the value's name stays.
    alone = with_unused_rows_in_invented_list(
        as_program(each, _sheet(named, "s2")), CATALOG, [said]
    )
    assert _rows(alone, 1) == {"from": "s1"}
    other = as_program(each, _sheet([[n, "price"] for n, _ in named], "s2"))
    assert with_unused_rows_in_invented_list(other, CATALOG, [said]) == other


def test_a_list_that_is_not_plainly_the_rows_is_left_as_written() -> None:
    # Other things, or the same in another order (which order was meant is not known).
    for rows in (
        [["China", 1433720], ["Brazil", 21300000], ["India", 1380043]],
        [["India", 1433720], ["China", 21300000], ["United States", 1380043]],
    ):
        program = as_program(EACH, _sheet(rows, "s2"))
        assert with_unused_rows_in_invented_list(program, CATALOG, [POPULATIONS]) == program
    # The rows already used, or numbers the instruction gives.
    used = as_program(
        EACH,
        {"id": "s2", "skill": "sort_items", "args": {"items": {"from": "s1"}, "first": "lowest"}},
        {"id": "s3", "skill": "tell_user", "args": {"text": "{s2}"}},
        _sheet(MADE_UP, "s4"),
    )
    assert with_unused_rows_in_invented_list(used, CATALOG, [POPULATIONS]) == used
    given = [POPULATIONS + " China 143372000000, the US 331002640000, India 138004368000."]
    program = as_program(EACH, _sheet(MADE_UP, "s2"))
    assert with_unused_rows_in_invented_list(program, CATALOG, given) == program


def test_the_manager_keeps_the_mended_program_without_asking_again() -> None:
    models = ScriptedModels(
        manager=[json.dumps({"steps": [READ, FIND, _sheet([["Pallets stacked", 1]])]})]
    )
    outcome = planned_alone(
        models.for_role("manager"), {"mail": "e-mail", "spreadsheet": "sheets"}, SAID
    )
    sheet = outcome.plan.subtasks[2]
    assert sheet.args["rows"] == [["Pallets stacked", {"from": "s2", "key": "number"}]]
    assert not sheet.doubt and len(models.backends["manager"].requests) == 1


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for task, gold in gold_programs():
        checked += 1
        assert with_unused_value_in_invented_cell(gold, CATALOG, [task.instruction]) == gold
        assert with_unused_rows_in_invented_list(gold, CATALOG, [task.instruction]) == gold
        assert with_unused_values_in_labelled_rows(gold, CATALOG, [task.instruction]) == gold
    assert checked >= 300


RATINGS = (
    'What are the imdb.com ratings of "Interstellar" and "12 Angry Men"? Could you check them in '
    "Chromium, then open movie_rate.xlsx in my Documents folder from Thunar, enter both ratings "
    "and save the workbook?"
)
SEARCH = {"id": "s1", "skill": "web_search", "args": {"query": "Interstellar and 12 Angry Men"}}
BOTH = {
    "id": "s2",
    "skill": "extract_values",
    "args": {
        "text": {"from": "s1"},
        "names": ["rating_interstellar", "rating_12_angry_men"],
        "what": "the imdb.com ratings of Interstellar and 12 Angry Men",
    },
}


def _films(rows: list[list[Any]]) -> dict[str, Any]:
    return {"id": "s3", "skill": "fill_cells",
            "args": {"rows": rows, "save_as": "Documents/movie_rate.xlsx"}}  # fmt: skip


def test_made_up_rows_take_the_unused_values_named_for_their_labels() -> None:
    """A rewording of pc11 (2026-12-03): two ratings extracted by name, rows of 1.0 and 0.0."""
    written = as_program(SEARCH, BOTH, _films([["Interstellar", 1.0], ["12 Angry Men", 0.0]]))
    assert _rows(mended(written, RATINGS)) == [
        ["Interstellar", {"from": "s2", "key": "rating_interstellar"}],
        ["12 Angry Men", {"from": "s2", "key": "rating_12_angry_men"}],
    ]


def test_made_up_rows_take_the_unused_values_described_for_their_labels() -> None:
    """The other rewording of pc11: two values named ``rating``, told apart by description."""
    rated = [_rating("s3", "s2", "Interstellar"), _rating("s5", "s4", "12 Angry Men")]
    page = [{"id": one, "skill": "follow_link", "args": {"text": "x"}} for one in ("s2", "s4")]
    sheet = _films([["Interstellar", 12], ["12 Angry Men", 8]]) | {"id": "s6"}
    written = as_program(SEARCH, page[0], rated[0], page[1], rated[1], sheet)
    assert mended(written, RATINGS, (RATINGS,)).steps[5].args["rows"] == [
        ["Interstellar", {"from": "s3", "key": "rating"}],
        ["12 Angry Men", {"from": "s5", "key": "rating"}],
    ]


def _rating(step: str, page: str, film: str) -> dict[str, Any]:
    what = f"the rating of {film}"
    args = {"text": {"from": page}, "names": ["rating"], "what": what}
    return {"id": step, "skill": "extract_values", "args": args}


def test_rows_whose_labels_name_no_value_or_two_are_left_as_written() -> None:
    unnamed = as_program(SEARCH, BOTH, _films([["Interstellar", 1.0], ["Heat", 0.0]]))
    assert with_unused_values_in_labelled_rows(unnamed, CATALOG, [RATINGS]) == unnamed
    two = BOTH | {"args": BOTH["args"] | {"names": ["men_rating", "men_votes"]}}
    rows = [["Men", 1.0], ["Interstellar", 0.0]]
    twice = as_program(SEARCH, two, _films(rows))
    assert with_unused_values_in_labelled_rows(twice, CATALOG, [RATINGS]) == twice
    given = as_program(SEARCH, BOTH, _films([["Interstellar", 12], ["12 Angry Men", 12]]))
    assert with_unused_values_in_labelled_rows(given, CATALOG, [RATINGS]) == given


VISIT = (
    "Open visits.txt in the Documents folder with the text editor to see when and where the "
    "meeting with Jonas is, then set an alarm in Clocks for when I must leave Elm Square to "
    "get there on time, with the travel time from maps.local in the browser."
)
NOTE = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/visits.txt"}}
WHEN_WHERE = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["time", "place"], "what": "the meeting's time and place"},
}  # fmt: skip
MAPS = {"id": "s3", "skill": "open_page", "args": {"address": "maps.local"}}
ALARM = {"id": "s5", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}


def _route(origin: object, destination: object) -> dict[str, Any]:
    fields = [{"label": "From", "value": origin}, {"label": "To", "value": destination}]
    return {"id": "s4", "skill": "fill_form", "args": {"fields": fields}}


def test_a_form_field_of_words_nobody_gave_takes_the_one_value_unused() -> None:
    """A generated task of seed 2041 (2026-12-04): the place extracted and unused, the maps'
    "To" filled with an example's place, three asks in a row."""
    written = as_program(NOTE, WHEN_WHERE, MAPS, _route("Elm Square", "Harbour Gallery"), ALARM)
    fields = mended(written, VISIT, (VISIT,)).steps[3].args["fields"]
    assert fields == [
        {"label": "From", "value": "Elm Square"},
        {"label": "To", "value": {"from": "s2", "key": "place"}},
    ]


def test_a_form_whose_fields_could_take_the_value_twice_or_never_is_left_as_written() -> None:
    # two fields of words nobody gave: which one was meant is not known
    two = as_program(NOTE, WHEN_WHERE, MAPS, _route("Harbour Gallery", "Oak Terrace"), ALARM)
    assert with_unused_value_in_ungiven_field(two, CATALOG, [VISIT]) == two
    # every field given: nothing to mend, whatever is unused
    given = as_program(NOTE, WHEN_WHERE, MAPS, _route("Elm Square", "Jonas"), ALARM)
    assert with_unused_value_in_ungiven_field(given, CATALOG, [VISIT]) == given
    # every value used: a made-up field is the doubts' to tell
    place = {"from": "s2", "key": "place"}
    used = as_program(NOTE, WHEN_WHERE, MAPS, _route(place, "Harbour Gallery"), ALARM)
    assert with_unused_value_in_ungiven_field(used, CATALOG, [VISIT]) == used
    # a field before the value is found cannot hold it
    early = as_program(MAPS | {"id": "s1"}, _route("Elm Square", "Harbour Gallery") | {"id": "s2"},
                       NOTE | {"id": "s3"}, WHEN_WHERE | {"id": "s4"})  # fmt: skip
    assert with_unused_value_in_ungiven_field(early, CATALOG, [VISIT]) == early


def test_a_field_beside_another_value_of_the_same_step_is_left_to_the_model() -> None:
    """pc16 and pc25 (2026-12-05): "city" and "destination" extracted, "To" given the city and
    "From" a made-up name; the mend gave "From" the destination, and both searches went the
    wrong way round. Which of one step's values goes where is the model's to say."""
    said = 'Read the mail "Travel" and search a one-way flight for that journey on booking.com.'
    mail = {"id": "s1", "skill": "read_mail", "args": {"subject": "Travel"}}
    trip = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["city", "destination"], "what": "the trip"},
    }
    site = {"id": "s3", "skill": "open_page", "args": {"address": "booking.com"}}
    for city in ({"from": "s2", "key": "city"}, "{s2.city}"):
        swapped = as_program(mail, trip, site, _route("Howie Street", city))
        assert with_unused_value_in_ungiven_field(swapped, CATALOG, [said]) == swapped
    # Another step's value beside it leaves the mend as it was: the one unused value goes in.
    tell = {"id": "s5", "skill": "tell_user", "args": {"text": "{s2.destination}"}}
    alone = as_program(mail, trip, site, _route("Howie Street", {"from": "s1"}), tell)
    fields = with_unused_value_in_ungiven_field(alone, CATALOG, [said]).steps[3].args["fields"]
    assert fields[0]["value"] == {"from": "s2", "key": "city"}


def test_no_gold_program_is_changed_by_the_form_mend() -> None:
    golds = list(gold_programs())
    for task, gold in golds:
        assert with_unused_value_in_ungiven_field(gold, CATALOG, [task.instruction]) == gold
    assert len(golds) >= 300
