"""The Manager's program: a grammar from the skills' schemas, validation before anything runs,
references resolved from earlier values, and the run's subtasks made from it."""

from __future__ import annotations

import json
import re

import pytest
from tests.agents.program_steps import as_program, program

from pcagent.agents.filled_values import resolve
from pcagent.agents.program import check_program, program_plan, reference_values
from pcagent.agents.program_grammar import program_schema
from pcagent.agents.step_ids import changed_step, renaming
from pcagent.applications.clock import CLOCK
from pcagent.env.app_interfaces.calculator import evaluate
from pcagent.errors import PlanError
from pcagent.skills import SkillError, default_catalog
from pcagent.skills.calculator import Calculate
from pcagent.skills.values import PickExtreme

APPS = ["text_editor", "clock", "calculator"]


def test_the_catalog_offers_each_skill_once_and_narrows_to_the_desktop() -> None:
    catalog = default_catalog()
    assert len(catalog.names()) == len(set(catalog.names())) >= 20
    narrowed = catalog.for_apps(APPS)
    assert "set_alarm" in narrowed and "calculate" in narrowed and "shift_time" in narrowed
    assert "send_mail" not in narrowed and "write_document" not in narrowed
    assert "extract_values" not in catalog.for_apps(APPS, language=False)


def test_a_screen_step_is_offered_only_the_skills_of_its_applications() -> None:
    offered = default_catalog().acting_in(APPS)
    assert "set_alarm" in offered and "calculate" in offered and "read_text_file" in offered
    for elsewhere in ("shift_time", "days_between", "tell_user", "extract_values", "send_mail"):
        assert elsewhere not in offered


def test_the_skills_working_in_one_application_or_in_none() -> None:
    catalog = default_catalog()
    clocks = catalog.working_in(CLOCK.name)
    assert "set_alarm" in clocks and all(CLOCK.name in one.apps for one in clocks)
    assert "calculate" not in clocks and "tell_user" not in clocks
    nowhere = catalog.working_in("")
    assert "tell_user" in nowhere and "shift_time" in nowhere and "set_alarm" not in nowhere
    assert all(not one.apps for one in nowhere)
    assert not len(catalog.working_in("no_such_application"))


def test_the_grammar_has_one_branch_per_skill_and_a_gui_branch() -> None:
    catalog = default_catalog().for_apps(APPS)
    schema = program_schema(catalog, APPS)
    branches = schema["properties"]["steps"]["items"]["anyOf"]
    names = [branch["properties"]["skill"]["const"] for branch in branches]
    assert names == [*catalog.names(), "gui"]
    alarm = branches[names.index("set_alarm")]["properties"]["args"]
    # every parameter takes its own type or a reference
    assert alarm["properties"]["time"]["anyOf"][1] == {"$ref": "#/$defs/Reference"}
    assert alarm["required"] == ["time"]
    json.dumps(schema)  # plain JSON, as a server's grammar converter takes it


def test_a_valid_program_passes_and_becomes_ordered_subtasks() -> None:
    catalog = default_catalog()
    program = as_program(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}},
        {
            "id": "s2",
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the second event"},
        },
        {
            "id": "s3",
            "skill": "set_alarm",
            "args": {"time": {"from": "s2", "key": "time"}, "minutes_before": 60},
        },
        {"id": "s4", "skill": "gui", "app": "text_editor", "task": "Close it", "uses": ["s3"]},
    )
    check_program(program, catalog, APPS)
    plan = program_plan(program, catalog)
    assert [s.id for s in plan.subtasks] == ["s1", "s2", "s3", "s4"]
    assert plan.subtasks[2].skill == "set_alarm" and plan.subtasks[2].app == "clock"
    assert plan.subtasks[2].depends_on == ["s2"]
    assert plan.subtasks[3].skill == "" and "{s3}" in plan.subtasks[3].description


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ({"id": "s1", "skill": "fly", "args": {}}, "no skill 'fly'"),
        ({"id": "s1", "skill": "set_alarm", "args": {}}, "needs 'time'"),
        ({"id": "s1", "skill": "set_alarm", "args": {"time": "25:99"}}, "time="),
        ({"id": "s1", "skill": "set_alarm", "args": {"time": "9:00", "when": 1}}, "no parameter"),
        ({"id": "s1", "skill": "set_alarm", "args": {"time": {"from": "s2"}}}, "not an earlier"),
        ({"id": "s1", "skill": "send_mail", "args": {"to": ["a@b.test"]}}, "not on this desktop"),
        ({"id": "s1", "skill": "gui", "app": "mail", "task": "x"}, "no application 'mail'"),
    ],
)
def test_problems_are_named_before_anything_runs(step: dict[str, object], problem: str) -> None:
    with pytest.raises(PlanError, match=problem):
        check_program(as_program(step), default_catalog(), APPS)


def test_a_recipient_that_is_a_name_is_refused_in_the_plan() -> None:
    """A name from the instruction passes the check that it was given; it is still no address."""
    step = {"id": "s1", "skill": "send_mail", "args": {"to": ["Howie"], "subject": "code"}}
    with pytest.raises(PlanError, match="'Howie' is not one e-mail address"):
        check_program(as_program(step), default_catalog(), [*APPS, "mail"])
    good = {"id": "s1", "skill": "send_mail", "args": {"to": ["howie@example.test"]}}
    check_program(as_program(good), default_catalog(), [*APPS, "mail"])


def test_references_are_resolved_from_earlier_values_or_named_as_missing() -> None:
    values = {"s1": "text", "s2": {"time": "10:15"}}
    args = {"time": {"from": "s2", "key": "time"}, "items": [{"label": {"from": "s1"}}]}
    assert resolve(args, values) == {"time": "10:15", "items": [{"label": "text"}]}
    with pytest.raises(PlanError, match="no 'hour'"):
        resolve({"time": {"from": "s2", "key": "hour"}}, values)
    with pytest.raises(PlanError, match="s3 has no value"):
        resolve({"time": {"from": "s3"}}, values)
    # An object of one named value, referred to whole, is that value; of two, the object.
    values["s4"] = {"label": "a", "value": 2}
    assert resolve({"a": {"from": "s2"}, "b": "at {s2}", "c": {"from": "s4"}}, values) == {
        "a": "10:15",
        "b": "at 10:15",
        "c": {"label": "a", "value": 2},
    }


def test_a_key_must_be_a_field_the_referred_step_gives() -> None:
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "a.txt"}}
    extract = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["time", "place"], "what": "when and where"},
    }

    def alarm(reference: dict[str, str]) -> dict[str, object]:
        return {"id": "s3", "skill": "set_alarm", "args": {"time": reference}}

    catalog = default_catalog()
    check_program(as_program(read, extract, alarm({"from": "s2", "key": "time"})), catalog, APPS)
    with pytest.raises(PlanError, match="gives \\['place', 'time'\\], not 'hour'"):
        check_program(
            as_program(read, extract, alarm({"from": "s2", "key": "hour"})), catalog, APPS
        )
    with pytest.raises(PlanError, match="one value, not an object"):
        check_program(as_program(read, alarm({"from": "s1", "key": "time"})), catalog, APPS)


def test_a_replans_key_must_be_one_a_finished_step_gives() -> None:
    """A re-plan searched for ``{s2.place}`` where the finished s2 had found only a time; the
    step failed when it ran. Checked against the finished call, it is a problem re-asked."""
    extract = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": "14:00 John", "names": ["time"], "what": "the meeting's time"},
    }
    (done,) = as_program(extract).steps
    search = {"id": "s3", "skill": "set_alarm", "args": {"time": "{s2.place}"}}
    catalog = default_catalog()
    with pytest.raises(PlanError, match="s3: s2 gives \\['time'\\], not 'place'"):
        check_program(as_program(search), catalog, APPS, known=["s2"], done=[done])
    check_program(as_program(search), catalog, APPS, known=["s2"])  # a call not known: unchecked
    fine = {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}
    check_program(as_program(fine), catalog, APPS, known=["s2"], done=[done])


def test_each_file_skill_takes_only_its_own_kind_of_file() -> None:
    catalog = default_catalog()
    apps = [*APPS, "writer"]
    write = {"path": "Documents/report.docx", "text": "x"}
    # Both ways out are named: the skills of the kind the path is, the path of the kind wanted.
    with pytest.raises(
        PlanError,
        match=r"is a word-processor document, which read_document, "
        r"write_document, format_paragraphs take; a plain-text file's name ends",
    ):
        check_program(
            as_program({"id": "s1", "skill": "write_text_file", "args": write}), catalog, apps
        )
    check_program(as_program({"id": "s1", "skill": "write_document", "args": write}), catalog, apps)
    # A workbook saved under a text file's name is refused with the name it should have.
    sheet = {"rows": [["a", 1]], "save_as": "Documents/population.txt"}
    with pytest.raises(PlanError, match=r"is a plain-text file, .*\(Documents/population\.xlsx\)"):
        check_program(
            as_program({"id": "s1", "skill": "fill_cells", "args": sheet}),
            catalog,
            [*apps, "spreadsheet"],
        )
    # A folder's name is no file's, whatever kind the skill takes.
    for skill, args in (("write_text_file", {"path": "Documents/", "text": "x"}),
                        ("fill_cells", {"rows": [["a", 1]], "save_as": "Documents/"})):  # fmt: skip
        with pytest.raises(PlanError, match=r"Documents/ names a folder, not a file"):
            check_program(as_program({"id": "s1", "skill": skill, "args": args}), catalog,
                          [*apps, "spreadsheet"])  # fmt: skip
    for fine in ("", "Documents/population", "Documents/population.ods"):
        sheet["save_as"] = fine
        check_program(
            as_program({"id": "s1", "skill": "fill_cells", "args": sheet}),
            catalog,
            [*apps, "spreadsheet"],
        )


def test_slots_in_a_text_take_earlier_values_and_are_checked_like_references() -> None:
    values = {"s1": "42", "s2": {"minutes": 15}}
    args = {"expression": "{s1} * 60 + {s2.minutes}"}
    assert resolve(args, values) == {"expression": "42 * 60 + 15"}
    calculate = {"id": "s2", "skill": "calculate", "args": {"expression": "{s1} * 60"}}
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "a.txt"}}
    check_program(as_program(read, calculate), default_catalog(), APPS)
    with pytest.raises(PlanError, match="not an earlier step"):
        check_program(as_program(calculate), default_catalog(), APPS)


def test_a_slot_may_pick_one_item_of_a_list_found() -> None:
    """The 1.5B model wrote three found prices into cells as ``{s2.stock_prices[0]}`` ...
    ``[2]``; unread, the slots were saved into the sheet as text (pc07, 2026-12-02)."""
    values = {"s2": {"prices": "131.38, 1,227.52 and 415.26", "names": ["NVIDIA", "Apple"]}}
    rows = [["{s2.names[1]}", "{s2.prices[1]}"], ["x", "{s2.prices[2]} and {s2.prices[0]}"]]
    assert resolve({"rows": rows}, values) == {
        "rows": [["Apple", "1,227.52"], ["x", "415.26 and 131.38"]]
    }
    with pytest.raises(PlanError, match=r"picks item 3, and the value found has 3 item"):
        resolve({"text": "{s2.prices[3]}"}, values)
    # a numbered or bulleted list's items are picked without the list's marks
    notes = {
        "s2": {"films": "1. The Silent Harbor\n2. Paper Lanterns", "odd": "- 3.5 stars\n- 2001"}
    }
    picked = {"a": "{s2.films[1]} rating", "b": "got {s2.odd[0]}", "c": "{s2.odd[1]}"}
    assert resolve(picked, notes) == {
        "a": "Paper Lanterns rating",
        "b": "got 3.5 stars",
        "c": "2001",
    }
    # the step is used by the slot, and renumbering a step keeps the item's place
    fill = {"id": "s3", "skill": "tell_user", "args": {"text": "{s2.prices[1]}"}}
    assert reference_values(fill["args"]) == [{"from": "s2", "key": "prices", "item": 1}]
    renamed = changed_step(as_program(fill).steps[0], renaming({"s2": "s5"}))
    assert renamed.args == {"text": "{s5.prices[1]}"}


def test_a_slot_no_reference_reads_is_a_problem_before_the_run() -> None:
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "a.txt"}}
    for text, fine in (
        ("{s1.Prices}", False),
        ("{s1[first]}", False),
        ("{s1} and {s1[2]}", True),
    ):
        told = {"id": "s2", "skill": "tell_user", "args": {"text": text}}
        if fine:
            check_program(as_program(read, told), default_catalog(), APPS)
            continue
        with pytest.raises(PlanError, match=re.escape(f"s2: {text} is no reference")):
            check_program(as_program(read, told), default_catalog(), APPS)


def test_a_found_value_in_arithmetic_stands_for_the_number_it_begins_with() -> None:
    """extract_values keeps a value as the page writes it; the calculator refused "128,455,567
    people (as of 2024-07-01) + 4300" twice on generated tasks (seed 2027)."""
    found = {
        "s3": {
            "population": "128,455,567 people (as of 2024-07-01)",
            "price": "$1,299.00 incl. tax",
            "date": "2024-07-01",
            "time": "09:15",
            "vague": "about 5",
        }
    }
    filled = resolve(
        {
            "sum": "{s3.population} + 4300",
            "price": "{s3.price} - 1",
            "date": "{s3.date} + 1",
            "time": "{s3.time} * 2",
            "vague": "{s3.vague} + 1",
            "text": "Population: {s3.population}",
        },
        found,
    )
    assert filled["sum"] == "128,455,567 + 4300" and filled["price"] == "1,299.00 - 1"
    # A date, a time or a value that does not begin with a number is filled in whole.
    assert filled["date"] == "2024-07-01 + 1" and filled["time"] == "09:15 * 2"
    assert filled["vague"] == "about 5 + 1"
    # A date that begins with its day is a date, alone or in arithmetic (pc05: "4 July 2025"
    # reached days_between as "4").
    dated = resolve({"end": "{s3.day}", "sum": "{s3.day} + 1"}, {"s3": {"day": "4 July 2025"}})
    assert dated == {"end": "4 July 2025", "sum": "4 July 2025 + 1"}
    assert filled["text"] == "Population: 128,455,567 people (as of 2024-07-01)"


def test_an_expression_computes_with_found_values_filled_in_as_plain_numbers() -> None:
    """The grammar lets the Manager write references into an arithmetic expression; filled in
    as the pages wrote them, they reach the calculator as numbers."""
    catalog = default_catalog().for_apps(APPS)
    step = {"id": "s3", "skill": "calculate", "args": {"expression": "{s1.price} - {s2}"}}
    # ("{s2}": the one value s2 picked out, as the Manager writes it)
    check_program(
        as_program(
            {
                "id": "s1",
                "skill": "extract_values",
                "args": {"text": "a", "names": ["price"], "what": "p"},
            },
            {
                "id": "s2",
                "skill": "extract_values",
                "args": {"text": "b", "names": ["x"], "what": "q"},
            },
            step,
        ),
        default_catalog(),
        APPS,
    )
    branch = next(
        b
        for b in program_schema(catalog, APPS)["properties"]["steps"]["items"]["anyOf"]
        if b["properties"]["skill"].get("const") == "calculate"
    )
    grammar = branch["properties"]["args"]["properties"]["expression"]["anyOf"][0]["pattern"]
    assert re.fullmatch(grammar, "{s1.price} - {s2}") and re.fullmatch(grammar, "(3 + 4) * 2")
    filled = resolve(step["args"], {"s1": {"price": "$1,299.00"}, "s2": {"x": "−999"}})  # type: ignore[arg-type]
    assert Calculate.model_validate(filled).expression == "1299.00 - -999"
    with pytest.raises(ValueError):
        Calculate.model_validate({"expression": "{s1.price} - 2"})  # never run unfilled


def test_one_found_date_minus_another_reaches_the_calculator_as_two_iso_dates() -> None:
    """A date extracted as a page writes it, filled into a difference of dates, is the days
    between them for the calculator (pc23: "2025-02-18 - 3 March 2025" was refused until the
    step cap); a date in any other arithmetic is still refused."""
    step = {"expression": "2025-02-18 - {s2.date}"}
    filled = resolve(step, {"s2": {"date": "3 March 2025"}})
    assert Calculate.model_validate(filled).expression == "2025-02-18 - 2025-03-03"
    assert evaluate(Calculate.model_validate(filled).expression) == 13
    worded = {"expression": "Thursday, 1 May 2025 - 01/04/2025"}
    assert Calculate.model_validate(worded).expression == "2025-05-01 - 2025-04-01"
    for refused in ("2025-02-18 + 3", "2025-02-18 - 3 March 2025 - 1", "2025-02-18 - soon"):
        with pytest.raises(ValueError):
            Calculate.model_validate({"expression": refused})


def test_the_largest_of_found_values_is_picked_with_their_slots() -> None:
    """Each value found by its own step goes into pick_extreme's items by its slot: the grammar
    allows a number's text, and it is filled in as the number it begins with."""
    found = {"id": "s2", "skill": "extract_values", "args": {"text": "a", "names": ["minutes"]}}
    found["args"]["what"] = "m"  # type: ignore[index]
    items = [{"label": "Copper Sky", "value": "{s2.minutes}"}, {"label": "Other", "value": 120}]
    pick = {"id": "s3", "skill": "pick_extreme", "args": {"items": items, "which": "largest"}}
    check_program(as_program({**found, "id": "s1"}, found, pick), default_catalog(), APPS)
    schema = program_schema(default_catalog(), APPS)["$defs"]["Item"]["properties"]["value"]
    assert {"type": "string", "minLength": 1, "maxLength": 100} in schema["anyOf"]
    filled = resolve(pick["args"], {"s2": {"minutes": "141 min"}})  # type: ignore[arg-type]
    assert PickExtreme.model_validate(filled).items[0].value == 141
    with pytest.raises(ValueError, match="not a number"):
        PickExtreme.model_validate(
            {"items": [{"label": "x", "value": "{s2.minutes}"}], "which": "largest"}
        )


def test_an_address_is_bounded_in_the_grammar_and_in_the_check() -> None:
    from pcagent.skills.browser import MAX_ADDRESS

    apps = ["browser"]
    catalog = default_catalog().for_apps(apps)
    branches = program_schema(catalog, apps)["properties"]["steps"]["items"]["anyOf"]
    (page,) = [b for b in branches if b["properties"]["skill"]["const"] == "open_page"]
    assert page["properties"]["args"]["properties"]["address"]["anyOf"][0]["maxLength"] == 500
    runaway = "booking.com/search?" + "&ss=departure_date" * 40
    assert len(runaway) > MAX_ADDRESS
    step = {"id": "s1", "skill": "open_page", "args": {"address": runaway}}
    with pytest.raises(PlanError, match="address"):
        check_program(as_program(step), catalog, apps)
    check_program(as_program({**step, "args": {"address": runaway[:MAX_ADDRESS]}}), catalog, apps)


def test_a_link_or_a_form_needs_a_page_opened_by_a_step_before_it() -> None:
    form = {"skill": "fill_form", "args": {"fields": [{"label": "From", "value": "Oslo"}]}}
    link = {"skill": "follow_link", "args": {"text": "Offline Maps"}}
    apps = [*APPS, "browser"]
    for alone in (form, link):
        with pytest.raises(PlanError, match="works on the page in front, and no step before"):
            check_program(program(alone), default_catalog(), apps)
    opened = {"skill": "open_page", "args": {"address": "maps.local"}}
    searched = {"skill": "web_search", "args": {"query": "maps"}}
    on_screen = {"skill": "gui", "app": "browser", "task": "Open the maps site"}
    for first in (opened, searched, on_screen):
        check_program(program(first, link, form), default_catalog(), apps)
    # A re-plan's finished steps may have opened the page.
    check_program(as_program({"id": "s3", **form}), default_catalog(), apps, known=["s1", "s2"])


def test_a_date_is_no_number_for_the_calculator() -> None:
    """A re-plan of pc05 computed "2025-07-05 - 2025-08-05" as arithmetic and said finished on
    it: a date in arithmetic is refused; one date minus another is the days between them."""
    with pytest.raises(ValueError, match="days_between"):
        Calculate.model_validate({"expression": "05/07/2025 + 3"})
    difference = Calculate.model_validate({"expression": "2025-07-05 - 2025-08-05"}).expression
    assert evaluate(difference) == 31
    assert Calculate.model_validate({"expression": "2025 - 1990"}).expression == "2025 - 1990"


def test_words_in_arithmetic_are_named_with_what_to_do() -> None:
    """pc23 at 914764a: a city and a trip's date filled into "{s3} - {s2.date}" were refused
    only for the characters of arithmetic, and the re-plan computed "3/2025 - 18/2025"."""
    with pytest.raises(
        ValueError, match=r"'Tokyo, Japan', '3 March 2025' are no numbers \("
    ) as refused:
        Calculate.model_validate({"expression": "Tokyo, Japan - 3 March 2025 + 1"})
    assert "'3 March 2025': a date; count the days between two dates with days_between" in str(
        refused.value
    )
    with pytest.raises(ValueError, match="'twelve' is no number: compute with numbers"):
        Calculate.model_validate({"expression": "twelve * 3"})
    assert Calculate.model_validate({"expression": "(12 + 7) * 3"}).expression == "(12 + 7) * 3"
    assert Calculate.model_validate({"expression": "$1,299.00 - 999"}).expression == "1299.00 - 999"


def test_paragraphs_may_be_named_by_place_or_number_and_nothing_else() -> None:
    catalog = default_catalog()
    formats = catalog.get("format_paragraphs")
    named = formats.validate(
        {"path": "Documents/a.docx", "paragraphs": ["title", 2, "last"], "bold": True}
    )
    assert named.paragraphs == ["title", 2, "last"]
    with pytest.raises(SkillError, match="paragraphs"):
        formats.validate({"path": "Documents/a.docx", "paragraphs": ["middle"], "bold": True})
    # The program's grammar lets a model write the places too.
    schema = json.dumps(program_schema(catalog.for_apps(["writer"]), ["writer"]))
    assert '"enum": ["title", "last"]' in schema
    assert 'paragraphs: list[int | "title" | "last"]' in formats.signature()


def test_a_search_for_the_whole_request_is_refused_in_the_plan() -> None:
    """A rewording of pc16 (2026-12-02): the 1.5B planner searched for the instruction's 33
    words; a search is a few words (the longest of 1,200 generated programs: 11)."""
    request = (
        "one-way flight search on booking.com for the trip I described to Howie: the departure "
        "city, the destination and the date are in the mail I sent him"
    )
    step = {"id": "s1", "skill": "web_search", "args": {"query": request}}
    with pytest.raises(PlanError, match="a search is a few words"):
        check_program(as_program(step), default_catalog(), [*APPS, "browser"])
    short = {"id": "s1", "skill": "web_search", "args": {"query": "flights Helsinki to Oslo"}}
    check_program(as_program(short), default_catalog(), [*APPS, "browser"])


def test_a_call_whose_parameters_never_work_together_is_refused_before_the_run() -> None:
    """A rewording of pc11: ``move_files(into="Documents")`` names no file; each field passes
    alone, and the call failed only when it ran, after the steps before it. So does a
    formatting that names no paragraph. A reference leaves the call to be checked when it
    runs."""
    apps = [*APPS, "file_manager", "writer"]
    nothing = {"id": "s1", "skill": "move_files", "args": {"into": "Documents"}}
    with pytest.raises(PlanError, match="s1: move_files: it names no file to move"):
        check_program(as_program(nothing), default_catalog(), apps)
    unformatted = {
        "id": "s1",
        "skill": "format_paragraphs",
        "args": {"path": "a.docx", "bold": True},
    }
    with pytest.raises(PlanError, match="s1: format_paragraphs: name the paragraphs"):
        check_program(as_program(unformatted), default_catalog(), apps)
    named = {"id": "s1", "skill": "move_files", "args": {"files": ["a.txt"], "into": "Documents"}}
    check_program(as_program(named), default_catalog(), apps)
    found = (
        {"id": "s1", "skill": "list_folder", "args": {"folder": "Downloads"}},
        {"id": "s2", "skill": "move_files", "args": {"files": {"from": "s1"}, "into": "Documents"}},
    )
    check_program(as_program(*found), default_catalog(), apps)


def test_a_call_s_line_shows_only_what_a_model_may_write() -> None:
    """The check arguments code fills in stay in the call, out of the line a re-plan's prompt
    and a screen step retrying the call read (``numbers=true`` was in both, 2026-12-07)."""
    look_up = {
        "id": "s1",
        "skill": "web_search_each",
        "args": {
            "things": ["Nvidia", "Apple"],
            "search": "price",
            "value": "price",
            "numbers": True,
        },
    }
    plan = program_plan(as_program(look_up), default_catalog())
    assert plan.subtasks[0].args["numbers"] is True
    assert "numbers" not in plan.subtasks[0].description
    assert 'search="price"' in plan.subtasks[0].description
