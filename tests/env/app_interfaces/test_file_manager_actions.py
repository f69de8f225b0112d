"""The file manager's actions through GIO on a real sandbox: the file system is checked after each
one, nothing is overwritten, nothing outside HOME is reached; files_open brings the file up in the
application for its kind."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from pcagent.app_actions import (
    FilesCopy,
    FilesList,
    FilesMakeFolder,
    FilesMove,
    FilesOpen,
    FilesRename,
)
from pcagent.bench.checker_types import CheckContext
from pcagent.bench.checks_local import file_exists
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.errors import InvalidActionError

pytestmark = [pytest.mark.desktop]


def write(desktop: SandboxDesktop, relative: str, text: str) -> Path:
    path = desktop.home / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    give_to_owner(path, desktop.home)
    return path


def test_files_actions_change_the_file_system_and_overwrite_nothing(
    shared_desktop: SandboxDesktop,
) -> None:
    desktop = shared_desktop
    home = desktop.home
    owner = home.stat().st_uid
    context = CheckContext(home=home)
    write(desktop, "Work/notes.txt", "meeting at ten\n")
    write(desktop, "Work/Drafts/plan.md", "# plan\n")

    made = desktop.execute(FilesMakeFolder(path="Trips/2025/Rome"))
    assert made.ok and made.verified, made.message
    assert (home / "Trips/2025/Rome").is_dir() and (home / "Trips").stat().st_uid == owner
    # Made again, nothing is made: no effect to check, so no subtask is done by it.
    again = desktop.execute(FilesMakeFolder(path="Trips/2025/Rome"))
    assert again.ok and not again.verified and "nothing was made" in again.message

    copied = desktop.execute(FilesCopy(source="Work/notes.txt", target="Trips/2025"))
    assert copied.ok and copied.output == "Trips/2025/notes.txt", copied.message
    assert (home / "Trips/2025/notes.txt").read_text() == "meeting at ten\n"
    assert (home / "Trips/2025/notes.txt").stat().st_uid == owner
    assert file_exists(context, "Trips/2025/notes.txt").passed

    folder_copy = desktop.execute(FilesCopy(source="Work", target="Backup"))
    assert folder_copy.ok, folder_copy.message
    assert (home / "Backup/Drafts/plan.md").read_text() == "# plan\n"
    assert (home / "Backup/notes.txt").read_text() == "meeting at ten\n"

    with pytest.raises(InvalidActionError, match="already exists"):
        desktop.execute(FilesCopy(source="Work/Drafts/plan.md", target="Trips/2025/notes.txt"))
    assert (home / "Trips/2025/notes.txt").read_text() == "meeting at ten\n"

    moved = desktop.execute(FilesMove(source="Work/Drafts", target="Trips/2025/Rome"))
    assert moved.ok and moved.verified, moved.message
    assert not (home / "Work/Drafts").exists()
    assert (home / "Trips/2025/Rome/Drafts/plan.md").read_text() == "# plan\n"

    renamed = desktop.execute(FilesRename(path="Trips/2025/notes.txt", new_name="agenda.txt"))
    assert renamed.ok, renamed.message
    assert (home / "Trips/2025/agenda.txt").is_file()
    assert not (home / "Trips/2025/notes.txt").exists()
    with pytest.raises(InvalidActionError, match="already exists"):
        desktop.execute(FilesRename(path="Backup/notes.txt", new_name="Drafts"))

    listed = desktop.execute(FilesList(path="Trips/2025"))
    assert listed.ok and listed.output is not None, listed.message
    assert listed.output.splitlines() == [
        "Trips/2025: 2 entries",
        "Rome/",
        "agenda.txt (15 bytes)",
    ]
    assert "Trips/" in (desktop.execute(FilesList()).output or "")


def test_paths_outside_home_and_missing_sources_are_refused(
    shared_desktop: SandboxDesktop, tmp_path: Path
) -> None:
    desktop = shared_desktop
    outside = tmp_path / "secret.txt"
    outside.write_text("not for the sandbox")
    (desktop.home / "escape").symlink_to(tmp_path)
    for action in (
        FilesCopy(source=str(outside), target="Documents"),
        FilesCopy(source="~/.bashrc", target="../"),
        FilesMove(source="escape/secret.txt", target="Documents"),
        FilesList(path="/etc"),
        FilesMakeFolder(path="escape/new"),
        FilesOpen(path="/etc/hostname"),
    ):
        with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
            desktop.execute(action)
    assert not (tmp_path / "new").exists()
    with pytest.raises(InvalidActionError, match="does not exist"):
        desktop.execute(FilesMove(source="Nothing/here.txt", target="Documents"))
    write(desktop, "blob.bin", "x")
    with pytest.raises(InvalidActionError, match=r"no application here opens \.bin"):
        desktop.execute(FilesOpen(path="blob.bin"))


def test_files_open_uses_the_application_for_the_kind(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    write(desktop, "Documents/todo.txt", "buy milk\n")
    opened = desktop.execute(FilesOpen(path="Documents/todo.txt"))
    assert opened.ok and opened.verified, opened.message
    assert opened.output == "buy milk\n"
    assert desktop.focused_app() == "text_editor"
    folder = desktop.execute(FilesOpen(path="Documents"))
    assert folder.ok, folder.message
    assert desktop.focused_app() == "file_manager"

    report = desktop.home / "Documents" / "report.docx"
    document = docx.Document()
    document.add_paragraph("Quarterly report")
    document.save(str(report))
    give_to_owner(report, desktop.home)
    writer = desktop.execute(FilesOpen(path="Documents/report.docx"))
    assert writer.ok and writer.verified, writer.message
    # the document's text comes back with it, as a text file's does
    assert writer.output == "report.docx - LibreOffice Writer\nQuarterly report"
    assert desktop.focused_app() == "writer"
    desktop.execute(FilesOpen(path="Documents/todo.txt"))
    again = desktop.execute(FilesOpen(path="Documents/report.docx"))  # already open: raised
    assert again.ok and again.output == writer.output, again.message
    writer_windows = [w for w in desktop.observe().windows if desktop.app_of_window(w) == "writer"]
    assert len(writer_windows) == 1


def test_a_document_s_text_is_read_for_files_open(tmp_path: Path) -> None:
    from pcagent.env.app_interfaces.file_manager import OPENED_TEXT_LIMIT, document_text

    report = tmp_path / "report.docx"
    document = docx.Document()
    for line in ("Title", "", "x" * 2000):
        document.add_paragraph(line)
    document.save(str(report))
    text = document_text(report)
    assert text.startswith("Title\nxxx") and len(text) == OPENED_TEXT_LIMIT
    damaged = tmp_path / "damaged.docx"
    damaged.write_bytes(b"not a zip")
    assert document_text(damaged) == ""  # opened all the same, just not read
    assert document_text(tmp_path / "sheet.xlsx") == ""
