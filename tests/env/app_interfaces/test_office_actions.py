"""The word processor's and the spreadsheet's actions on the real LibreOffice: a .docx and an
.xlsx written here, changed through UNO in the live windows (unsaved until saved), saved, and the
saved files checked with the benchmark's own checkers and openpyxl."""

from __future__ import annotations

from pathlib import Path

import docx
import openpyxl
import pytest

from pcagent.app_actions import (
    SheetOpen,
    SheetRead,
    SheetSave,
    SheetSet,
    SheetSort,
    WriterFormat,
    WriterInsert,
    WriterOpen,
    WriterRead,
    WriterSave,
)
from pcagent.bench.checker_types import CheckContext
from pcagent.bench.checks_documents import docx_bold, docx_font_size, docx_line_spacing
from pcagent.env import SandboxDesktop
from pcagent.env.apps import libreoffice_pipe_name
from pcagent.env.ownership import give_to_owner
from pcagent.errors import InvalidActionError

pytestmark = [pytest.mark.desktop]


def _office_workers(desktop: SandboxDesktop) -> list[int]:
    """The processes of pcagent's LibreOffice workers talking to this sandbox's LibreOffice (its
    pipe's name is one of their arguments; LibreOffice's own names it inside ``--accept=``)."""
    assert desktop.state is not None
    pipe = libreoffice_pipe_name(desktop.state.sandbox_id)
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().decode("utf-8", "replace").split("\0")
        except OSError:
            continue  # ended meanwhile
        if pipe in argv and any(arg.startswith("pcagent.env.office") for arg in argv):
            found.append(int(cmdline.parent.name))
    return found


def test_actions_without_a_document_fail_and_paths_outside_home_are_refused(
    shared_desktop: SandboxDesktop,
) -> None:
    assert {"writer_format", "sheet_sort"} <= shared_desktop.app_action_kinds()
    result = shared_desktop.execute(WriterRead())
    assert not result.ok and "LibreOffice is not open" in result.message
    assert "mouse and keyboard" in result.message
    # both ways to a document in front are named, so the two refusals never send an agent
    # back and forth between writer_open and the writer_ actions
    assert "writer_open opens a saved one; open_app with app='writer'" in result.message
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        shared_desktop.execute(WriterOpen(path="/etc/hostname"))
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        shared_desktop.execute(SheetSave(path="../elsewhere.xlsx"))
    # a document to be created is not opened: the error says how to create it
    with pytest.raises(
        InvalidActionError,
        match=r"writer_insert; open_app with app='writer'.*writer_save with path=",
    ):
        shared_desktop.execute(WriterOpen(path="Documents/New plan.docx"))


def test_writer_edits_the_live_document_and_saves_it(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    home = desktop.home
    source = home / "Documents" / "report.docx"
    source.parent.mkdir(exist_ok=True)
    document = docx.Document()
    for text in ("Quarterly report", "Sales grew.", "Costs fell.", "Outlook"):
        document.add_paragraph(text)
    document.save(str(source))
    give_to_owner(source.parent, home)

    opened = desktop.execute(WriterOpen(path="Documents/report.docx"))
    assert opened.ok and opened.verified, opened.message
    assert opened.output is not None and "0: Quarterly report" in opened.output
    inserted = desktop.execute(
        WriterInsert(text="Staff grew.\nMore to come.", where="after", paragraph=2)
    )
    assert inserted.ok, inserted.message
    formatted = desktop.execute(WriterFormat(paragraphs=(0,), bold=True, font_size=16))
    assert formatted.ok and formatted.verified, formatted.message
    spaced = desktop.execute(WriterFormat(paragraphs=(1, 2), line_spacing=1.5))
    assert spaced.ok, spaced.message
    grown = desktop.execute(WriterFormat(matching="outlook", size_step="larger"))
    assert grown.ok, grown.message

    # The window's document changed and is unsaved; the file is as it was.
    unsaved = [d for d in desktop.unsaved_documents() if d.app == "writer"]
    assert [d.document for d in unsaved] == ["Documents/report.docx"]
    # the actions and the unsaved-work reader were answered by one worker process
    assert _office_workers(desktop) == [desktop.office_worker().pid]
    assert b"Staff grew." not in source.read_bytes()
    read = desktop.execute(WriterRead())
    assert read.output is not None
    assert read.output.splitlines()[2:6] == [
        "2: Costs fell.",
        "3: Staff grew.",
        "4: More to come.",
        "5: Outlook",
    ]

    no_sheet = desktop.execute(SheetRead())
    assert not no_sheet.ok and "no spreadsheet is open" in no_sheet.message
    with pytest.raises(InvalidActionError, match="no paragraph contains"):
        desktop.execute(WriterFormat(matching="no such words", bold=True))
    saved = desktop.execute(WriterSave())
    assert saved.ok and saved.verified, saved.message
    assert [d for d in desktop.unsaved_documents() if d.app == "writer"] == []
    context = CheckContext(home=home)
    path = "Documents/report.docx"
    for check in (
        docx_bold(context, path, 0, only=True),
        docx_font_size(context, path, 0, 16),
        docx_line_spacing(context, path, [1, 2], 1.5),
    ):
        assert check.passed, check.reason
    texts = [p.text for p in docx.Document(str(source)).paragraphs]
    assert texts == [
        "Quarterly report",
        "Sales grew.",
        "Costs fell.",
        "Staff grew.",
        "More to come.",
        "Outlook",
    ]
    exported = desktop.execute(WriterSave(path="Documents/report.pdf"))
    assert exported.ok, exported.message
    assert (home / "Documents" / "report.pdf").read_bytes().startswith(b"%PDF-")


def test_sheet_values_formula_sort_and_save_as(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    home = desktop.home
    source = home / "Documents" / "scores.xlsx"
    workbook = openpyxl.Workbook()
    workbook.active.append(["Name", "Score"])
    workbook.save(str(source))
    give_to_owner(source, home)

    opened = desktop.execute(SheetOpen(path="Documents/scores.xlsx"))
    assert opened.ok and opened.verified, opened.message
    again = desktop.execute(WriterOpen(path="Documents/scores.xlsx"))  # loaded already: raised
    assert again.ok and "as a spreadsheet: the sheet_ actions" in again.message, again.message
    rows = (("Cleo", 7), ("Ann", 12), ("Bob", "9.5"))
    written = desktop.execute(SheetSet(cell="A2", values=rows))
    assert written.ok and written.verified, written.message
    total_row = ("Total", "=sum(B2:B4)", '=IF(B6>20,"high","low")')
    total = desktop.execute(SheetSet(cell="A6", values=(total_row,)))
    assert total.ok, total.message
    assert total.output == 'A6: Total\nB6: =SUM(B2:B4) -> 28.5\nC6: =IF(B6>20,"high","low") -> high'

    sorted_ = desktop.execute(SheetSort(range="A1:B4", column="B", descending=True))
    assert sorted_.ok, sorted_.message
    read = desktop.execute(SheetRead(range="A1:B6"))
    assert read.output is not None
    assert read.output.splitlines()[1:3] == ["A1: Name | B1: Score", "A2: Ann | B2: 12"]
    assert [d.document for d in desktop.unsaved_documents() if d.app == "spreadsheet"] == [
        "Documents/scores.xlsx"
    ]

    saved = desktop.execute(SheetSave(path="Documents/scores sorted"))
    assert saved.ok and saved.verified, saved.message
    target = home / "Documents" / "scores sorted.xlsx"
    assert target.stat().st_uid == home.stat().st_uid
    formulas = openpyxl.load_workbook(str(target)).active
    assert [[c.value for c in row] for row in formulas.iter_rows(max_row=4, max_col=2)] == [
        ["Name", "Score"],
        ["Ann", 12],
        ["Bob", 9.5],
        ["Cleo", 7],
    ]
    assert formulas["B6"].value == "=SUM(B2:B4)"
    assert formulas["C6"].value == '=IF(B6>20,"high","low")'
    assert openpyxl.load_workbook(str(target), data_only=True).active["B6"].value == 28.5
    assert openpyxl.load_workbook(str(source)).active.max_row == 1  # the original is untouched
    with pytest.raises(InvalidActionError, match="already exists"):
        desktop.execute(SheetSave(path="Documents/report.pdf"))
