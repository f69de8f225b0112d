"""Unsaved work in real applications: mousepad's text through AT-SPI, LibreOffice's documents as
ODF copies over UNO, and nothing from a desktop where nothing is unsaved."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from docx import Document
from docx.opc.exceptions import PackageNotFoundError
from odf import teletype
from odf import text as odf_text
from odf.opendocument import load as load_odf

from pcagent import actions as act
from pcagent.env import SandboxDesktop, UnsavedDocument, UnsavedWork, WindowInfo
from pcagent.env.observation import Box
from pcagent.env.office_process import office_worker
from pcagent.env.ownership import give_to_owner
from pcagent.env.unsaved import UnsavedWorkReader

pytestmark = [pytest.mark.desktop]

GREETING = "Grüße 世界"


def _by_document(documents: list[UnsavedDocument]) -> dict[str, UnsavedDocument]:
    return {document.document: document for document in documents}


def _files(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


def test_nothing_open_reports_nothing(desktop: SandboxDesktop) -> None:
    assert isinstance(desktop, UnsavedWork)
    assert desktop.unsaved_documents() == []


def test_no_libreoffice_on_the_pipe_is_no_error(desktop: SandboxDesktop) -> None:
    # A LibreOffice window the sandbox did not start (no pipe of this sandbox): the reader asks,
    # finds nobody listening, and reports nothing.
    state = desktop.state
    assert state is not None
    worker = office_worker(state.sandbox_id, state.env)
    reader = UnsavedWorkReader(state.home, lambda: desktop.accessibility, lambda: worker)
    stranger = WindowInfo(
        window_id=1,
        title="Untitled 1 - LibreOffice Writer",
        app_class="libreoffice-writer",
        box=Box(x=0, y=0, width=100, height=100),
    )
    try:
        assert reader.read([stranger]) == []
    finally:
        worker.close()


def test_text_editor_tabs_with_changes_are_reported_until_saved(desktop: SandboxDesktop) -> None:
    notes = desktop.home / "notes.txt"
    notes.write_text("first line\n", encoding="utf-8")
    give_to_owner(notes, desktop.home)  # the editor's own file, as HOME's files are
    desktop.open_app("text_editor", [notes])
    assert desktop.unsaved_documents() == []  # opened, not changed

    desktop.execute(act.TypeText(text=f"{GREETING} "))
    desktop.execute(act.Hotkey(keys=["ctrl", "n"]))  # a new document, in a tab in front
    desktop.execute(act.TypeText(text=f"Neu: {GREETING}"))

    found = _by_document(desktop.unsaved_documents())
    assert set(found) == {"notes.txt", ""}
    new = found[""]
    assert (new.app, new.suffix, new.contents) == (
        "text_editor",
        ".txt",
        f"Neu: {GREETING}".encode(),
    )
    assert new.title.startswith("*") and new.title.endswith(" - Mousepad")
    behind = found["notes.txt"]
    assert behind.app == "text_editor"
    assert behind.contents == f"{GREETING} first line\n".encode()
    assert behind.title == "notes.txt"  # its tab's name: the window's title is the new one's

    desktop.execute(act.Hotkey(keys=["ctrl", "Page_Up"]))  # notes.txt in front
    in_front = _by_document(desktop.unsaved_documents())["notes.txt"]
    assert in_front.title.startswith("*") and "notes.txt" in in_front.title
    assert in_front.contents == behind.contents

    desktop.execute(act.Hotkey(keys=["ctrl", "s"]))
    desktop.wait_settled()
    assert notes.read_text(encoding="utf-8") == f"{GREETING} first line\n"
    remaining = desktop.unsaved_documents()
    assert [(d.document, d.title, d.contents) for d in remaining] == [
        ("", "Untitled 1", f"Neu: {GREETING}".encode())
    ]


def test_writer_document_is_copied_as_odf_and_left_as_it_was(desktop: SandboxDesktop) -> None:
    report = desktop.home / "report.docx"
    original = Document()
    original.add_paragraph("Original paragraph.")
    original.save(str(report))
    give_to_owner(report, desktop.home)
    desktop.open_app("writer", [report])
    sentence = f"An unsaved sentence, {GREETING}."
    desktop.execute(act.TypeText(text=sentence))
    titles_before = [w.title for w in desktop.x11.windows()]
    files_before = _files(desktop.home)

    documents = desktop.unsaved_documents()

    assert len(documents) == 1
    copy = documents[0]
    assert (copy.app, copy.document, copy.suffix) == ("writer", "report.docx", ".odt")
    assert titles_before == [copy.title] == ["report.docx - LibreOffice Writer"]
    with pytest.raises((KeyError, ValueError, PackageNotFoundError)):
        Document(io.BytesIO(copy.contents))  # not a .docx: an OpenDocument text
    with zipfile.ZipFile(io.BytesIO(copy.contents)) as archive:
        assert archive.read("mimetype") == b"application/vnd.oasis.opendocument.text"
    paragraphs = [
        teletype.extractText(p)
        for p in load_odf(io.BytesIO(copy.contents)).getElementsByType(odf_text.P)
    ]
    assert any(sentence in paragraph for paragraph in paragraphs)
    assert any("Original paragraph." in paragraph for paragraph in paragraphs)

    # The live document is untouched: same window title, no file beside it, still modified
    # (reported again, from the copy kept since nothing changed), the .docx on disk unchanged.
    assert [w.title for w in desktop.x11.windows()] == titles_before
    assert _files(desktop.home) == files_before
    assert desktop.unsaved_documents() == documents
    assert "An unsaved sentence" not in "".join(p.text for p in Document(str(report)).paragraphs)

    desktop.execute(act.TypeText(text=" More."))
    again = desktop.unsaved_documents()
    assert len(again) == 1 and again[0].contents != copy.contents  # copied anew after a change


def test_new_spreadsheet_is_copied_once_a_cell_is_committed(desktop: SandboxDesktop) -> None:
    desktop.open_app("spreadsheet")
    desktop.execute(act.TypeText(text="4217\n"))

    [copy] = desktop.unsaved_documents()

    assert (copy.app, copy.document, copy.suffix) == ("spreadsheet", "", ".ods")
    assert copy.title.endswith(" - LibreOffice Calc")
    with zipfile.ZipFile(io.BytesIO(copy.contents)) as archive:
        assert archive.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"
        assert b"4217" in archive.read("content.xml")
