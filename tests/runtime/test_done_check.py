"""A subtask's done is checked against the desktop (files saved) or its account, not believed."""

from __future__ import annotations

from pcagent import actions as act
from pcagent.env.protocol import UnsavedDocument
from pcagent.runtime.done_check import (
    display_problem,
    done_problem,
    expression_value,
    files_to_save,
    names_to_save,
)
from pcagent.runtime.record_models import StepResult
from pcagent.runtime.subtasks import read_value

DOCUMENTS = {"stocks.xlsx": "Documents/stocks.xlsx", "memo.txt": "Documents/memo.txt"}


def unsaved(document: str, title: str) -> UnsavedDocument:
    return UnsavedDocument(
        app="writer", title=title, document=document, suffix=".docx", contents=b"x"
    )


def test_the_files_a_subtask_asks_to_save_are_read_off_its_words() -> None:
    assert files_to_save("Save the sheet as Documents/stocks.xlsx") == ["stocks.xlsx"]
    assert files_to_save("Write kth_largest(numbers, k) into kth_largest.py") == ["kth_largest.py"]
    assert files_to_save("Open memo.txt and read the second event") == []  # nothing to save
    assert files_to_save("Save the total of 12.5 and 3.25") == []  # numbers are no file names


def test_done_needs_the_named_file_saved_without_pending_changes() -> None:
    saving = "Write the prices and save Documents/stocks.xlsx"
    assert done_problem(saving, [], DOCUMENTS, [], None) is None
    missing = done_problem("Save it as report.docx", [], DOCUMENTS, [], True)
    assert missing == "report.docx is not saved anywhere in HOME yet"
    pending = [unsaved("Documents/stocks.xlsx", "*stocks.xlsx - LibreOffice Calc")]
    assert "unsaved changes" in (done_problem(saving, [], DOCUMENTS, pending, True) or "")
    # the deterministic check decides, whatever the account says
    assert done_problem(saving, [], DOCUMENTS, [], False) is None


def test_a_name_without_extension_is_saved_with_the_application_s_own() -> None:
    assert names_to_save("Create a sheet and save it as stocks in the Documents folder") == [
        "stocks"
    ]
    assert names_to_save('save the document as "Quarterly" in Documents') == ["Quarterly"]
    assert names_to_save("save it as ratings.txt in the Documents folder") == []  # has one
    assert names_to_save("Open memo.txt and read it") == []
    asking = "Write two paragraphs and save the document as Stocks in the Documents folder"
    assert done_problem(asking, [], DOCUMENTS, [], True) is None  # stocks.xlsx, any case
    missing = done_problem("Save it as Report", [], DOCUMENTS, [], True)
    assert missing == "no file named Report (with any extension) is saved in HOME yet"
    pending = [unsaved("Documents/stocks.xlsx", "*stocks.xlsx - LibreOffice Calc")]
    assert "unsaved changes" in (done_problem(asking, [], DOCUMENTS, pending, True) or "")


def test_without_a_check_the_account_decides_and_values_come_first() -> None:
    assert "report price" in (done_problem("Find the price", ["price"], DOCUMENTS, [], True) or "")
    assert done_problem("Open the calculator", [], DOCUMENTS, [], False) is not None
    assert done_problem("Open the calculator", [], DOCUMENTS, [], True) is None
    assert done_problem("Open the calculator", [], None, [], None) is None  # nobody to ask


def test_a_verified_short_reading_is_a_value_and_a_long_one_is_not() -> None:
    evaluate = act.parse_action({"kind": "calculator_evaluate", "expression": "12*7+5"})
    value = StepResult(ok=True, output="89", verified=True)
    assert read_value(evaluate, value) == "89"
    assert read_value(evaluate, StepResult(ok=True, output="89")) is None  # not verified
    page = StepResult(ok=True, output="Tea\nwas first drunk...", verified=True)
    assert read_value(act.parse_action({"kind": "writer_read"}), page) is None
    assert read_value(act.Answer(text="89"), value) is None  # answers are recorded as such


def test_a_verified_application_action_just_before_supports_done() -> None:
    effect = "calculator_evaluate(expression='12*7+5')"
    assert done_problem("Compute 12*7+5", [], DOCUMENTS, [], False, verified_effect=effect) is None
    # it does not stand in for a value still to report, nor for a file still unsaved
    assert done_problem("Find it", ["x"], DOCUMENTS, [], True, verified_effect=effect)
    assert done_problem("Save report.docx", [], DOCUMENTS, [], True, verified_effect=effect)


def test_the_expression_a_calculator_subtask_writes_out_and_its_value() -> None:
    assert expression_value("Open the calculator and compute 12 * 7 + 5") == ("12 * 7 + 5", "89")
    assert expression_value("Compute 1275 × 12") == ("1275 × 12", "15300")
    assert expression_value("compute (3 + 4) * 2, then 7 / 2") is None  # two: no guess
    assert expression_value("Compute 7 / 2") == ("7 / 2", "3.5")
    assert expression_value("Compute {minutes} * 60") is None  # not filled in yet
    for not_arithmetic in ("the days until 2025-05-01", "a 1920x1080 screen", "call 555-1234"):
        assert expression_value(not_arithmetic) is None
    assert expression_value("Compute 1 / 0") is None


def test_a_calculator_done_needs_the_value_on_screen() -> None:
    def problem(listing: str) -> str | None:
        return done_problem(
            "Open the calculator and compute 12 * 7 + 5", [], None, [], True,
            calculator_listing=listing,
        )  # fmt: skip

    typed = '1 label "12×7+5" @10,10\n2 button "5" @20,20'
    assert "does not show the value of 12 * 7 + 5" in (problem(typed) or "")
    assert problem('1 label "89" @10,10\n2 button "5" @20,20') is None
    assert display_problem("compute 1275 * 12", '1 label "15\u2009300" @10,10') is None  # grouped
    assert display_problem("type hello", "") is None  # no expression: nothing to check
    # a value (=...) counts as shown, like a label
    assert display_problem("compute 12 * 7 + 5", '3 text "Result" ="89" @5,5') is None


def test_a_key_of_the_calculator_is_not_its_display() -> None:
    keys = '\n21 toggle "5" @574,480\n22 button "5" @1,1'
    assert display_problem("compute 2 + 3", '6 text "5" focused @639,298' + keys) is None
    assert display_problem("compute 2 + 3", '6 text "2+3" focused @639,298' + keys) is not None


def test_a_subtask_that_only_finds_is_told_from_one_that_changes_something() -> None:
    from pcagent.runtime.subtasks import only_finds

    assert only_finds("In the text editor, open notes.txt and find the dentist's number")
    assert only_finds("Search the web for the height of the Eiffel Tower")
    assert not only_finds("Find the mail Code and save its attachment into Documents")
    assert not only_finds("Read the total and write it into the sheet")


def test_a_subtask_whose_inputs_never_came_goes_on_without_them() -> None:
    from pcagent.agents.plan import SubtaskSpec
    from pcagent.runtime.checkpoint import RunCheckpoint
    from pcagent.runtime.subtasks import _stalled, _without_inputs

    find = SubtaskSpec(id="s1", description="Find the price", app="browser", outputs=["price"])
    write = SubtaskSpec(
        id="s2",
        description="Write {price} into the sheet",
        app="spreadsheet",
        inputs=["price"],
        depends_on=["s1"],
    )
    checkpoint = RunCheckpoint(
        instruction="x", subtasks=[find, write], status={"s1": "running", "s2": "pending"}
    )
    assert _stalled(checkpoint) is None  # what it waits for is still running
    checkpoint.status["s1"] = "failed"
    assert checkpoint.ready() == [] and _stalled(checkpoint) == write
    started = _without_inputs(write, ["price"])
    assert (started.description, started.inputs) == ("Write the price into the sheet", [])


def test_save_it_needs_no_unsaved_changes_and_the_rest_still_counts() -> None:
    asking = "Make the title bold and save it"
    pending = [unsaved("Documents/report.docx", "*report.docx - LibreOffice Writer")]
    assert "unsaved changes; save it first" in (
        done_problem(asking, [], DOCUMENTS, pending, True) or ""
    )
    assert done_problem(asking, [], DOCUMENTS, [], True) is None
    # nothing unsaved says only that: the account still decides the rest
    assert done_problem(asking, [], DOCUMENTS, [], False) is not None


def test_a_link_clicked_again_ends_nothing_unless_the_click_downloaded() -> None:
    from pcagent.runtime.checkpoint import RunCheckpoint
    from pcagent.runtime.subtasks import _downloaded_at

    page = RunCheckpoint(instruction="x", last_output="step 5, browser_click: Paper\nhttps://a/")
    pdf = RunCheckpoint(instruction="x", last_output="step 5, browser_click: downloaded: p.pdf")
    assert not _downloaded_at(page, 5)
    assert _downloaded_at(pdf, 5)
    assert not _downloaded_at(pdf, 4)  # another step's download
