"""An in-memory desktop that implements only pcagent's environment contract: the
``Environment`` protocol and the optional capabilities ``ApplicationCatalog``,
``ApplicationControl``, ``LocalHome``, ``Describable``, ``UnsavedWork``, ``OutgoingMail`` and
``ApplicationInterfaces`` (pcagent.env.protocol).

A test double for the run layer: one "text_editor" application whose window shows a document of
a real HOME folder; typing appends to the text, clicking Save writes the file. If the run layer
reached past the contract (a sandbox attribute, a process id), the runs over it would fail.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image, ImageDraw

from pcagent import actions as act
from pcagent.app_actions import EditorOpen, EditorSaveAs
from pcagent.env.observation import ActionResult, Box, Element, Observation, WindowInfo
from pcagent.env.protocol import AppInfo, HeldMessage, MailDelivery, UnsavedDocument
from pcagent.errors import InvalidActionError, UnknownAppError

SAVE = Box(x=20, y=20, width=80, height=30)
TEXT = Box(x=20, y=70, width=500, height=300)
_STATES = frozenset({"showing", "visible", "enabled", "sensitive", "focusable"})
EDITOR = AppInfo(name="text_editor", description="plain-text editor", edits_documents=True)


class MemoryDesktop:
    """One editor window at most, on a document of ``home``."""

    def __init__(self, home: Path) -> None:
        self._home = home
        self.document: str | None = None  # relative to HOME; "" for an unsaved new text
        self.text = ""
        self.selected = False  # the whole text is selected (Ctrl+A)
        self.executed: list[act.Action] = []
        self.opened: list[tuple[str, tuple[str, ...]]] = []
        self.held: list[HeldMessage] = []
        self.delivered: list[str] = []
        self.rejected: list[str] = []

    # --- Environment ----------------------------------------------------------------------------

    def observe(self) -> Observation:
        image = Image.new("RGB", (640, 480), "white")
        windows: list[WindowInfo] = []
        elements: list[Element] = []
        if self.document is not None:
            ImageDraw.Draw(image).text((TEXT.x, TEXT.y), self.text or "(empty)", fill="black")
            windows = [self._window()]
            elements = [
                Element(id=0, role="push button", name="Save", states=_STATES, box=SAVE),
                Element(id=1, role="text", name="", text=self.text, states=_STATES, box=TEXT),
            ]
        focused = windows[0] if windows else None
        return Observation(image, elements, windows, focused, time.time())

    def execute(self, action: act.Action) -> ActionResult:
        for x, y in action.points():
            if not (0 <= x < 640 and 0 <= y < 480):
                raise InvalidActionError(f"({x}, {y}) is off the 640x480 screen")
        self.executed.append(action)
        if isinstance(action, EditorOpen | EditorSaveAs):
            return self._editor_action(action)
        if isinstance(action, act.OpenApp):
            self.open_app(action.app)
        elif isinstance(action, act.TypeText) and self.document is not None:
            # typing over a selection (Ctrl+A) replaces it, as in any editor
            self.text = action.text if self.selected else self.text + action.text
            self.selected = False
        elif isinstance(action, act.Hotkey) and action.keys == ("ctrl", "a") and self.document:
            self.selected = True
        elif isinstance(action, act.Click) and SAVE.contains(action.x, action.y) and self.document:
            (self._home / self.document).write_text(self.text)
        elif isinstance(action, act.Hotkey) and action.keys == ("ctrl", "delete") and self.document:
            # This editor's own (unguarded) shortcut: delete the open file from disk, as any
            # application might do through some menu the keystroke guard does not know.
            (self._home / self.document).unlink()
        elif isinstance(action, act.Hotkey) and action.keys == ("ctrl", "m"):
            # ... one that mails the text somewhere (the message waits at the relay) ...
            number = len(self.held) + len(self.delivered) + len(self.rejected) + 1
            self.held.append(
                HeldMessage(
                    id=f"m{number}",
                    sender="agent@example.org",
                    recipients=("boss@example.org",),
                    subject="notes",
                    size=len(self.text),
                    received_at=datetime.now(UTC),
                )
            )
        elif isinstance(action, act.Hotkey) and action.keys == ("ctrl", "k"):
            # ... one that closes the editor at once, unsaved changes and all ...
            self.close_apps()
        elif isinstance(action, act.Hotkey) and action.keys == ("ctrl", "o") and self.document:
            # ... and one that overwrites every other text file of HOME with the editor's text.
            for other in self._home.glob("*.txt"):
                if other.name != Path(self.document).name:
                    other.write_text(self.text)
        return ActionResult(ok=True, message=f"did {action.kind}")

    def _editor_action(self, action: EditorOpen | EditorSaveAs) -> ActionResult:
        """The editor's own interface: open a file, or save the text under a path, read back."""
        path = self._home / action.path
        if not path.resolve().is_relative_to(self._home.resolve()):
            raise InvalidActionError(f"{action.path} is outside HOME")
        if isinstance(action, EditorOpen):
            self.open_app(EDITOR.name, [path])
            shown = path.is_file() and self.text == path.read_text()  # read back, as the real one
            return ActionResult(
                ok=True, message=f"opened {action.path}", output=self.text, verified=shown
            )
        if self.document is None:
            return ActionResult(ok=False, message="no editor is open")
        path.write_text(self.text)
        self.document = action.path
        done = path.read_text() == self.text
        return ActionResult(ok=done, message=f"saved as {action.path}", verified=done)

    def app_action_kinds(self) -> frozenset[str]:
        return frozenset({"editor_open", "editor_save_as"})

    def reset(self) -> None:
        self.close_apps()

    def close(self) -> None:
        self.close_apps()

    # --- capabilities -----------------------------------------------------------------------------

    def applications(self) -> tuple[AppInfo, ...]:
        return (EDITOR,)

    def app_of_window(self, window: WindowInfo) -> str:
        return EDITOR.name if window.app_class == "MemoryEditor" else ""

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        if name != EDITOR.name:
            raise UnknownAppError(f"unknown application {name!r}")
        self.opened.append((name, tuple(str(f) for f in files)))
        if files:
            path = Path(files[0])
            self.document = str(path.relative_to(self._home))
            self.text = path.read_text()
        elif self.document is None:
            self.document, self.text = "", ""
        return self._window()

    def bring_to_front(self, name: str) -> WindowInfo | None:
        return self._window() if self.document is not None else None

    def close_apps(self) -> list[int]:
        self.document, self.text = None, ""
        return []

    def focused_app(self) -> str:
        return EDITOR.name if self.document is not None else ""

    def unsaved_documents(self) -> list[UnsavedDocument]:
        if self.document is None:
            return []
        path = self._home / self.document if self.document else None
        if path is not None and path.is_file() and path.read_text() == self.text:
            return []
        return [
            UnsavedDocument(
                app=EDITOR.name,
                title=f"*{self.document or 'Untitled'} - Editor",
                document=self.document,
                suffix=".txt",
                contents=self.text.encode(),
            )
        ]

    def held_mail(self) -> list[HeldMessage]:
        return list(self.held)

    def release_mail(self, message_id: str) -> MailDelivery:
        self.held = [m for m in self.held if m.id != message_id]
        self.delivered.append(message_id)
        return MailDelivery(message_id=message_id, upstream=None)

    def reject_mail(self, message_id: str) -> None:
        self.held = [m for m in self.held if m.id != message_id]
        self.rejected.append(message_id)

    @property
    def home(self) -> Path:
        return self._home

    def describe(self) -> dict[str, object]:
        return {"kind": "memory", "home": str(self._home)}

    def _window(self) -> WindowInfo:
        title = f"{self.document or 'Untitled'} - Editor"
        return WindowInfo(
            window_id=7,
            title=title,
            app_class="MemoryEditor",
            box=Box(x=0, y=0, width=640, height=480),
        )
