"""First moves the run makes by rule: opening a named file, searching, writing and saving."""

from __future__ import annotations

from pcagent import actions as act
from pcagent import app_actions
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import default_pool
from pcagent.runtime.rule_moves import (
    compose_kind,
    document_move,
    named_file,
    open_action_kind,
    save_move,
    save_path,
    search_move,
    search_words,
)

APPS = ["text_editor", "writer", "spreadsheet", "file_manager", "calculator"]
KINDS = frozenset({"editor_open", "writer_open", "sheet_open", "files_open", "editor_save_as"})
POOL = default_pool(APPS, KINDS)


def subtask(description: str, app: str) -> SubtaskSpec:
    return SubtaskSpec(id="s1", description=description, app=app)


def test_the_file_a_subtask_opens_is_read_off_its_words() -> None:
    assert named_file("In the text editor, open the file notes.txt and find the date") == (
        "notes.txt"
    )
    assert named_file("Open budget.xlsx in the Documents folder from the file manager") == (
        "budget.xlsx"
    )
    assert named_file("Open Documents/plan.docx and make the title bold") == "Documents/plan.docx"
    assert named_file("Save the document as report.docx") == ""  # saving is not opening
    assert named_file("Open it in the code editor, fix the bug") == ""
    assert named_file("Open the calculator, compute 1.5 * 2") == ""


def test_each_application_opens_by_its_own_action() -> None:
    assert open_action_kind("text_editor", KINDS) == "editor_open"
    assert open_action_kind("file_manager", KINDS) == "files_open"
    assert open_action_kind("calculator", KINDS) == ""
    assert open_action_kind("writer", frozenset({"editor_open"})) == ""  # not the role's


def test_the_run_opens_the_named_file_once_its_application_is_in_front() -> None:
    role = POOL.for_app("text_editor")
    assert role is not None
    reading = subtask(
        "In the text editor, open the file notes.txt and find the date", "text_editor"
    )
    move = document_move(reading, role, "text_editor", "Untitled 1 - Mousepad", [])
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.EditorOpen(path="notes.txt")
    # not before the application is in front, not when it shows the file, not a second time
    assert document_move(reading, role, "calculator", "galculator", []) is None
    assert document_move(reading, role, "text_editor", "notes.txt - Mousepad", []) is None
    tried = ["2: editor_open(path='notes.txt') -> no_change"]
    assert document_move(reading, role, "text_editor", "Untitled 1 - Mousepad", tried) is None
    # a subtask that opens no file is the model's to decide
    writing = subtask("Write a shopping list and save it as list.txt", "text_editor")
    assert document_move(writing, role, "text_editor", "Untitled 1 - Mousepad", []) is None


def test_the_words_a_subtask_searches_for() -> None:
    assert search_words("Search the web for the opening hours of the city library") == (
        "the opening hours of the city library"
    )
    assert search_words("Look up in the browser the height of Mont Blanc, tell me") == (
        "the height of Mont Blanc"
    )
    assert search_words("Look up the reviews of the Lumen café on yelp.com in the browser.") == (
        "the reviews of the Lumen café on yelp.com"
    )
    assert search_words("Use the browser to find out whether trams run in Oslo, tell me") == (
        "whether trams run in Oslo"
    )
    assert search_words(
        "Compare the prices of a kettle at Big Mart and Home Hub in the browser."
    ) == ("the prices of a kettle at Big Mart and Home Hub")
    # words that need an earlier subtask's values are the model's to write, without any
    assert search_words("Then search for a hotel near it in the browser") == ""
    assert search_words("Open the bookmarks and read them") == ""
    # with a value found before, it is added to the words that point back at it
    assert search_words("Then search for a hotel near it in the browser", ["Harbour Inn"]) == (
        "a hotel near it Harbour Inn"
    )


def test_the_findings_a_search_may_point_back_at() -> None:
    from pcagent.runtime.rule_moves import findings_for

    hub = {"place": "09:00 Picnic at Elm Park", "s1_read": "the memo", "long": "x" * 500}
    near = subtask("Search for a cafe near there", "browser")
    assert findings_for(near, hub) == ["09:00 Picnic at Elm Park"]
    declared = near.model_copy(update={"inputs": ["s1_read"]})
    assert findings_for(declared, hub) == ["the memo"]
    kinds = frozenset({"browser_open", "browser_read"})
    role = default_pool(["browser"], kinds).get("browser")
    move = search_move(near, role, "browser", [], hub)
    assert move is not None
    assert move.action == app_actions.BrowserOpen(url="a cafe near there 09:00 Picnic at Elm Park")


def test_the_run_searches_once_the_browser_is_in_front() -> None:
    kinds = frozenset({"browser_open", "browser_read"})
    role = default_pool(["browser"], kinds).get("browser")
    searching = subtask("Search the web for the height of Mont Blanc", "browser")
    move = search_move(searching, role, "browser", [])
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.BrowserOpen(url="the height of Mont Blanc")
    assert search_move(searching, role, "text_editor", []) is None  # not in front yet
    opened = ["2: browser_open(url='example.test') -> success"]
    assert search_move(searching, role, "browser", opened) is None  # already opened something
    gui_only = default_pool(["browser"], frozenset()).get("browser")
    assert search_move(searching, gui_only, "browser", []) is None


def test_what_the_run_writes_and_where_it_saves_it() -> None:
    role = POOL.get("office_editor")
    roles_kinds = role.kinds | {"writer_insert", "writer_save"}
    office = role.__class__(role.name, role.capability, roles_kinds, role.apps)
    letter = subtask(
        "Write a short letter, and save it as letter in the Documents folder", "writer"
    )
    assert compose_kind(letter, office, "writer", []) == "writer_insert"
    assert compose_kind(letter, office, "text_editor", []) == ""  # not in front yet
    written = ["2: writer_insert(text='Dear...') -> success"]
    assert compose_kind(letter, office, "writer", written) == ""  # once
    bold = subtask("Make the title bold and save it", "writer")
    assert compose_kind(bold, office, "writer", []) == ""  # nothing to write
    assert save_path(letter.description) == "Documents/letter"
    assert save_path("write it, save it as notes.txt.") == "notes.txt"
    assert save_path(bold.description) == ""
    created = "Create a new Python file sums.py in the Documents folder and write a function"
    assert save_path(created) == "Documents/sums.py"


def test_cells_just_written_are_saved_under_the_subtask_s_name() -> None:
    from pcagent.runtime.rule_moves import save_move

    role = POOL.get("office_editor")
    office = role.__class__(role.name, role.capability, role.kinds | {"sheet_save"}, role.apps)
    sheet = subtask("Create a sheet, put the names in A, and save it as staff", "spreadsheet")
    wrote = ["3: sheet_set(cell='A1', values=(('Ana',),)) -> success"]
    move = save_move(sheet, office, "spreadsheet", wrote)
    assert move is not None and move.action == app_actions.SheetSave(path="staff")
    assert (
        save_move(
            sheet, office, "spreadsheet", [*wrote, "4: sheet_save(path='staff') -> success", *wrote]
        )
        is None
    )
    failed = ["3: sheet_set(cell='A1', values=(('Ana',),)) -> no_change"]
    assert save_move(sheet, office, "spreadsheet", failed) is None
    # a change Reflection did not expect is still something written
    judged = ["3: sheet_set(cell='A1', values=(('Ana',),)) -> unexpected_change"]
    assert save_move(sheet, office, "spreadsheet", judged) is not None


def test_the_composer_is_asked_only_for_what_to_write() -> None:
    from pcagent.runtime.rule_moves import writing_part

    whole = (
        "Create a new document in the word processor. Write a paragraph on tea, and save the "
        "document as Tea in the Documents folder."
    )
    assert writing_part(whole) == "Write a paragraph on tea"
    assert writing_part("Write a haiku, save it as haiku.txt") == "Write a haiku"
    assert writing_part("Open a.txt and fix it") == "Open a.txt and fix it"  # nothing to cut to


def test_a_save_after_writing_is_the_subtask_s_last_step() -> None:
    from pcagent.runtime.rule_moves import saved_its_writing

    sheet = subtask("Create a sheet, put the names in A, and save it as staff", "spreadsheet")
    wrote = "3: sheet_set(cell='A1', values=(('Ana',),)) -> success"
    saved = "4: sheet_save(path='staff') -> success"
    assert saved_its_writing(sheet, [wrote, saved])
    assert not saved_its_writing(sheet, [saved])  # nothing written before: an empty sheet
    assert not saved_its_writing(sheet, [wrote, "4: sheet_save(path='staff') -> no_change"])
    assert not saved_its_writing(sheet, [saved, wrote])  # written after the save
    unnamed = subtask("Put the names in A and keep it", "spreadsheet")
    assert not saved_its_writing(unnamed, [wrote, saved])
    # creating a named file is saving it, though the words never say "save"
    created = subtask(
        "Create a new file area.py in the Documents folder, write a function area(r)",
        "text_editor",
    )
    typed = "2: type(text='def area(r): ...') -> unexpected_change"
    stored = "3: editor_save_as(path='Documents/area.py') -> success"
    assert saved_its_writing(created, [typed, stored])
    assert not saved_its_writing(
        subtask("Write a function area(r)", "text_editor"), [typed, stored]
    )


def test_a_subtask_s_file_counts_as_opened_once_a_step_of_it_opened_it() -> None:
    from pcagent.runtime.rule_moves import file_unopened

    finding = "Open the file agenda.txt in the Documents folder and find the venue"
    assert file_unopened(finding, [])
    assert file_unopened(finding, ["1: open_app(app='text_editor') -> success"])
    assert file_unopened(finding, ["2: editor_open(path='agenda.txt') -> no_change"])
    assert not file_unopened(finding, ["2: editor_open(path='Documents/agenda.txt') -> success"])
    assert not file_unopened("Find the venue on the page", [])  # no file named


def test_what_a_subtask_found_is_told_when_it_asks_and_once() -> None:
    from pcagent.runtime.rule_moves import tell_move

    asking = subtask("Look up the weather there, and tell me", "browser").model_copy(
        update={"outputs": ["weather"]}
    )
    assert tell_move(asking, {}, []) is None  # nothing found yet
    move = tell_move(asking, {"weather": "Oslo: rain, 4 °C"}, [])
    assert move is not None and move.action == act.Answer(text="Oslo: rain, 4 °C")
    answered = ["4: answer(text='Oslo: rain, 4 °C') -> success"]
    assert tell_move(asking, {"weather": "Oslo: rain, 4 °C"}, answered) is None
    quiet = asking.model_copy(update={"description": "Look up the weather there"})
    assert tell_move(quiet, {"weather": "Oslo: rain, 4 °C"}, []) is None


def test_a_sheet_subtask_that_names_its_columns_gets_its_rows_from_the_composer() -> None:
    from pcagent.runtime.rule_moves import first_cell

    role = POOL.get("office_editor")
    office = role.__class__(role.name, role.capability, role.kinds | {"sheet_set"}, role.apps)
    sheet = subtask(
        "Create a new spreadsheet, write the names in column A and the ages in column B, "
        "and save it as staff",
        "spreadsheet",
    )
    assert compose_kind(sheet, office, "spreadsheet", []) == "sheet_set"
    assert compose_kind(sheet, office, "writer", []) == ""  # not in front
    wrote = ["3: sheet_set(cell='A1', values=(('Ana', 30),)) -> success"]
    assert compose_kind(sheet, office, "spreadsheet", wrote) == ""  # once
    # no columns named: the cells of an existing workbook are the model's to find
    fill = subtask("Open scores.xlsx, fill in the two scores, and save it", "spreadsheet")
    assert compose_kind(fill, office, "spreadsheet", []) == ""
    assert first_cell(sheet.description) == "A1"
    assert first_cell("put the totals in column C") == "C1"


def test_an_alarm_relative_to_a_found_time_is_set_at_the_worked_out_time() -> None:
    from pcagent.runtime.rule_moves import alarm_move

    kinds = frozenset({"clock_add_alarm", "clock_add_world_clock"})
    role = default_pool(["calculator", "clock"], kinds).get("calculator_clock")
    assert role is not None
    alarm = subtask("Set an alarm in the Clocks app one hour before that event.", "clock")
    hub = {"the_event": "10:15  Call with the agency"}
    move = alarm_move(alarm, role, "clock", [], alarm.description, hub)
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.ClockAddAlarm(time="09:15")
    assert alarm_move(alarm, role, "text_editor", [], alarm.description, hub) is None
    set_once = ["4: clock_add_alarm(time='09:15', name='') -> success"]
    assert alarm_move(alarm, role, "clock", set_once, alarm.description, hub) is None
    plain = subtask("Set an alarm at 07:00", "clock")
    assert alarm_move(plain, role, "clock", [], plain.description, hub) is None  # the model's


def test_a_picked_thing_is_told_as_soon_as_it_is_known() -> None:
    from pcagent.runtime.rule_moves import tell_move

    asking = subtask("Look up the flights, and tell me which is the shortest", "browser")
    asking = asking.model_copy(update={"outputs": ["flights"]})
    move = tell_move(asking, {}, [], {"shortest": "Rome (3 h 10 min)"})
    assert move is not None and move.action == act.Answer(text="Rome (3 h 10 min)")
    told = ["5: answer(text='Rome (3 h 10 min)') -> success"]
    assert tell_move(asking, {}, told, {"shortest": "Rome (3 h 10 min)"}) is None


def test_a_document_is_formatted_clause_by_clause_then_saved() -> None:
    from pcagent.runtime.rule_moves import format_move

    base = POOL.get("office_editor")
    kinds = base.kinds | {"writer_format", "writer_read", "writer_save"}
    role = base.__class__(base.name, base.capability, kinds, base.apps)
    doc = subtask("Center the title, underline the last paragraph, and save it.", "writer")
    first = format_move(doc, role, "writer", [], "")
    assert first is not None and first.action == app_actions.WriterFormat(
        paragraphs=(0,), alignment="center"
    )
    history = ["3: writer_format(paragraphs=(0,), alignment='center') -> success"]
    read = format_move(doc, role, "writer", history, "")  # "the last": the numbers first
    assert read is not None and read.action == app_actions.WriterRead()
    history.append("4: writer_read() -> success")
    reading = "step 4, writer_read: 0: Title\n1: One.\n2: Two.\n3: "
    last = format_move(doc, role, "writer", history, reading)
    assert last is not None and last.action == app_actions.WriterFormat(
        paragraphs=(2,), underline=True
    )
    history.append("5: writer_format(paragraphs=(2,), underline=True) -> success")
    save = format_move(doc, role, "writer", history, "")
    assert save is not None and save.action == app_actions.WriterSave(path="")
    history.append("6: writer_save(path='') -> success")
    assert format_move(doc, role, "writer", history, "") is None
    from pcagent.runtime.rule_moves import saved_its_writing

    assert saved_its_writing(doc, history)  # the save ends the subtask
    # a failed format: the model takes over
    failed = ["3: writer_format(paragraphs=(0,), alignment='center') -> no_change"]
    assert format_move(doc, role, "writer", failed, "") is None
    assert format_move(doc, role, "text_editor", [], "") is None  # not in front


def test_the_run_goes_to_the_address_a_browser_subtask_names() -> None:
    from pcagent.runtime.rule_moves import address_move

    kinds = frozenset({"browser_open", "browser_read"})
    role = default_pool(["browser"], kinds).get("browser")
    going = subtask("Go to https://papers.test/ in the browser and search for agents", "browser")
    move = address_move(going, role, "browser", [])
    assert move is not None and move.action == app_actions.BrowserOpen(url="https://papers.test/")
    visiting = subtask("Visit www.example.test.", "browser")
    assert address_move(visiting, role, "browser", []).action == app_actions.BrowserOpen(  # type: ignore[union-attr]
        url="www.example.test"
    )
    assert address_move(going, role, "browser", ["2: browser_open(url='x') -> success"]) is None
    assert address_move(subtask("Search for agents", "browser"), role, "browser", []) is None


RESULTS = """walk to the pier - Offline Search
http://search.test/?q=walk
Offline Search
Search

About 3 results

Town Hall to Pier - Offline Maps
http://maps.test/directions?from=hall&to=pier

Directions and travel time on foot from Town Hall to Pier.

Pier opening hours - Facts
http://facts.test/pier
"""


def test_the_first_result_is_opened_when_the_snippets_did_not_give_the_value() -> None:
    from pcagent.runtime.rule_moves import first_result, result_move

    assert first_result(RESULTS) == "Town Hall to Pier - Offline Maps"
    assert first_result("A page\nhttp://x.test\nno results count") == ""
    kinds = frozenset({"browser_open", "browser_click"})
    role = default_pool(["browser"], kinds).get("browser")
    finding = subtask("Look up how long the walk to the pier takes", "browser").model_copy(
        update={"outputs": ["walk"]}
    )
    searched = ["3: browser_open(url='walk to the pier') -> success"]
    reading = f"step 3, browser_open: {RESULTS}"
    move = result_move(finding, role, "browser", searched, {}, reading)
    assert move is not None
    assert move.action == app_actions.BrowserClick(text="Town Hall to Pier - Offline Maps")
    # the value is in, it clicked before, or the last step was no search: the model's
    assert result_move(finding, role, "browser", searched, {"walk": "12 min"}, reading) is None
    clicked = [*searched, "4: browser_click(text='x') -> success", *searched]
    assert result_move(finding, role, "browser", clicked, {}, reading) is None
    assert (
        result_move(
            finding, role, "browser", ["3: open_app(app='browser') -> success"], {}, reading
        )
        is None
    )


def test_the_days_between_a_written_and_a_found_date_are_counted_by_the_calculator() -> None:
    from pcagent.runtime.rule_moves import days_move

    kinds = frozenset({"calculator_evaluate"})
    role = default_pool(["calculator", "clock"], kinds).get("calculator_clock")
    counting = subtask(
        "compute with the calculator how many days there are from 2 May 2025 to the start",
        "calculator",
    )
    hub = {"start": "Leaving on June 1, 2025 at 08:00", "s1_read": "back on 9 June 2025"}
    move = days_move(counting, role, "calculator", [], counting.description, hub)
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.CalculatorEvaluate(expression="2025-06-01 - 2025-05-02")
    done = ["4: calculator_evaluate(expression='2025-06-01 - 2025-05-02') -> success"]
    assert days_move(counting, role, "calculator", done, counting.description, hub) is None
    # three dates known, or no days asked: the model's
    more = hub | {"back": "back on 9 June 2025"}
    assert days_move(counting, role, "calculator", [], counting.description, more) is None
    plain = subtask("compute 12 * 7", "calculator")
    assert days_move(plain, role, "calculator", [], plain.description, hub) is None


def test_the_one_expression_a_calculator_subtask_writes_out_is_evaluated_once() -> None:
    from pcagent.runtime.rule_moves import expression_move

    role = default_pool(["calculator", "clock"], frozenset({"calculator_evaluate"})).get(
        "calculator_clock"
    )
    computing = subtask("Open the calculator and work out (31 x 4) ÷ 8 - 2", "calculator")
    move = expression_move(computing, role, "calculator", [])
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.CalculatorEvaluate(expression="(31 * 4) / 8 - 2")
    done = ["2: calculator_evaluate(expression='(31 * 4) / 8 - 2') -> success"]
    assert expression_move(computing, role, "calculator", done) is None
    # not before the calculator is in front; not without one computable expression; not for a
    # role without the calculator's action
    assert expression_move(computing, role, "text_editor", []) is None
    for words in ("compute the total of the two prices", "add 3 + 4 and 5 * 6", "divide 7 / 0"):
        assert expression_move(subtask(words, "calculator"), role, "calculator", []) is None
    gui = default_pool(["calculator", "clock"]).get("calculator_clock")
    assert expression_move(computing, gui, "calculator", []) is None


def test_a_subtask_that_only_opens_its_file_is_done_once_it_is_open() -> None:
    from pcagent.runtime.rule_moves import opened_its_file

    opening = "Then open the workbook scores.xlsx in the Documents folder from the file manager"
    opened = ["4: files_open(path='Documents/scores.xlsx') -> success"]
    assert opened_its_file(opening, opened)
    assert not opened_its_file(opening, ["4: files_open(path='x.xlsx') -> success"])
    assert not opened_its_file(opening, ["4: files_open(path='scores.xlsx') -> no_change"])
    # more than opening asked: the subtask goes on
    assert not opened_its_file(f"{opening} and fill in the scores", opened)


def test_a_subtask_that_writes_from_the_document_s_text_reads_it_first() -> None:
    from pcagent.runtime.rule_moves import read_first_move

    kinds = frozenset({"writer_read", "writer_insert", "writer_save"})
    role = default_pool(["writer"], kinds).get("office_editor")
    translating = subtask(
        "Write an English translation of its text below the main text, and save it", "writer"
    )
    move = read_first_move(translating, role, "writer", [])
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.WriterRead()
    read = ["2: writer_read() -> success"]
    assert read_first_move(translating, role, "writer", read) is None  # once
    inserted = ["2: writer_insert(text='x') -> success"]
    assert read_first_move(translating, role, "writer", inserted) is None  # already written
    # writing on a subject of its own, or the word processor not in front: nothing to read
    fresh = subtask("Write a paragraph about tea and save it as Tea", "writer")
    assert read_first_move(fresh, role, "writer", []) is None
    assert read_first_move(translating, role, "file_manager", []) is None


def test_the_composer_gets_the_task_when_what_it_writes_points_back() -> None:
    from pcagent.runtime.rule_moves import with_task

    task = "Search the web for parks in Oslo, write what you find into a new document."
    vague = "write what you find into a new document"
    assert with_task(vague, task) == f"{vague} (from the task: {task})"
    assert with_task("Write them into notes.txt", task).endswith(f"(from the task: {task})")
    named = "Write a paragraph about tea"
    assert with_task(named, task) == named  # says what to write: asked as it is
    assert with_task(task, task) == task  # the task itself: nothing to add


def test_save_it_in_the_word_processor_saves_the_document_where_it_is() -> None:
    kinds = frozenset({"writer_insert", "writer_save", "writer_read"})
    role = default_pool(["writer"], kinds).get("office_editor")
    writing = subtask("Write an English translation of its text below it, and save it", "writer")
    inserted = ["4: writer_insert(text='This weekend ...') -> success"]
    move = save_move(writing, role, "writer", inserted)
    assert move is not None and move.action == app_actions.WriterSave(path="")
    assert save_move(writing, role, "writer", [*inserted, "5: writer_save() -> success"]) is None
    unsaid = subtask("Write an English translation of its text below it", "writer")
    assert save_move(unsaid, role, "writer", inserted) is None  # saving not asked
