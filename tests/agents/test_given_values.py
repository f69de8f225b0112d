"""Addresses and numbers a program may only copy: an invented web or mail address, or a price
computed without looking it up, is refused and the program re-asked (the real skills'
parameter marks decide which values; scripted replies)."""

from __future__ import annotations

import json

import pytest
from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.doubts import Evidence
from pcagent.agents.given_values import (
    address_core,
    given_parameters,
    ungiven_literals,
    unnamed_address,
)
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager, PlanOutcome
from pcagent.agents.program import Program, ProgramStep
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

APPS = {"browser": "web pages", "mail": "e-mail"}


def _open(address: object) -> dict[str, object]:
    return {"id": "s1", "skill": "open_page", "args": {"address": address}}


def test_the_marked_parameters_are_addresses_and_numbers() -> None:
    catalog = default_catalog()
    assert given_parameters(catalog, "open_page") == {"address": "address"}
    assert given_parameters(catalog, "send_mail") == {"to": "address"}
    assert given_parameters(catalog, "calculate") == {"expression": "numbers"}
    assert given_parameters(catalog, "web_search") == {"query": "search"}
    assert given_parameters(catalog, "tell_user") == {}
    assert given_parameters(catalog, "no_such_skill") == {}
    assert given_parameters(catalog, "days_between") == {"start": "date", "end": "date"}


def test_a_date_nobody_wrote_is_a_doubt_and_one_written_in_any_form_is_not() -> None:
    catalog = default_catalog()
    said = "How many days lie between Labour Day and Independence Day in 2025? Look both up."
    made_up = {"start": "2025-07-02", "end": "2025-07-24"}
    invented = as_program({"id": "s1", "skill": "days_between", "args": made_up})
    doubts = ungiven_literals(invented, catalog, [said])
    assert [d.step for d in doubts] == ["s1", "s1"]
    assert "start='2025-07-02'" in doubts[0].problem and "look it up" in doubts[0].problem
    assert doubts[0].skills == ("web_search",)  # the re-ask shows a program that searches
    # Written in the instruction as words, or found by an earlier step (a value, a slot).
    written = "How many days are there from 18 February 2025 to 3 March 2025?"
    both = {"start": "2025-02-18", "end": "3 March 2025"}
    step = {"id": "s1", "skill": "days_between", "args": both}
    assert ungiven_literals(as_program(step), catalog, [written]) == []
    found = {"start": "2025-02-18", "end": "2025-04-12"}
    step = {"id": "s2", "skill": "days_between", "args": found}
    assert ungiven_literals(as_program(step), catalog, [written, "The trip: 12 April 2025"]) == []
    slot = {"start": "2025-02-18", "end": "{s1.date}"}
    step = {"id": "s2", "skill": "days_between", "args": slot}
    assert ungiven_literals(as_program(step), catalog, [written]) == []


def test_a_search_for_words_nobody_gave_is_a_doubt() -> None:
    """A planner shown another task's program searched for that task's film."""
    said = "What is the rating of the film Interstellar on imdb.com?"

    def doubts(query: str, *found: str) -> list[str]:
        search = {"id": "s2", "skill": "web_search", "args": {"query": query}}
        return [
            str(d) for d in ungiven_literals(as_program(search), default_catalog(), [said, *found])
        ]

    (doubt,) = doubts("Paper Lanterns running time")
    assert "query='Paper Lanterns running time': most of its words are neither" in doubt
    assert doubts("Interstellar rating imdb") == []
    assert doubts("{s1.title} rating") == []  # a value found, by reference
    assert doubts("Copper Sky rating", "Copper Sky") == []  # a value found, copied
    assert doubts("running time of films") != []  # one of three words given: not half


def _calculate(expression: str) -> Program:
    return as_program({"id": "s3", "skill": "calculate", "args": {"expression": expression}})


def test_numbers_must_be_given_found_or_units_of_counting() -> None:
    catalog = default_catalog()
    said = "What do 3 switches at the shop's price cost, and 15% of 1,250?"
    assert ungiven_literals(_calculate("1250 * 15 / 100"), catalog, [said]) == []
    assert ungiven_literals(_calculate("{s2.price} * 3"), catalog, [said]) == []
    assert ungiven_literals(_calculate("(90 - 45) / 60"), catalog, [said, "45", "90.0"]) == []
    problems = ungiven_literals(_calculate("299.99 * 3 - 17"), catalog, [said])
    assert len(problems) == 1
    assert "299.99, 17" in str(problems[0]) and "{s2.price}" in str(problems[0])


def test_one_value_scaled_by_a_unit_nobody_gave_is_doubted() -> None:
    """A unit of counting stands in a computation of two values or more; one found value
    multiplied by 60 is a conversion the instruction did not ask for."""
    catalog = default_catalog()
    said = "How long does the way take?"
    for scaled in ("60 * {s4}", "{s4.minutes} / 60", "60 * 38"):
        (problem,) = ungiven_literals(_calculate(scaled), catalog, [said, "38 min"])
        assert "computes with 60" in str(problem), scaled
    # two values, or the unit given: the unit is taken
    assert ungiven_literals(_calculate("({s2} + {s3}) / 60"), catalog, [said]) == []
    assert ungiven_literals(_calculate("{s4} * 60"), catalog, ["in seconds, at 60 a minute"]) == []


def test_address_core_drops_scheme_www_and_slash() -> None:
    assert address_core(" https://www.Example.org/ ") == "example.org"
    assert address_core("http://shop.test/item/7") == "shop.test/item/7"


def test_an_address_the_instruction_names_passes_an_invented_one_does_not() -> None:
    catalog = default_catalog()
    said = "Open shop.test and find the cheapest kettle, then mail it to ann@example.test"
    named = as_program(
        _open("https://shop.test/kettles"),
        {"id": "s2", "skill": "send_mail", "args": {"to": ["ann@example.test"]}},
    )
    assert ungiven_literals(named, catalog, [said]) == []
    invented = as_program(
        _open("https://maps.example.com/route?from=a"),
        {"id": "s2", "skill": "send_mail", "args": {"to": ["bob@example.test"]}},
    )
    problems = ungiven_literals(invented, catalog, [said])
    assert len(problems) == 2
    assert str(problems[0]).startswith("s1: address=") and "bob@example.test" in str(problems[1])


def test_references_and_found_values_pass() -> None:
    catalog = default_catalog()
    program = as_program(
        {"id": "s1", "skill": "web_search", "args": {"query": "kettles"}},
        _open({"from": "s1"}),
        {"id": "s3", "skill": "open_page", "args": {"address": "{s1}"}},
    )
    assert ungiven_literals(program, catalog, ["find a kettle"]) == []
    found = as_program(_open("deals.test/kettle"))
    assert ungiven_literals(found, catalog, ["find a kettle", "see deals.test/kettle"]) == []


def test_a_site_written_before_a_found_value_is_given_or_invented_as_any_address() -> None:
    """An invented search engine's address with a found place in its query opened unquestioned
    (a rewording of pc06, 2026-12-07); where the found value is the site, it is found."""
    said = ["Compare the flying times from Beijing to the places in travel_plan2.txt"]
    invented = "https://www.google.com/search?q=flights+from+Beijing+to+{s2.place1}"
    assert unnamed_address(invented, said)
    assert not unnamed_address(invented, [*said, "see google.com"])
    for found in ("{s2.link}", "https://{s2.site}/flights", "{s2}"):
        assert not unnamed_address(found, said), found


def test_the_manager_re_asks_an_invented_address_and_takes_the_search() -> None:
    invented = json.dumps({"steps": [_open("https://maps.example.com/route")]})
    search = json.dumps(
        {"steps": [{"id": "s1", "skill": "web_search", "args": {"query": "route to the museum"}}]}
    )
    outcome, second = _asked_twice(invented, search, "How long is the walk to the museum?")
    assert not outcome.fallback
    assert outcome.plan.subtasks[0].skill == "web_search"
    assert "maps.example.com" in second and "not in the instruction" in second


def _asked_twice(
    first: str, then: str, instruction: str, apps: dict[str, str] = APPS
) -> tuple[PlanOutcome, str]:
    """The Manager's outcome when its first reply is ``first`` and the re-ask's ``then``, and
    what the re-ask said."""
    models = ScriptedModels(manager=[first, then])
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan(instruction)
    return outcome, models.backends["manager"].requests[1].messages[-1].text


def test_an_address_invented_in_every_program_is_kept_rather_than_the_program_lost() -> None:
    invented = json.dumps({"steps": [_open("https://maps.example.com/route")]})
    # Then asked for the doubted step alone, the model writes it again as it was.
    models = ScriptedModels(manager=[invented] * (PROGRAM_ATTEMPTS + 1))
    manager = Manager(
        models.for_role("manager"), apps=APPS, skills=default_catalog().for_apps(APPS)
    )
    outcome = manager.plan("How long is the walk to the museum?")
    assert not outcome.fallback
    assert outcome.plan.subtasks[0].args == {"address": "https://maps.example.com/route"}
    assert "is not in the instruction" in outcome.plan.subtasks[0].doubt
    requests = models.backends["manager"].requests
    assert len(requests) == PROGRAM_ATTEMPTS + 1
    assert "What is wrong with step s1: address=" in requests[-1].messages[-1].text


def test_a_file_name_must_be_given_or_found() -> None:
    catalog = default_catalog()
    said = "Open test_doc1.docx in the Documents folder, make the title bold and save it as Final"
    named = as_program(
        {"id": "s1", "skill": "read_document", "args": {"path": "Documents/test_doc1.docx"}},
        {
            "id": "s2",
            "skill": "write_document",
            "args": {"path": "Documents/final.docx", "text": "x"},
        },
    )
    assert ungiven_literals(named, catalog, [said]) == []
    copied = as_program(
        {"id": "s1", "skill": "read_document", "args": {"path": "Documents/beekeeping_intro.docx"}}
    )
    (problem,) = ungiven_literals(copied, catalog, [said])
    assert str(problem).startswith("s1: path='Documents/beekeeping_intro.docx': neither")
    assert ungiven_literals(copied, catalog, [said, "beekeeping_intro.docx"]) == []


@pytest.mark.parametrize(
    ("path", "doubted"),
    [
        ("Documents/{s2.city}.txt", False),  # the value names the file
        ("Documents/notes_{s2.city}.txt", False),  # the words around it are the user's
        ("Documents/{s2.time}_reminder_card.txt", True),  # an example's words around it
        ("{s3}", False),
    ],
)
def test_the_words_around_a_found_value_in_a_file_name_must_be_given(
    path: str, doubted: bool
) -> None:
    said = "Find the city in Documents/trip.txt and keep notes about it in a text file"
    program = as_program(
        {"id": "s1", "skill": "write_text_file", "args": {"path": path, "text": "{s2.city}"}}
    )
    problems = ungiven_literals(program, default_catalog(), [said])
    assert bool(problems) is doubted
    if doubted:
        assert "neither the instruction nor an earlier step names this file" in str(problems[0])


def test_a_folder_below_home_s_own_must_be_given_or_found() -> None:
    """A small planner copies the folders of the programs it is shown, as it copies their
    files: the document asked for in Documents went into another task's "Quarterly"."""
    catalog = default_catalog()
    said = 'Write "Boxes sorted: 91" into a new document and save it as Visits in Documents'
    invented = as_program(
        {"id": "s1", "skill": "make_folder", "args": {"path": "Documents/Quarterly"}},
        {
            "id": "s2",
            "skill": "write_document",
            "args": {"path": "Documents/Quarterly/Visits.docx", "text": "Boxes sorted: 91"},
        },
    )
    problems = [str(p) for p in ungiven_literals(invented, catalog, [said])]
    assert len(problems) == 2 and all("names the folder 'Quarterly'" in p for p in problems)
    # HOME's own folders may be named by habit; a folder the user names, or one found, passes.
    plain = as_program(
        {"id": "s1", "skill": "write_document", "args": {"path": "~/Desktop/Visits.docx"}}
    )
    assert ungiven_literals(plain, catalog, [said]) == []
    assert ungiven_literals(invented, catalog, [said + " in a new folder Quarterly"]) == []
    moved = as_program(
        {"id": "s1", "skill": "move_files", "args": {"files": ["a.txt"], "into": "Documents/Old"}}
    )
    assert ungiven_literals(moved, catalog, [said]) != []
    assert ungiven_literals(moved, catalog, [said, "Documents/Old/a.txt"]) == []


def test_a_re_ask_names_a_copied_file_with_its_wrong_kind() -> None:
    """Told only that a copied .txt is no document, a small model changes the ending and keeps
    the file; the re-ask names both problems."""
    apps = {"text_editor": "plain text files", "writer": "documents"}
    copied = json.dumps(
        {
            "steps": [
                {
                    "id": "s1",
                    "skill": "format_paragraphs",
                    "args": {"path": "Documents/beekeeping_intro.txt", "paragraphs": [0]},
                }
            ]
        }
    )
    named = json.dumps(
        {"steps": [{"id": "s1", "skill": "read_document", "args": {"path": "Documents/a1.docx"}}]}
    )
    outcome, asked_again = _asked_twice(copied, named, "What does Documents/a1.docx say?", apps)
    assert not outcome.fallback
    # A document read and nothing told: doubted once kept, never re-asked (ends_on_reading).
    assert outcome.plan.subtasks[0].doubt.startswith("s1 ends the program on what read_document")
    assert "is a plain-text file" in asked_again
    assert "neither the instruction nor an earlier step names this file" in asked_again


def test_a_file_s_ending_is_kept_as_the_instruction_writes_it() -> None:
    catalog = default_catalog()
    said = "Open test_doc3.docx in the Documents folder and translate its text"
    changed = as_program(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/test_doc3.txt"}}
    )
    (problem,) = ungiven_literals(changed, catalog, [said])
    assert "writes this file's name with .docx: keep it" in str(problem)
    kept = as_program(
        {"id": "s1", "skill": "read_document", "args": {"path": "Documents/test_doc3.docx"}}
    )
    assert ungiven_literals(kept, catalog, [said]) == []
    # Named bare as well (or only bare): any ending may follow.
    both = said + " and save the translation as test_doc3 in a text file"
    assert ungiven_literals(changed, catalog, [both]) == []
    # A longer name that starts with the same letters is another file.
    assert ungiven_literals(changed, catalog, ["Open test_doc30.txt"]) != []


def test_a_text_to_write_is_given_found_or_composed() -> None:
    catalog = default_catalog()
    said = "Open the text editor and type hello, then save the note as Documents/hi.txt"
    typed = as_program({"id": "s1", "skill": "type_in_editor", "args": {"text": "Hello"}})
    assert ungiven_literals(typed, catalog, [said]) == []
    made_up = as_program(
        {
            "id": "s1",
            "skill": "write_text_file",
            "args": {"path": "Documents/hi.txt", "text": "English translation of the text"},
        }
    )
    (problem,) = ungiven_literals(made_up, catalog, [said])
    assert "text='English translation of the text': this text is neither" in str(problem)
    assert "compose_text" in str(problem)
    composed = as_program(
        {"id": "s1", "skill": "compose_text", "args": {"request": "a greeting"}},
        {"id": "s2", "skill": "write_document", "args": {"path": "a.docx", "text": "{s1}"}},
    )
    assert ungiven_literals(composed, catalog, ["Write a greeting into a.docx"]) == []


def test_the_instruction_written_whole_as_the_text_is_doubted() -> None:
    catalog = default_catalog()
    said = "Fix the bug in Documents/tool.py, which the mail 'Script' carries, and save it"

    def writes(text: str) -> Program:
        return as_program(
            {
                "id": "s1",
                "skill": "write_text_file",
                "args": {"path": "Documents/tool.py", "text": text},
            }
        )

    (problem,) = ungiven_literals(writes(said), catalog, [said, "a found value"])
    assert "this text is the instruction itself" in str(problem)
    # Words the instruction gives to write are copied, not the instruction.
    assert ungiven_literals(writes("Fix the bug"), catalog, [said]) == []
    # A found value that holds the instruction's words is found, not copied.
    assert ungiven_literals(writes("{s1}"), catalog, [said]) == []


def _sheet(*rows: list[object]) -> Program:
    return as_program(
        {"id": "s4", "skill": "fill_cells", "args": {"rows": list(rows), "save_as": "a.xlsx"}}
    )


def test_a_number_in_a_cell_must_be_given_or_found() -> None:
    catalog = default_catalog()
    said = 'Put "Bins emptied" in A1 and 1,250 in B1, the population in B2; save as a.xlsx.'
    assert given_parameters(catalog, "fill_cells")["rows"] == "cells"
    fine = _sheet(["Bins emptied", 1250], ["Population", {"from": "s3"}], ["=B1*2", "note"])
    assert ungiven_literals(fine, catalog, [said]) == []
    assert ungiven_literals(_sheet(["Population", "84,482,267"]), catalog, [said, "84482267"]) == []
    (problem,) = ungiven_literals(_sheet(["Bins emptied", "0"], ["x", 1250.0]), catalog, [said])
    assert problem.step == "s4" and "rows writes '0'," in problem.problem
    assert "1250" not in problem.problem


def test_a_font_size_must_be_a_number_the_instruction_says() -> None:
    catalog = default_catalog()
    assert given_parameters(catalog, "format_paragraphs")["font_size"] == "number"

    def sized(**change: object) -> Program:
        path = "Documents/report.docx"
        step = {"skill": "format_paragraphs", "args": {"path": path, "paragraphs": [0], **change}}
        return Program(steps=[ProgramStep.model_validate({"id": "s1", **step})])

    bigger = "Make the title of report.docx one font size step bigger."
    (problem,) = ungiven_literals(sized(font_size=2.0), catalog, [bigger])
    assert problem.step == "s1" and "gives 2;" in problem.problem
    assert ungiven_literals(sized(size_step="larger"), catalog, [bigger]) == []
    said = "Set the title of report.docx in 14 pt."
    assert ungiven_literals(sized(font_size=14), catalog, [said]) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    catalog = default_catalog()
    tasks = [t for t in generate_tasks(300, 31) if t.program]
    assert sum(any(s.skill == "fill_cells" for s in t.program) for t in tasks) > 10
    for task in tasks:
        steps = Program(steps=list(task.program))
        assert Evidence(given=[task.instruction]).doubts(steps, catalog) == [], task.instruction


def test_an_alarm_moved_by_an_amount_nobody_gave_is_a_doubt() -> None:
    """An alarm set 15 hours before the meeting, where the travel time found was to be used."""
    said = "Set an alarm so that I leave in time for the 14:00 meeting, and 45 minutes early."

    def doubts(**moved: object) -> list[str]:
        alarm = {"id": "s4", "skill": "set_alarm", "args": {"time": "14:00", **moved}}
        return [str(d) for d in ungiven_literals(as_program(alarm), default_catalog(), [said])]

    (doubt,) = doubts(hours_before=15)
    assert "hours_before=15: neither the instruction nor an earlier step gives 15" in doubt
    assert doubts(minutes_before=45) == []  # the instruction's amount
    assert doubts(hours_before=1) == []  # "an hour", said in words: a unit of counting
    assert doubts(minutes_before={"from": "s3", "key": "minutes"}) == []  # a value found
    assert given_parameters(default_catalog(), "shift_time")["minutes"] == "offset"


def test_a_number_at_the_end_of_a_file_s_name_gives_no_number() -> None:
    """pc22: "test_doc1.docx" had given the title's size, and it was set in 1 pt."""
    said = "Make the title of test_doc1.docx one size step bigger, or 14pt if that fails."

    def doubted(size: float) -> bool:
        step = {
            "id": "s1",
            "skill": "format_paragraphs",
            "args": {"path": "Documents/test_doc1.docx", "paragraphs": [0], "font_size": size},
        }
        return bool(ungiven_literals(as_program(step), default_catalog(), [said]))

    assert doubted(1) and not doubted(14)
