"""Checkers on prepared states: what must pass passes, and near-misses fail."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType

import docx
import openpyxl
import pytest

from pcagent.bench import checks_documents, checks_local, checks_mail, checks_web
from pcagent.bench.checker_types import checkers_of
from pcagent.bench.checkers import (
    CheckContext,
    CheckerError,
    CheckerLibrary,
    CheckResult,
    checker_names,
    run_checker,
    validate_params,
)
from pcagent.bench.fixtures import write_clocks_settings, write_docx
from pcagent.bench.tasks import DocumentSpec


@pytest.fixture
def context(tmp_path: Path) -> CheckContext:
    (tmp_path / "Documents").mkdir()
    return CheckContext(home=tmp_path, answers=["The result is 2,700"])


def check(checker_name: str, context: CheckContext, /, **params: object) -> bool:
    return run_checker(checker_name, params, context).passed


def test_text_files(context: CheckContext) -> None:
    (context.home / "Documents/todo.txt").write_text("Book the meeting room\nSend  the agenda\n")
    assert check(
        "text_file_contains", context, path="Documents/todo.txt", texts=["send the agenda"]
    )
    assert not check(
        "text_file_contains", context, path="Documents/todo.txt", texts=["Order coffee"]
    )
    assert not check("text_file_contains", context, path="Documents/none.txt", texts=["x"])
    # A file names none of some words: the cheapest shop alone, not every shop (pc24).
    assert check("text_file_lacks", context, path="Documents/todo.txt", texts=["coffee", "Lunch"])
    assert not check(
        "text_file_lacks", context, path="Documents/todo.txt", texts=["send THE agenda"]
    )
    assert not check("text_file_lacks", context, path="Documents/none.txt", texts=["x"])
    assert check("file_exists", context, path="Documents/todo.txt")
    assert check("file_missing", context, path="Downloads/todo.txt")
    with pytest.raises(CheckerError, match="leaves HOME"):
        check("file_exists", context, path="../outside.txt")


def _report(path: Path, bold: list[int]) -> None:
    write_docx(path, DocumentSpec(title="Title here", paragraphs=["First body.", "Second body."]))
    document = docx.Document(str(path))
    for index in bold:
        for run in document.paragraphs[index].runs:
            run.bold = True
    document.save(str(path))


def test_bold_title_and_its_near_misses(context: CheckContext) -> None:
    path = context.home / "Documents/report.docx"
    params = {"path": "Documents/report.docx", "paragraph": 0, "only": True}
    _report(path, bold=[])
    assert not check("docx_bold", context, **params)  # nothing bold
    _report(path, bold=[1])
    assert not check("docx_bold", context, **params)  # a paragraph bold, but not the title
    _report(path, bold=[0, 2])
    assert not check("docx_bold", context, **params)  # the title, and another one too
    assert check("docx_bold", context, path="Documents/report.docx", paragraph=0)
    _report(path, bold=[0])
    assert check("docx_bold", context, **params)
    assert check("docx_contains", context, path="Documents/report.docx", texts=["second BODY"])


def test_workbook_cells_and_a_wrong_cell(context: CheckContext) -> None:
    path = context.home / "Documents/ratings.xlsx"
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet["B5"] = 7.7
    sheet["B6"] = "7.7"
    sheet["C5"] = 7.7000000001
    workbook.save(str(path))
    assert check("xlsx_cell", context, path="Documents/ratings.xlsx", cell="B5", value="7.7")
    assert check("xlsx_cell", context, path="Documents/ratings.xlsx", cell="B6", value="7.70")
    assert not check("xlsx_cell", context, path="Documents/ratings.xlsx", cell="B4", value="7.7")
    assert not check("xlsx_cell", context, path="Documents/ratings.xlsx", cell="B5", value="7.8")


def test_answers_compare_numbers_leniently(context: CheckContext) -> None:
    assert check("answer_is", context, value="2700")
    assert not check("answer_is", context, value="270")


ALARMS = (
    "[{'name': <'Standup'>, 'id': <'a1'>, 'active': <true>, 'hour': <7>, 'minute': <30>, "
    "'days': <@ai []>}, {'name': <'Late'>, 'id': <'a2'>, 'active': <false>, 'hour': <22>, "
    "'minute': <0>}]"
)


def test_alarms_and_an_alarm_one_hour_off(context: CheckContext) -> None:
    write_clocks_settings(
        context.home,
        {
            "alarms": ALARMS,
            "world-clocks": "[{'location': <(uint32 2, <('Tokyo', 'RJTT', true, [(0.6, 2.4)], [(0.6, 2.4)])>)>}]",
        },
    )
    assert check("clock_alarm", context, hour=7, minute=30)
    assert check("clock_alarm", context, hour=7, minute=30, name="standup")
    assert not check("clock_alarm", context, hour=8, minute=30)  # one hour off
    assert not check("clock_alarm", context, hour=7, minute=30, name="Gym")
    assert not check("clock_alarm", context, hour=22, minute=0)  # exists, but switched off
    assert check("world_clock", context, city="Tokyo")
    assert not check("world_clock", context, city="Paris")


def test_bad_parameters_are_task_definition_errors() -> None:
    with pytest.raises(CheckerError, match="unknown checker"):
        validate_params("no_such_checker", {})
    with pytest.raises(CheckerError, match="cell"):
        validate_params("xlsx_cell", {"path": "a.xlsx", "value": "1"})
    with pytest.raises(CheckerError, match="colour"):
        validate_params("file_exists", {"path": "a", "colour": "red"})


def test_a_checker_that_cannot_read_reports_instead_of_raising(context: CheckContext) -> None:
    (context.home / "Documents/broken.xlsx").write_text("not a workbook")
    result = run_checker(
        "xlsx_cell", {"path": "Documents/broken.xlsx", "cell": "A1", "value": "1"}, context
    )
    assert not result.passed and "could not check" in result.reason


CHECKS_MODULES = (checks_local, checks_documents, checks_web, checks_mail)


def _defined_checkers(module: ModuleType) -> set[str]:
    """The public functions of ``module`` shaped like checkers (a context first, a result back)."""
    return {
        name
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
        and not name.startswith("_")
        and "CheckContext" in str(next(iter(inspect.signature(function).parameters.values())))
        and inspect.signature(function).return_annotation == "CheckResult"
    }


@pytest.mark.parametrize("module", CHECKS_MODULES, ids=lambda m: m.__name__)
def test_every_checker_a_module_defines_is_declared_and_in_the_library(module: ModuleType) -> None:
    declared = {function.__name__ for function in checkers_of(module)}
    assert _defined_checkers(module) == declared
    assert declared <= set(checker_names())


def test_the_library_refuses_two_checkers_with_one_name() -> None:
    def file_exists(context: CheckContext, path: str) -> CheckResult:
        return CheckResult.ok(path)

    with pytest.raises(CheckerError, match=r"two checkers are named 'file_exists'.*checks_local"):
        CheckerLibrary.from_functions([*checkers_of(checks_local), file_exists])
    library = CheckerLibrary.from_functions([file_exists])
    assert library.names() == ["file_exists"]
    assert library.run("file_exists", {"path": "x"}, CheckContext(home=Path())).reason == "x"
