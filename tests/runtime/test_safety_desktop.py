"""The keystroke guard on real applications: the bypasses that reached a protected effect by keys,
focus and drags are refused, and the effect did not happen.

Each action goes through the guard stage as the run loop runs it: a perception of the screen,
:func:`context_for` on it, :meth:`SafetyGuard.check`, and execution only when allowed.
"""

from __future__ import annotations

import pytest

from pcagent.actions import Action, Click, Drag, Hotkey, Press, TypeText
from pcagent.config import SafetyConfig
from pcagent.env import SandboxDesktop
from pcagent.env.apps import app_infos
from pcagent.perception.marks import Mark
from pcagent.perception.module import ActivePerception, Perception
from pcagent.runtime.safety.guard import GuardVerdict, SafetyGuard, context_for

pytestmark = [pytest.mark.desktop]

EDITORS = frozenset(info.name for info in app_infos() if info.edits_documents)


class GuardedDesktop:
    """A desktop whose actions pass the guard stage first, as in the run loop."""

    def __init__(self, desktop: SandboxDesktop, guard: SafetyGuard) -> None:
        self.desktop = desktop
        self.guard = guard
        self.perception = ActivePerception(desktop)

    def look(self) -> Perception:
        self.desktop.wait_settled()
        return self.perception.perceive()

    def act(self, action: Action) -> GuardVerdict:
        """Check ``action`` against the screen as it is now; run it only when allowed."""
        context = context_for(action, self.look(), self._app_of, role="test")
        verdict = self.guard.check(action, context)
        if verdict.allowed:
            self.desktop.execute(action)
        return verdict

    def _app_of(self, window: object) -> str:
        return self.desktop.app_of_window(window) if window is not None else ""  # type: ignore[arg-type]


def find(perception: Perception, label: str, role: str | None = None) -> Mark:
    found = [m for m in perception.marks if m.label == label and role in (None, m.role)]
    assert found, f"no mark {label!r} on screen: {[m.label for m in perception.marks]}"
    return found[0]


def test_discarding_unsaved_text_by_focus_drag_or_title_bar_is_refused(
    desktop: SandboxDesktop,
) -> None:
    # Closing is allowed here, so that the dialog the probe used comes up.
    guard = SafetyGuard(SafetyConfig(allow=["close_window"]), "auto", editors=EDITORS)
    screen = GuardedDesktop(desktop, guard)
    desktop.open_app("text_editor")
    assert screen.act(TypeText(text="unsaved words")).allowed
    closing = screen.act(Hotkey(keys=("ctrl", "shift", "w")))
    assert closing.allowed and closing.sensitivity is not None  # close_window, allowed by config
    assert screen.act(Hotkey(keys=("shift", "tab"))).allowed
    dialog = screen.look()
    assert "focused" in find(dialog, "Don't Save", "push button").states

    space = screen.act(Press(key="space"))
    assert not space.allowed and space.sensitivity is not None
    assert space.sensitivity.category == "discard_changes"
    assert 'on "Don\'t Save" (focused)' in space.reason

    cancel, save = find(dialog, "Cancel"), find(dialog, "Save")
    across = Drag(
        start_x=cancel.box.x + 5,
        start_y=cancel.center[1],
        end_x=save.box.right - 5,
        end_y=save.center[1],
    )
    dragged = screen.act(across)
    assert not dragged.allowed and dragged.sensitivity is not None
    assert dragged.sensitivity.category == "discard_changes"

    # The dialog is still up; cancelling it leaves the text where it was.
    assert find(screen.look(), "Don't Save").label
    desktop.execute(Click(x=cancel.center[0], y=cancel.center[1]))
    after = screen.look()
    assert after.observation.focused_window is not None
    assert after.observation.focused_window.title.startswith("*Untitled")
    texts = [e.text for e in after.observation.elements if "unsaved words" in e.text]
    assert texts, "the typed text is gone"

    # The close button the window manager draws in the title bar has no mark; it still counts.
    strict = GuardedDesktop(desktop, SafetyGuard(SafetyConfig(), "auto", editors=EDITORS))
    frame = after.observation.focused_window.box
    title_bar_close = strict.act(Click(x=frame.right - 10, y=frame.y - 12))
    assert not title_bar_close.allowed and title_bar_close.sensitivity is not None
    assert title_bar_close.sensitivity.category == "close_window"
    assert any(w.title.startswith("*Untitled") for w in desktop.x11.windows())


def test_a_menu_key_then_a_mnemonic_does_not_delete_a_file(desktop: SandboxDesktop) -> None:
    victim = desktop.home / "victim.txt"
    victim.write_text("keep me\n")
    guard = SafetyGuard(SafetyConfig(), "auto", editors=EDITORS)
    screen = GuardedDesktop(desktop, guard)
    desktop.open_app("file_manager", [str(desktop.home)])
    name = find(screen.look(), "victim.txt", "table cell")
    assert screen.act(Click(x=name.center[0], y=name.center[1])).allowed
    assert screen.act(Press(key="menu")).allowed  # opening a menu is harmless
    assert find(screen.look(), "Delete", "menu item")

    letter = screen.act(Press(key="d"))
    assert not letter.allowed and letter.sensitivity is not None
    assert letter.sensitivity.category == "delete_files"
    assert '"delete_files" to [safety] allow' in letter.reason
    assert not screen.act(Hotkey(keys=("ctrl", "shift", "delete"))).allowed
    desktop.execute(Press(key="Escape"))
    assert victim.read_text() == "keep me\n"


def test_save_as_onto_another_file_stops_at_the_replace_confirmation(
    desktop: SandboxDesktop,
) -> None:
    """The text editor's Save As onto an existing name: GTK asks "Replace?"; the guard refuses the
    press on "Replace" (and its keys), so the other file keeps its content."""
    kept = desktop.home / "kept.txt"
    kept.write_text("precious\n")
    draft = desktop.home / "draft.txt"
    draft.write_text("draft\n")
    screen = GuardedDesktop(desktop, SafetyGuard(SafetyConfig(), "auto", editors=EDITORS))
    desktop.open_app("text_editor", [str(draft)])
    assert screen.act(Hotkey(keys=("ctrl", "shift", "s"))).allowed
    assert screen.act(Hotkey(keys=("ctrl", "a"))).allowed
    assert screen.act(TypeText(text="kept.txt")).allowed
    assert screen.act(Press(key="Return")).allowed
    # GTK's confirmation: an untitled dialog whose "Replace" button has the focus.
    replace = find(screen.look(), "Replace", "push button")
    assert "focused" in replace.states

    pressed = screen.act(Click(x=replace.center[0], y=replace.center[1]))
    assert not pressed.allowed and pressed.sensitivity is not None
    assert pressed.sensitivity.category == "overwrite_files"
    assert '"overwrite_files" to [safety] allow' in pressed.reason
    for keys in (Press(key="Return"), Press(key="space"), Hotkey(keys=("alt", "r"))):
        by_keys = screen.act(keys)
        assert not by_keys.allowed and by_keys.sensitivity is not None, keys
        assert by_keys.sensitivity.category == "overwrite_files"

    cancel = find(screen.look(), "Cancel", "push button")
    desktop.execute(Click(x=cancel.center[0], y=cancel.center[1]))
    desktop.wait_settled()
    assert kept.read_text() == "precious\n"
