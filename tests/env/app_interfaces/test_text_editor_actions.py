"""The text editor's actions on the real mousepad: a file opened in the running editor, its text
changed with the keyboard and saved under a new path through the Save As dialog, the saved file
checked with the benchmark's own text checker."""

from __future__ import annotations

import pytest

from pcagent import actions as act
from pcagent.app_actions import EditorNew, EditorOpen, EditorSaveAs
from pcagent.bench.checker_types import CheckContext
from pcagent.bench.checks_local import text_file_contains
from pcagent.env import SandboxDesktop
from pcagent.env.app_interfaces.text_editor import title_path
from pcagent.env.ownership import give_to_owner
from pcagent.errors import InvalidActionError

pytestmark = [pytest.mark.desktop]


def test_save_as_without_an_editor_is_refused(shared_desktop: SandboxDesktop) -> None:
    with pytest.raises(InvalidActionError, match="no text editor window is open"):
        shared_desktop.execute(EditorSaveAs(path="Documents/out.txt"))
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        shared_desktop.execute(EditorOpen(path="/etc/hostname"))


def test_open_edit_and_save_as(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    home = desktop.home
    first, second = home / "Documents" / "first.txt", home / "Documents" / "groceries.txt"
    first.parent.mkdir(exist_ok=True)
    first.write_text("first file\n")
    second.write_text("eggs\nflour\n")
    give_to_owner(first.parent, home)

    # a bare name is the one file of that name in HOME, not a new file beside HOME's root
    bare = desktop.execute(EditorOpen(path="first.txt"))
    assert bare.ok and bare.output == "first file\n", bare.message
    assert "Documents/first.txt" in bare.message and not (home / "first.txt").exists()
    opened = desktop.execute(EditorOpen(path="~/Documents/groceries.txt"))  # the running editor
    assert opened.ok and opened.verified, opened.message
    assert opened.output == "eggs\nflour\n"
    window = desktop.observe().focused_window
    assert window is not None and title_path(window.title, home) == second

    desktop.execute(act.Hotkey(keys=["ctrl", "end"]))
    desktop.execute(act.TypeText(text="sugar, 200 g\n"))
    with pytest.raises(InvalidActionError, match="does not exist"):
        desktop.execute(EditorSaveAs(path="Documents/Lists/shopping list.txt"))
    (home / "Documents" / "Lists").mkdir()
    give_to_owner(home / "Documents" / "Lists", home)
    saved = desktop.execute(EditorSaveAs(path="Documents/Lists/shopping list.txt"))
    assert saved.ok and saved.verified, saved.message

    target = home / "Documents" / "Lists" / "shopping list.txt"
    assert target.read_text() == "eggs\nflour\nsugar, 200 g\n"
    assert target.stat().st_uid == home.stat().st_uid
    assert second.read_text() == "eggs\nflour\n"  # the original is left as it was
    context = CheckContext(home=home)
    check = text_file_contains(context, "Documents/Lists/shopping list.txt", ["sugar, 200 g"])
    assert check.passed, check.reason
    window = desktop.observe().focused_window
    assert window is not None and title_path(window.title, home) == target

    with pytest.raises(InvalidActionError, match="already exists"):
        desktop.execute(EditorSaveAs(path="Documents/first.txt"))
    assert first.read_text() == "first file\n"


def test_a_new_document_is_opened_beside_a_file_and_kept_where_one_is_in_front(
    shared_desktop: SandboxDesktop,
) -> None:
    """A rewording of pc02: text typed into the editor went into the person's memo, open in
    front; ``editor_new`` puts a document of no file in front and leaves the file's tab as it
    is."""
    desktop = shared_desktop
    home = desktop.home
    desktop.close_apps()  # with no editor open, the editor starts on a document of no file
    started = desktop.execute(EditorNew())
    assert started.ok and "left as it is" not in started.message, started.message
    assert title_path(str(started.output), home) is None
    memo = home / "Documents" / "memo-new.txt"
    memo.parent.mkdir(exist_ok=True)
    memo.write_text("14:00 Meeting with John\n")
    give_to_owner(memo.parent, home)
    assert desktop.execute(EditorOpen(path="Documents/memo-new.txt")).ok
    new = desktop.execute(EditorNew())
    assert new.ok and new.verified, new.message
    assert "Documents/memo-new.txt is left as it is" in new.message
    window = desktop.observe().focused_window
    assert window is not None and title_path(window.title, home) is None, window
    desktop.execute(act.TypeText(text="typed elsewhere"))
    # A document of no file in front already is the one typed into next.
    typed_into = desktop.observe().focused_window
    again = desktop.execute(EditorNew())
    assert again.ok and typed_into is not None and again.output == typed_into.title
    assert "left as it is" not in again.message
    reopened = desktop.execute(EditorOpen(path="Documents/memo-new.txt"))
    assert reopened.ok and reopened.output == "14:00 Meeting with John\n", reopened.message
    assert memo.read_text() == "14:00 Meeting with John\n"
