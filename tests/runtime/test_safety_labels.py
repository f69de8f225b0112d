"""The guard's label matching: replace confirmations, the synonyms applications use, and labels
spelled to look like a sensitive command (look-alike letters, invisible characters)."""

from __future__ import annotations

import pytest
from tests.runtime.test_safety import CLICK, EDITORS, category, mark

from pcagent.actions import Action, Hotkey, Press
from pcagent.config import SafetyConfig
from pcagent.env.observation import Box, WindowInfo
from pcagent.runtime.loop.human import ScriptedHuman
from pcagent.runtime.safety.context import surfaces_of
from pcagent.runtime.safety.guard import ActionContext, SafetyGuard


def in_window(app: str, title: str, label: str, role: str = "push button") -> ActionContext:
    """A click context in a window of ``app`` titled ``title`` (its kinds of window included)."""
    return ActionContext(
        app=app, window_title=title, target=mark(label, role), surfaces=surfaces_of(app, title)
    )


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        # Replace confirmations, as GTK, Thunar, KDE and LibreOffice word them, in any app
        (in_window("text_editor", "", "_Replace"), "overwrite_files"),
        (in_window("writer", "Save As", "Replace"), "overwrite_files"),
        (in_window("file_manager", "Confirm to replace files", "Replace All"), "overwrite_files"),
        (in_window("spreadsheet", "File Exists", "Overwrite"), "overwrite_files"),
        (in_window("browser", "", "Yes, Replace"), "overwrite_files"),
        (in_window("", "", "Replace File"), "overwrite_files"),
        (in_window("mail", "", "Overwrite Existing File"), "overwrite_files"),
        # a question answered "Yes" in a file dialog (Qt asks "... already exists. Replace it?")
        (in_window("writer", "Save As", "&Yes"), "overwrite_files"),
        # LibreOffice's own question over its GTK file dialog carries the dialog's title, "Save"
        (in_window("writer", "Save", "Yes"), "overwrite_files"),
        (in_window("text_editor", "Save As", "Yes to All"), "overwrite_files"),
        # look-alike letters and invisible characters
        (in_window("mail", "", "S\u0435nd"), "send_mail"),
        (in_window("mail", "", "Se\u200bnd"), "send_mail"),
        (in_window("mail", "", "\uff33\uff45\uff4e\uff44"), "send_mail"),
        (in_window("text_editor", "", "R\u0435pl\u0430ce"), "overwrite_files"),
        (in_window("file_manager", "", "D\u0435l\u0435te", "menu item"), "delete_files"),
        (in_window("writer", "", "Don\u2019t S\u0430ve"), "discard_changes"),
        (in_window("writer", "", "Dont Save"), "discard_changes"),
        (in_window("writer", "", "Don\u00b4t Save"), "discard_changes"),
        (in_window("text_editor", "", "Disc\u200dard"), "discard_changes"),
        # the synonyms applications use
        (in_window("text_editor", "", "Throw Away Changes"), "discard_changes"),
        (in_window("writer", "", "Throw Away"), "discard_changes"),
        (in_window("spreadsheet", "", "Discard All Changes"), "discard_changes"),
        (in_window("text_editor", "", "Quit without Saving"), "discard_changes"),
        (in_window("file_manager", "", "Erase", "menu item"), "delete_files"),
        (in_window("file_manager", "", "Remove", "menu item"), "delete_files"),
        (in_window("file_manager", "", "Move to Wastebasket", "menu item"), "delete_files"),
        (in_window("writer", "Open", "Remove"), "delete_files"),  # a file dialog's
        (in_window("browser", "", "Erase Permanently"), "delete_files"),
    ],
)
def test_sensitive_labels_however_they_are_spelled(context: ActionContext, expected: str) -> None:
    assert category(CLICK, context) == expected


@pytest.mark.parametrize(
    "context",
    [
        # replacing text is not replacing a file
        in_window("text_editor", "Find and Replace", "Replace"),
        in_window("writer", "Find & Replace", "Replace All"),
        in_window("text_editor", "Search and Replace", "_Replace"),
        in_window("writer", "Replace", "Replace"),
        in_window("writer", "Untitled 1 - LibreOffice Writer", "Find & Replace...", "menu item"),
        in_window("text_editor", "", "Replace with"),  # a field's label, not the command
        in_window("writer", "Save As", "Overwrite mode", "check box"),  # only whole labels
        in_window("writer", "", "Yes"),  # "Yes" counts in file dialogs only
        in_window("writer", "", "Remove", "menu item"),  # removes text, not files
        in_window("file_manager", "", "Bin", "push button"),  # a folder may be called bin
        in_window("writer", "", "Save"),
        in_window("mail", "", "S\u0430nd"),  # Cyrillic a: "Sand", not "Send"
    ],
)
def test_near_misses_stay_allowed(context: ActionContext) -> None:
    assert category(CLICK, context) == ""


def test_the_find_dialog_exception_does_not_hide_other_rules() -> None:
    """In a find-and-replace dialog, "Replace" is harmless, "Don't Save" is not."""
    assert category(CLICK, in_window("writer", "Find and Replace", "Don't Save")) == (
        "discard_changes"
    )


def test_a_replace_confirmation_is_refused_in_auto_mode_and_asked_in_passive_mode() -> None:
    confirmation = in_window("text_editor", "", "_Replace")
    refused = SafetyGuard(SafetyConfig(), "auto", editors=EDITORS).check(CLICK, confirmation)
    assert not refused.allowed
    assert '"overwrite_files" to [safety] allow' in refused.reason
    assert 'clicks "Replace"' in refused.reason  # people read the label, not its folded form

    human = ScriptedHuman([False])
    asked = SafetyGuard(SafetyConfig(), "passive", human, editors=EDITORS).check(
        CLICK, confirmation
    )
    assert asked.asked_human and not asked.allowed
    assert "overwrite_files" in human.questions[0]

    allowed = SafetyGuard(SafetyConfig(allow=["overwrite_files"]), "auto", editors=EDITORS)
    assert allowed.check(CLICK, confirmation).allowed


def focused_dialog(*labels: str) -> ActionContext:
    window = WindowInfo(window_id=7, title="", box=Box(x=0, y=0, width=400, height=200))
    marks = tuple(
        mark(label, at=(10 + 110 * index, 150, 100, 30), states=("focused",) if index == 0 else ())
        for index, label in enumerate(labels)
    )
    return ActionContext(app="text_editor", marks=marks, windows=(window,), window=window)


@pytest.mark.parametrize(
    "action",
    [
        Press(key="space"),  # the focused "Replace"
        Press(key="return"),
        Hotkey(keys=("alt", "r")),  # its mnemonic
        Press(key="r"),  # a bare mnemonic while a button has the focus
    ],
)
def test_a_replace_confirmation_reached_by_keys_is_sensitive(action: Action) -> None:
    assert category(action, focused_dialog("_R\u0435place", "_Cancel")) == "overwrite_files"


def test_a_mnemonic_letter_is_found_in_a_look_alike_label() -> None:
    """The "e" of "Sеnd" written with a Cyrillic letter is still the key that activates it."""
    dialog = focused_dialog("Can_cel", "S\u0435nd")
    dialog = dialog.model_copy(update={"app": "mail"})
    assert category(Hotkey(keys=("alt", "e")), dialog) == "send_mail"


def test_a_label_of_invisible_characters_is_no_label() -> None:
    """In a compose window's toolbar row, a button named only with zero-width characters is an
    unnamed spot, where Send may be."""
    window = WindowInfo(window_id=3, title="Write: hello", box=Box(x=0, y=0, width=800, height=600))
    button = mark("\u200b\u2060", at=(20, 10, 40, 30))
    context = ActionContext(
        app="mail",
        window_title=window.title,
        marks=(button,),
        windows=(window,),
        window=window,
        surfaces=surfaces_of("mail", window.title),
    )
    assert category(CLICK.model_copy(update={"x": 30, "y": 20}), context) == "send_mail"


def test_extra_labels_meet_the_folded_label_too() -> None:
    config = SafetyConfig(extra_labels=["publish", "can't undo"])
    assert category(CLICK, in_window("browser", "", "Publ\u0456sh"), config) == "custom"
    assert category(CLICK, in_window("browser", "", "Cant\u200b Undo"), config) == "custom"
    assert category(CLICK, in_window("browser", "", "Published"), config) == ""
