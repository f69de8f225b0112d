"""The text editor's actions: open a file in the running mousepad, save its text under a path.

mousepad is one application per session: ``mousepad PATH`` run as the applications' user hands
the file to the editor already running (a new tab in its window) and exits, so the file opens
where the person looks; with no editor open, the editor is started on the file. mousepad names
the file in its window title (``~/Documents/a.txt - Mousepad``, ``*`` in front while modified),
which says which document is in front; the text of each tab is read through the accessibility
tree.

Saving under a new path has no command line: ``editor_save_as`` is the Save As dialog as a macro
(Ctrl+Shift+S, the full path typed into its name field, Enter). It is done when the title names
the new file unmodified and the file holds exactly the text the editor showed, owned by the
applications' user.
"""

from __future__ import annotations

import time
from pathlib import Path

from pcagent import actions as act
from pcagent.action_handlers import handles
from pcagent.app_actions import EditorNew, EditorOpen, EditorSaveAs
from pcagent.env.app_interfaces import Interface
from pcagent.env.apps import app_of_window
from pcagent.env.observation import ActionResult, WindowInfo
from pcagent.errors import AccessibilityError, AppInterfaceError, InvalidActionError

APP = "text_editor"
TITLE_END = " - Mousepad"
MODIFIED_MARK = "*"
SAVE_DIALOG = "Save As"
#: Seconds for the editor to show a file, or the dialog to come and go.
WAIT = 20.0
#: Characters of a file's text that editor_open returns.
TEXT_LIMIT = 4000


def title_path(title: str, home: Path) -> Path | None:
    """The file a mousepad window title names; None for a document that has none yet."""
    name = title.removeprefix(MODIFIED_MARK).removesuffix(TITLE_END)
    if name == "~" or name.startswith("~/"):
        return home / name[2:]
    return Path(name) if name.startswith("/") else None


def _editor_windows(interface: Interface) -> list[WindowInfo]:
    return [w for w in interface.sandbox.x11.windows() if app_of_window(w) == APP]


def _wait_for_title(
    interface: Interface, path: Path | None, *, saved: bool, failure: str
) -> WindowInfo:
    """The editor window in front once its title names ``path`` (no file: None; unmodified
    when ``saved``); :class:`AppInterfaceError` saying ``failure`` and which window is in front
    when none does."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        focused = interface.sandbox.x11.focused_window()
        if (
            focused is not None
            and app_of_window(focused) == APP
            and title_path(focused.title, interface.home) == path
            and not (saved and focused.title.startswith(MODIFIED_MARK))
        ):
            return focused
        time.sleep(0.2)
    focused = interface.sandbox.x11.focused_window()
    raise AppInterfaceError(
        f"{failure}; the window in front is {focused.title if focused else 'none'!r}"
    )


def front_text(interface: Interface, window: WindowInfo) -> str:
    """The text of the document in front in ``window``, read through the accessibility tree."""
    try:
        tabs = interface.sandbox.accessibility.tab_texts([window.title])
    except AccessibilityError as error:
        raise AppInterfaceError(f"the editor's text could not be read: {error}") from error
    selected = [tab for tab in tabs if tab.selected]
    if not selected:
        raise AppInterfaceError(f"the editor window {window.title!r} shows no readable text")
    return selected[0].text


def open_in_editor(interface: Interface, path: Path) -> ActionResult:
    """Open ``path`` (in HOME) in the running editor, or start the editor on it; verified by the
    window title and, for an existing file, by the text shown."""
    if path.is_dir():
        raise InvalidActionError(f"{interface.shown(path)} is a folder, not a text file")
    if not path.parent.is_dir():
        raise InvalidActionError(f"the folder {interface.shown(path.parent)} does not exist")
    if _editor_windows(interface):
        answer = interface.run_as_user(["mousepad", str(path)])
        if answer.returncode != 0:
            raise AppInterfaceError(f"mousepad did not open it: {answer.stderr.strip()[-300:]}")
    else:
        interface.sandbox.open_app(APP, [path])
    window = _wait_for_title(
        interface, path, saved=False, failure=f"the editor does not show {interface.shown(path)}"
    )
    interface.sandbox.wait_settled()
    exists = path.is_file()
    text = front_text(interface, window)
    if exists and text != path.read_text(encoding="utf-8", errors="replace"):
        raise AppInterfaceError(f"the editor's text differs from the file {interface.shown(path)}")
    shown = text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + " [...]"
    return ActionResult(
        ok=True,
        message=f"the text editor shows {interface.shown(path)}"
        + ("" if exists else " (a new file: it is created when saved)"),
        output=shown,
        verified=True,
    )


class TextEditorInterface(Interface):
    """mousepad's command line, its Save As dialog as a macro, its text read back."""

    @handles(EditorOpen)
    def _open(self, action: EditorOpen) -> ActionResult:
        return open_in_editor(self, self.source(action.path))

    @handles(EditorNew)
    def _new(self, action: EditorNew) -> ActionResult:
        """Why: typing into whatever the editor shows, a program that had read the person's
        memo (opened in the editor) typed the memo into it again; the file's tab was left
        modified, and the next reading of the file failed on it (a rewording of pc02,
        2026-12-06). Mousepad's Ctrl+N opens a new tab in its window."""
        window = self.sandbox.bring_to_front(APP) or self.sandbox.open_app(APP)
        opened = title_path(window.title, self.home)
        if opened is not None:
            self.sandbox.execute(act.Hotkey(keys=["ctrl", "n"]))
            window = _wait_for_title(
                self, None, saved=False, failure="the editor opened no new document"
            )
        left = f"; {self.shown(opened)} is left as it is" if opened is not None else ""
        return ActionResult(
            ok=True,
            message=f"the text editor shows a document of no file ({window.title}){left}",
            output=window.title,
            verified=True,
        )

    @handles(EditorSaveAs)
    def _save(self, action: EditorSaveAs) -> ActionResult:
        return self._save_as(self.path(action.path))

    def _save_as(self, path: Path) -> ActionResult:
        if path.is_dir():
            raise InvalidActionError(f"{self.shown(path)} is a folder; name the file to save")
        if not path.parent.is_dir():
            raise InvalidActionError(
                f"the folder {self.shown(path.parent)} does not exist; create it first"
            )
        window = self.sandbox.bring_to_front(APP)
        if window is None:
            raise InvalidActionError(
                "no text editor window is open, so there is no text to save; editor_open "
                "opens a file"
            )
        current = title_path(window.title, self.home)
        if (path.exists() or path.is_symlink()) and current != path:
            raise InvalidActionError(
                f"{self.shown(path)} already exists; nothing was overwritten (choose another "
                "name, or open that file to change it)"
            )
        text = front_text(self, window)
        if current == path:
            self.sandbox.execute(act.Hotkey(keys=["ctrl", "s"]))
        else:
            self._through_dialog(path)
        _wait_for_title(
            self, path, saved=True, failure=f"the editor did not save {self.shown(path)}"
        )
        written = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        if written != text:
            raise AppInterfaceError(
                f"{self.shown(path)} does not hold the editor's text after saving"
            )
        if path.stat().st_uid != self.home.stat().st_uid:
            raise AppInterfaceError(f"{self.shown(path)} does not belong to HOME's owner")
        return self.verified_at(
            f"saved the editor's text ({len(text)} characters) as {self.shown(path)}", path
        )

    def _through_dialog(self, path: Path) -> None:
        """Ctrl+Shift+S, the full path in the name field, Enter; the dialog must close."""
        self.sandbox.execute(act.Hotkey(keys=["ctrl", "shift", "s"]))
        if not self._dialog(open_=True):
            raise AppInterfaceError("the editor's Save As dialog did not open")
        self.sandbox.execute(act.Hotkey(keys=["ctrl", "a"]))
        self.sandbox.execute(act.TypeText(text=str(path)))
        self.sandbox.execute(act.Press(key="enter"))
        if not self._dialog(open_=False):
            focused = self.sandbox.x11.focused_window()
            self.sandbox.execute(act.Press(key="escape"))  # leave the editor as it was
            raise AppInterfaceError(
                "the Save As dialog did not close after Enter"
                + (f" ({focused.title!r} is in front)" if focused else "")
            )

    def _dialog(self, *, open_: bool) -> bool:
        """Wait until the Save As dialog is in front (``open_``) or no longer is."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            focused = self.sandbox.x11.focused_window()
            in_front = focused is not None and focused.title == SAVE_DIALOG
            if in_front == open_:
                return True
            time.sleep(0.1)
        return False
