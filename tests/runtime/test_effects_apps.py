"""Safety by effect against real applications: what a dialog's "Replace" overwrote in the real
text editor is put back, whatever the window shows afterwards; a move onto an existing name in the
real file manager loses neither file.

The application does the damage for real (the GTK Save As dialog, its overwrite confirmation);
the effect layer then judges HOME's snapshots before and after, with the documents the sandbox's
windows showed before the step, as the run loop does after every step (auto mode).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from docx import Document

from pcagent import actions as act
from pcagent.config import SafetyConfig
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.runtime.loop.desktop_state import DesktopAccess, documents_in
from pcagent.runtime.loop.human import ScriptedHuman
from pcagent.runtime.safety.effects import FileEffectGuard, StepFiles, step_files
from pcagent.runtime.safety.home_snapshot import HomeSnapshots
from pcagent.skills import default_catalog

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def until(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def front_title(desktop: SandboxDesktop) -> str:
    focused = desktop.observe().focused_window
    return focused.title if focused is not None else ""


def test_save_as_onto_another_file_then_replace_puts_that_file_back(
    shared_desktop: SandboxDesktop, tmp_path: Path
) -> None:
    desktop = shared_desktop
    home = desktop.home
    notes, other = home / "effects-notes.txt", home / "effects-other.txt"
    for path, text in ((notes, "the notes\n"), (other, "someone else's file\n")):
        path.write_text(text)
        give_to_owner(path, home)
    desktop.open_app("text_editor", [notes])
    assert until(lambda: "effects-notes.txt" in front_title(desktop))
    watch = Watch.start(desktop, tmp_path)
    # the confirmation: an untitled dialog in front, its default button "Replace"
    save_as(desktop, other, confirm=act.Press(key="enter"))
    assert until(lambda: other.read_text() == "the notes\n"), "the editor did not replace it"
    assert until(lambda: "effects-other.txt" in front_title(desktop))  # the window shows it now
    assert watch.verdicts() == [("overwrite_files", ("effects-other.txt",), False)]
    assert other.read_text() == "someone else's file\n"
    assert notes.read_text() == "the notes\n"
    desktop.close_apps()


def test_a_move_onto_an_existing_name_in_the_file_manager_keeps_both_contents(
    shared_desktop: SandboxDesktop, tmp_path: Path
) -> None:
    desktop = shared_desktop
    home = desktop.home
    source, archive = home / "effects-src", home / "effects-archive"
    for folder in (source, archive):
        folder.mkdir()
        give_to_owner(folder, home)
    moved, target = source / "a.txt", archive / "a.txt"
    for path, text in ((moved, "moved here\n"), (target, "was there\n")):
        path.write_text(text)
        give_to_owner(path, home)
    guard = FileEffectGuard(
        HomeSnapshots(tmp_path / "store"), home, SafetyConfig(), "auto", ScriptedHuman()
    )
    desktop.open_app("file_manager", [source])
    assert until(lambda: front_title(desktop) == "effects-src - Thunar"), front_title(desktop)
    before = guard.snapshots.capture(home)

    # cut the folder's only file, paste it into the other folder, "Replace" (alt+r)
    desktop.execute(act.Hotkey(keys=["ctrl", "a"]))
    desktop.execute(act.Hotkey(keys=["ctrl", "x"]))
    desktop.execute(act.Hotkey(keys=["ctrl", "l"]))
    desktop.execute(act.TypeText(text=f"{archive}\n"))
    assert until(lambda: front_title(desktop) == "effects-archive - Thunar"), front_title(desktop)
    desktop.execute(act.Hotkey(keys=["ctrl", "v"]))
    assert until(lambda: front_title(desktop) == "Confirm to replace files"), front_title(desktop)
    desktop.execute(act.Hotkey(keys=["alt", "r"]))
    assert until(lambda: not moved.exists() and target.read_text() == "moved here\n")

    verdicts = guard.check(before, guard.snapshots.capture(home), StepFiles())
    assert [(v.category, v.paths, v.kept) for v in verdicts] == [
        ("overwrite_files", ("effects-archive/a.txt",), False),
        ("delete_files", ("effects-src/a.txt",), False),
    ]
    assert target.read_text() == "was there\n"
    assert moved.read_text() == "moved here\n"
    desktop.close_apps()


def test_a_word_processor_s_save_as_onto_another_document_is_put_back(
    shared_desktop: SandboxDesktop, tmp_path: Path
) -> None:
    desktop = shared_desktop
    home = desktop.home
    report, other = home / "effects-report.docx", home / "effects-other.docx"
    for path, text in ((report, "The report."), (other, "Someone else's document.")):
        document = Document()
        document.add_paragraph(text)
        document.save(str(path))
        give_to_owner(path, home)
    original = other.read_bytes()
    desktop.open_app("writer", [report])
    assert until(lambda: "effects-report" in front_title(desktop), 60), front_title(desktop)
    watch = Watch.start(desktop, tmp_path)
    # "A file named ... already exists. Do you want to replace it?": No (focused) or Yes
    save_as(desktop, other, confirm=act.Hotkey(keys=["alt", "y"]))
    assert until(lambda: other.read_bytes() != original, 30), "Writer did not replace it"
    assert until(lambda: "effects-other" in front_title(desktop))  # the window shows it now
    assert watch.verdicts() == [("overwrite_files", ("effects-other.docx",), False)]
    assert other.read_bytes() == original
    desktop.close_apps()


@dataclass
class Watch:
    """The effect layer watching one step, as the run loop does (auto mode): HOME before, and
    the documents the windows showed before."""

    desktop: SandboxDesktop
    guard: FileEffectGuard
    before: str
    windows: list

    @classmethod
    def start(cls, desktop: SandboxDesktop, folder: Path) -> Watch:
        home = desktop.home
        guard = FileEffectGuard(
            HomeSnapshots(folder / "store"), home, SafetyConfig(), "auto", ScriptedHuman()
        )
        access = DesktopAccess.of(desktop)
        windows = access.open_windows(desktop.observe().windows, documents_in(home))
        return cls(desktop, guard, guard.snapshots.capture(home), windows)

    def verdicts(self) -> list[tuple[str, tuple[str, ...], bool]]:
        """What the effect layer made of the step: (category, paths, kept) per verdict."""
        home = self.desktop.home
        step = step_files(None, {}, default_catalog(), self.windows, home)
        verdicts = self.guard.check(self.before, self.guard.snapshots.capture(home), step)
        return [(v.category, v.paths, v.kept) for v in verdicts]


def save_as(desktop: SandboxDesktop, other: Path, *, confirm: act.Action) -> None:
    """Save As (the GTK file dialog), ``other``'s path, Enter, then ``confirm`` on the question
    whether to replace it."""
    desktop.execute(act.Hotkey(keys=["ctrl", "shift", "s"]))
    assert until(lambda: front_title(desktop) in FILE_DIALOGS), front_title(desktop)
    desktop.execute(act.Hotkey(keys=["ctrl", "a"]))
    desktop.execute(act.TypeText(text=str(other)))
    desktop.execute(act.Press(key="enter"))
    assert until(lambda: confirmation_asked(desktop)), front_title(desktop)
    desktop.execute(confirm)


def confirmation_asked(desktop: SandboxDesktop) -> bool:
    """A second dialog over the file dialog: the question whether to replace the file
    (LibreOffice's carries the file dialog's title, "Save", too)."""
    focused = desktop.observe().focused_window
    if focused is not None and focused.title == "":
        return True  # GTK's own question has no title
    dialogs = [w for w in desktop.observe().windows if "effects-" not in w.title]
    return len(dialogs) >= 2


#: What the file dialog's window is called: LibreOffice's "Save", the editor's "Save As".
FILE_DIALOGS = ("Save", "Save As")
