"""Every application the instruction asks for must be used by some step: a model picks them with
the words that ask, code keeps the picks whose words stand in the instruction and checks the
program against them. The real model's reading is measured in benchmarks/named_apps.py (its quick
run is in tests/test_benchmarks.py, smollm2)."""

from __future__ import annotations

import json

import pytest
from tests.agents.program_steps import as_program
from tests.agents.scripted import RecordingMemory, ScriptedModels, reply

from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.manager_memory import Example, Remembers, with_apps_of_files
from pcagent.agents.named_apps import (
    AppNamesAgent,
    AskedApp,
    calls,
    kept_apps,
    plain_names,
    unused_apps,
)
from pcagent.skills import default_catalog

SAID = (
    "Work out 17 * 23 with the calculator and keep the result as a new spreadsheet "
    "tally.xlsx with the number in cell A1."
)
APPS = {
    "calculator": "calculator",
    "spreadsheet": "spreadsheet (.xlsx/.ods)",
    "writer": "word processor (documents .docx/.odt)",
}


def test_only_picks_whose_words_stand_in_the_instruction_and_name_the_app_are_kept() -> None:
    picked = [
        AskedApp("calculator", "with the calculator"),
        AskedApp("calculator", "the calculator"),  # the same application again
        AskedApp("writer", "a document"),  # words the instruction does not write
        AskedApp("spreadsheet", "tally.xlsx"),  # words that do not call it by a name of its
        AskedApp("spreadsheet", '"A NEW SPREADSHEET"'),  # quoted, other case
        AskedApp("mail", "mail"),  # not one of the desktop's applications
        AskedApp("writer", "  "),
    ]
    assert kept_apps(picked, SAID, {**APPS, "files": "file manager"}) == (
        AskedApp("calculator", "with the calculator"),
        AskedApp("spreadsheet", "A NEW SPREADSHEET"),
    )
    # Words that call another application by its names stand for that one (the model quoted
    # "spreadsheet" and picked the word processor); words that call two, for neither.
    mislabelled = [AskedApp("writer", "a new spreadsheet"), AskedApp("calculator", "soffice")]
    both = {**APPS, "files": "file manager"}
    assert kept_apps(mislabelled, f"{SAID} (soffice)", both) == (
        AskedApp("spreadsheet", "a new spreadsheet"),
    )


def test_a_pick_quoting_no_name_stands_where_the_instruction_names_that_app() -> None:
    """pc12 (2026-12-03): the file manager picked with the quote "Documents"."""
    said = (
        "Open test_doc1.docx in the Documents folder from the file manager. In the word "
        "processor, make the title bold and save it."
    )
    apps = {**APPS, "file_manager": "file manager"}
    picked = [
        AskedApp("writer", "test_doc1.docx"),
        AskedApp("file_manager", "Documents"),
        AskedApp("writer", "word processor"),
    ]
    assert kept_apps(picked, said, apps) == (
        AskedApp("writer", "word processor"),
        AskedApp("file_manager", "file manager"),
    )
    # Where the instruction names it nowhere, a folder's name still asks for nothing.
    saved = "Write a new document and save it in the Documents folder."
    assert kept_apps([AskedApp("file_manager", "Documents")], saved, apps) == ()


def test_a_pick_whose_quote_is_not_in_the_instruction_stands_where_the_app_is_called() -> None:
    """pc20r2 (2026-12-05): the browser picked with the quote "browser" for "on the web"; a
    pick for an application the instruction never calls is still dropped."""
    said = "New Writer document named sights, describing places in Kyoto you look up on the web."
    apps = {**APPS, "browser": "web browser", "file_manager": "file manager"}
    picked = [
        AskedApp("writer", "Writer"),
        AskedApp("file_manager", "file_manager"),
        AskedApp("browser", "browser"),
    ]
    assert kept_apps(picked, said, apps) == (
        AskedApp("writer", "Writer"),
        AskedApp("browser", "web"),
    )


def test_a_quote_of_the_listing_s_name_counts_as_the_words_it_spells() -> None:
    """The model copied "text_editor" from the listing for the instruction's "text editor"; a
    listing name the instruction does not write ("file_manager") is still dropped."""
    said = "In the text editor, open notes.txt and read it."
    apps = {"text_editor": "plain-text editor", "file_manager": "file manager"}
    picked = [AskedApp("writer", "text_editor"), AskedApp("file_manager", "file_manager")]
    assert kept_apps(picked, said, apps) == (AskedApp("text_editor", "text editor"),)


def test_an_application_s_everyday_names_count_as_whole_words() -> None:
    said = (
        "Look up the prices on the web, put them in a new Calc workbook, set an alarm for noon "
        "and email it."
    )
    everyone = {
        **APPS,
        "browser": "web browser",
        "clock": "clocks, alarms, timers, world clocks",
        "mail": "e-mail client",
    }
    picked = [
        AskedApp("browser", "on the web"),
        AskedApp("writer", "a new Calc workbook"),  # mislabelled: Calc is the spreadsheet
        AskedApp("clock", "an alarm"),
        AskedApp("mail", "email"),
    ]
    assert [use.app for use in kept_apps(picked, said, everyone)] == [
        "browser",
        "spreadsheet",
        "clock",
        "mail",
    ]
    # "Calc" is a word of its own: the calculator's name does not call the spreadsheet.
    calculator = [AskedApp("spreadsheet", "with the calculator")]
    assert kept_apps(calculator, SAID, APPS) == (AskedApp("calculator", "with the calculator"),)
    assert calls("e-mail it", "e-mail") and calls("a plain text editor", "plain-text editor")
    assert not calls("email", "mail") and not calls("the calculator", "calc")
    assert calls("two spreadsheets", "spreadsheet") and not calls("a spreadsheet", "spreadsheets")


CALCULATE = {"id": "s1", "skill": "calculate", "args": {"expression": "17 * 23"}}
AS_DOCUMENT = {
    "id": "s2",
    "skill": "write_document",
    "args": {"path": "Documents/tally.docx", "text": "{s1}"},
}
AS_SHEET = {
    "id": "s2",
    "skill": "fill_cells",
    "args": {"path": "Documents/tally.xlsx", "rows": [[{"from": "s1"}]]},
}
ASKED = [
    AskedApp("calculator", "with the calculator"),
    AskedApp("spreadsheet", "a new spreadsheet"),
]


def test_an_application_asked_for_that_no_step_uses_is_a_doubt_on_the_last_step() -> None:
    (doubt,) = unused_apps(as_program(CALCULATE, AS_DOCUMENT), ASKED, default_catalog())
    assert doubt.step == "s2"
    assert 'asks for the spreadsheet ("a new spreadsheet"), and no step uses it' in str(doubt)
    # The doubt names the skills that work there, so the re-ask can pick one.
    assert "(in the spreadsheet: fill_cells, " in str(doubt) and "or a gui step)" in str(doubt)
    assert "write_document" not in str(doubt).split("(in the spreadsheet:")[1]
    assert unused_apps(as_program(CALCULATE, AS_SHEET), ASKED, default_catalog()) == []


def test_a_screen_step_or_a_finished_step_may_use_it() -> None:
    screen = as_program(
        CALCULATE,
        {"id": "s2", "skill": "gui", "app": "spreadsheet", "task": "Write {s1} into A1"},
    )
    assert unused_apps(screen, ASKED, default_catalog()) == []
    after_the_sum = as_program(AS_SHEET | {"id": "s3"})
    assert unused_apps(after_the_sum, ASKED, default_catalog(), used_before={"calculator"}) == []
    assert unused_apps(after_the_sum, ASKED, default_catalog()) != []
    # A skill of no application (days between dates) uses none.
    days = as_program(
        {"id": "s1", "skill": "days_between", "args": {"start": "2025-02-18", "end": "2025-03-03"}}
    )
    assert len(unused_apps(days, ASKED, default_catalog())) == 2


def test_the_reader_offers_only_the_desktop_s_applications_and_survives_no_reply() -> None:
    models = ScriptedModels(
        named_apps=[
            reply(
                apps=[
                    {"app": "calculator", "words": "with the calculator"},
                    {"app": "writer", "words": "a report"},
                ]
            )
        ]
    )
    reader = AppNamesAgent(models.for_role("named_apps"))
    assert reader.asked(SAID, APPS) == (AskedApp("calculator", "with the calculator"),)
    prompt = models.backends["named_apps"].requests[0]
    system = prompt.messages[0].text
    assert "- spreadsheet: spreadsheet (.xlsx/.ods) (known as LibreOffice Calc" in system
    assert "Instruction: Work out 17 * 23" in prompt.messages[-1].text
    # An application the desktop lacks is outside the reply's grammar: refused, then none.
    other = ScriptedModels(named_apps=[reply(apps=[{"app": "mail", "words": "mail"}])] * 2)
    assert AppNamesAgent(other.for_role("named_apps")).asked(SAID, APPS) == ()
    broken = ScriptedModels(named_apps=["no json", "none again"])
    assert AppNamesAgent(broken.for_role("named_apps")).asked(SAID, APPS) == ()
    assert AppNamesAgent(broken.for_role("named_apps")).asked(SAID, {}) == ()


def test_a_reply_cut_off_at_its_bound_is_followed_by_an_ask_for_the_apps_not_kept() -> None:
    said = (
        "Write kth_largest(numbers, k) into a new file kth_largest.py with the text editor. "
        "Attach the file to an email to howie@example.test in Thunderbird and send it."
    )
    apps = {"text_editor": "text files", "calculator": "arithmetic", "mail": "e-mail"}
    rambled = [{"app": "text_editor", "words": "the text editor"}] + [
        {"app": "calculator", "words": word} for word in ("kth_largest", "numbers", "k", "list")
    ]
    rambled.append({"app": "calculator", "words": "largest"})
    models = ScriptedModels(
        named_apps=[reply(apps=rambled), reply(apps=[{"app": "mail", "words": "Thunderbird"}])]
    )
    reader = AppNamesAgent(models.for_role("named_apps"))
    assert reader.asked(said, apps) == (
        AskedApp("text_editor", "the text editor"),
        AskedApp("mail", "Thunderbird"),
    )
    second = models.backends["named_apps"].requests[1].messages[0].text
    assert "- mail:" in second and "- calculator:" in second and "- text_editor" not in second
    # A reply shorter than its bound is the whole reading: one ask.
    once = ScriptedModels(named_apps=[reply(apps=rambled[:5])])
    assert AppNamesAgent(once.for_role("named_apps")).asked(said, apps) == (
        AskedApp("text_editor", "the text editor"),
    )


def test_read_by_slots_every_application_gets_a_field_and_empty_ones_are_no_pick() -> None:
    words = {app: "" for app in APPS}
    said = reply(**{**words, "calculator": "with the calculator", "writer": "a report"})
    models = ScriptedModels(named_apps=[said])
    reader = AppNamesAgent(models.for_role("named_apps"), by_slots=True)
    # The same test of the words as for a list: "a report" does not name the word processor.
    assert reader.asked(SAID, APPS) == (AskedApp("calculator", "with the calculator"),)
    request = models.backends["named_apps"].requests[0]
    assert set(request.schema["required"]) == set(APPS)  # every application, in the grammar
    assert 'or leave it empty ("")' in request.messages[0].text
    missing = ScriptedModels(named_apps=[reply(calculator="the calculator")] * 2)
    assert AppNamesAgent(missing.for_role("named_apps"), by_slots=True).asked(SAID, APPS) == ()


@pytest.mark.parametrize(("later", "doubted"), [("sheet", False), ("document", True)])
def test_the_manager_is_asked_again_and_keeps_the_doubt_if_it_stays(
    later: str, doubted: bool
) -> None:
    as_document = {"steps": [CALCULATE, AS_DOCUMENT]}
    replies = (
        [as_document, {"steps": [CALCULATE, AS_SHEET]}]
        if later == "sheet"
        else [as_document] * PROGRAM_ATTEMPTS
    )
    models = ScriptedModels(manager=[json.dumps(r) for r in replies])
    asked: list[str] = []

    def asks(instruction: str) -> tuple[AskedApp, ...]:
        asked.append(instruction)
        return tuple(ASKED)

    manager = Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog(),
        readings=InstructionReadings(apps=asks),
        asks_single_steps=False,  # tests/agents/test_focused_steps.py
    )
    outcome = manager.plan(SAID)
    assert asked == [SAID]  # read once, though the Manager was asked more often
    # The first ask says which application each name stands for.
    first = models.backends["manager"].requests[0].messages[-1].text
    assert (
        '"with the calculator" is the calculator, "a new spreadsheet" is the spreadsheet' in first
    )
    again = models.backends["manager"].requests[1].messages[-1].text
    assert "asks for the spreadsheet" in again
    assert bool(outcome.plan.subtasks[-1].doubt) is doubted


def _remembering(models: ScriptedModels, memory: Remembers, **options: bool) -> Manager:
    """A Manager with memory, the instruction read as asking for ASKED."""
    return Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog(),
        readings=InstructionReadings(apps=lambda _: tuple(ASKED)),
        memory=memory,
        **options,
    )


def test_the_re_ask_shows_a_remembered_program_that_calls_a_skill_of_the_unused_app() -> None:
    models = ScriptedModels(
        manager=[json.dumps({"steps": [CALCULATE, s]}) for s in (AS_DOCUMENT, AS_SHEET)]
    )
    memory = RecordingMemory(reply=[Example("a sheet", ())])
    outcome = _remembering(models, memory).plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["calculate", "fill_cells"]
    # The first ask's memory, those working in both applications asked for first; then one
    # program of a skill of the spreadsheet for the re-ask.
    sheet = ["fill_cells", "read_sheet", "sort_sheet"]
    # The re-ask's example is picked the same way as the first ask's.
    covering = [["calculate"], sheet]
    asked = [(a.instruction, a.k, a.using, a.covering) for a in memory.asks]
    assert asked == [(SAID, 3, (), covering), (SAID, 1, tuple(sheet), covering)]
    first, again = memory.asks
    assert first.avoiding == again.avoiding
    # the instruction names no file (tests/agents/test_given_files.py)
    assert first.preferring is None and again.preferring is None
    # Programs that also work in an application not asked for are the ones left out.
    assert {"send_mail", "write_document"} <= first.avoiding
    assert not first.avoiding & {"calculate", "fill_cells", "extract_values"}
    assert {"web_search", "read_mail"} <= first.avoiding  # lookups in them too
    reask = models.backends["manager"].requests[1].messages[-1].text
    assert reask.endswith(
        "A similar earlier task whose program calls fill_cells or read_sheet or sort_sheet:\n"
        'Instruction: a sheet\nProgram: {"steps":[]}'
    )
    # Asked the way runs asked before: the nearest programs as they come.
    memory.asks.clear()
    models = ScriptedModels(manager=[json.dumps({"steps": [CALCULATE, AS_SHEET]})])
    _remembering(models, memory, examples_cover_apps=False).plan(SAID)
    (only,) = memory.asks
    assert (only.k, only.using, only.covering, only.avoiding) == (3, (), [], set())


def test_an_article_the_model_put_before_the_words_is_left_out() -> None:
    # pc07 (2026-12-02): "the spreadsheet" quoted for "Create a new spreadsheet"; words that
    # stand nowhere without it are still dropped.
    said = "Search the web for three prices. Create a new spreadsheet and save it as stocks."
    picked = [AskedApp("spreadsheet", "the spreadsheet"), AskedApp("calculator", "the calculator")]
    assert kept_apps(picked, said, APPS) == (AskedApp("spreadsheet", "spreadsheet"),)
    assert kept_apps([AskedApp("writer", "the document")], SAID, APPS) == ()


DESKTOP = {
    "text_editor": "plain-text editor (text files, .txt, source code)",
    "browser": "web browser",
    "writer": "word processor (documents .docx/.odt)",
    "file_manager": "file manager",
    "clock": "clocks, alarms, timers, world clocks",
}


def test_an_application_s_program_name_is_shown_to_the_manager_as_its_kind() -> None:
    said = (
        "Open notes.docx via Thunar, make its title bold in LibreOffice Writer, copy the date "
        "into Mousepad and set an alarm in the Clocks app."
    )
    picks = (
        AskedApp("file_manager", "via Thunar"),
        AskedApp("writer", "LibreOffice Writer"),
        AskedApp("text_editor", "into mousepad"),
        AskedApp("clock", "Clocks app"),
    )
    shown, named = plain_names(said, picks, DESKTOP)
    assert shown == (
        "Open notes.docx via the file manager, make its title bold in the word processor, copy "
        "the date into the plain-text editor and set an alarm in the Clocks app."
    )
    # "Clocks" is the clock's everyday word too: it stays, and so does its line.
    assert named == (AskedApp("clock", "Clocks app"),)
    # Words the reading did not confirm, and everyday words, are left as they are.
    plain = "Write it in the text editor and check it on the web."
    everyday = (AskedApp("text_editor", "text editor"), AskedApp("browser", "web"))
    assert plain_names(plain, everyday, DESKTOP) == (plain, everyday)
    assert plain_names("Open it in Mousepad.", (), DESKTOP) == ("Open it in Mousepad.", ())


def test_the_manager_reads_the_instruction_with_the_kinds_and_no_names_line() -> None:
    said = "Could you open memo.txt in Mousepad, then check in Chromium how long the trip takes?"
    picks = (AskedApp("text_editor", "in Mousepad"), AskedApp("browser", "in Chromium"))
    steps = [{"id": "s1", "skill": "read_text_file", "args": {"path": "memo.txt"}}]
    models = ScriptedModels(manager=[json.dumps({"steps": steps})] * PROGRAM_ATTEMPTS)
    manager = Manager(
        models.for_role("manager"),
        apps=DESKTOP,
        skills=default_catalog(),
        readings=InstructionReadings(apps=lambda _: picks),
        asks_single_steps=False,
    )
    manager.plan(said)
    first = models.backends["manager"].requests[0].messages[-1].text
    assert "open memo.txt in the plain-text editor, then check in the web browser how" in first
    assert "Mousepad" not in first and "Chromium" not in first
    assert "names of applications" not in first


def test_a_named_file_s_kind_adds_its_application_to_those_the_examples_are_picked_for() -> None:
    """A rewording of pc11 (2026-12-02): the reading named only the file manager, and every
    program that filled a sheet was held back for movie_rate.xlsx."""
    catalog = default_catalog()
    manager_only = (AskedApp("file_manager", "Thunar"),)
    added = with_apps_of_files(manager_only, ["movie_rate.xlsx", "notes", "a.docx"], catalog)
    assert added == (
        *manager_only,
        AskedApp("spreadsheet", "movie_rate.xlsx"),
        AskedApp("writer", "a.docx"),
    )
    # An application asked for already keeps its own words.
    asked_sheet = (AskedApp("spreadsheet", "a new spreadsheet"),)
    assert with_apps_of_files(asked_sheet, ["tally.xlsx"], catalog) == asked_sheet
    # The Manager picks its examples for it: the spreadsheet's skills are covered, not avoided.
    memory = RecordingMemory()
    models = ScriptedModels(manager=[json.dumps({"steps": [CALCULATE, AS_SHEET]})])
    Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=catalog,
        readings=InstructionReadings(
            apps=lambda _: (AskedApp("calculator", "the calculator"),),
            files=lambda _: ("Documents/tally.xlsx",),
        ),
        memory=memory,
    ).plan("Work out 17 * 23 with the calculator and put it into Documents/tally.xlsx")
    first = memory.asks[0]
    assert ["fill_cells", "read_sheet", "sort_sheet"] in first.covering
    assert "fill_cells" not in first.avoiding and "write_document" in first.avoiding
