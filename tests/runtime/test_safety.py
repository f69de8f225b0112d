"""The safety guard: which actions are sensitive, and who decides whether they run."""

from __future__ import annotations

import pytest

from pcagent.actions import Action, Click, DoubleClick, Hotkey, Press, RightClick, Scroll, TypeText
from pcagent.config import PcAgentConfig, RunConfig, SafetyConfig
from pcagent.env.apps import app_infos
from pcagent.env.observation import Box
from pcagent.errors import ActionRefusedError, ConfigurationError
from pcagent.perception.marks import Mark
from pcagent.runtime.human import HumanScriptExhaustedError, NoHuman, ScriptedHuman
from pcagent.runtime.safety import (
    ActionContext,
    SafetyGuard,
    normalize_label,
    parse_chord,
)

CLICK = Click(x=50, y=20)
#: The sandbox's document editors, as the run layer takes them from the environment.
EDITORS = frozenset(info.name for info in app_infos() if info.edits_documents)


def mark(label: str, role: str = "push button", source: str = "accessibility") -> Mark:
    return Mark(
        number=1,
        role=role,
        label=label,
        box=Box(x=0, y=0, width=100, height=40),
        source=source,  # type: ignore[arg-type]
    )


def on(app: str, label: str | None = None, role: str = "push button") -> ActionContext:
    return ActionContext(app=app, target=None if label is None else mark(label, role))


def keys(*names: str) -> Hotkey:
    return Hotkey(keys=names)


def category(action: Action, context: ActionContext, config: SafetyConfig | None = None) -> str:
    """The sensitivity category, or "" when the action is not sensitive."""
    guard = SafetyGuard(config or SafetyConfig(), "auto", editors=EDITORS)
    sensitivity = guard.classify(action, context)
    return "" if sensitivity is None else sensitivity.category


# --- built-in categories -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "context", "expected"),
    [
        # send_mail
        (CLICK, on("mail", "Send"), "send_mail"),
        (CLICK, on("mail", "_Send"), "send_mail"),
        (CLICK, on("mail", "Send Now", "menu item"), "send_mail"),
        (CLICK, on("mail", "send later", "menu item"), "send_mail"),
        (keys("ctrl", "enter"), on("mail"), "send_mail"),
        (keys("Control", "Return"), on("mail"), "send_mail"),
        (keys("ctrl", "RETURN"), on("mail"), "send_mail"),
        (TypeText(text="hi", x=5, y=5), on("mail", "Send"), "send_mail"),
        (DoubleClick(x=5, y=5), on("mail", "Send"), "send_mail"),
        # delete_files
        (Press(key="delete"), on("file_manager"), "delete_files"),
        (Press(key="Delete", times=2), on("file_manager"), "delete_files"),
        (keys("delete"), on("file_manager"), "delete_files"),
        (keys("shift", "delete"), on("file_manager"), "delete_files"),
        (CLICK, on("file_manager", "Delete", "menu item"), "delete_files"),
        (CLICK, on("file_manager", "Move to Trash", "menu item"), "delete_files"),
        (CLICK, on("file_manager", "Empty Trash"), "delete_files"),
        (CLICK, on("file_manager", "Delete Permanently"), "delete_files"),
        (CLICK, on("browser", "Delete Permanently"), "delete_files"),
        (CLICK, on("writer", "Empty Trash"), "delete_files"),
        # discard_changes, in any app
        (CLICK, on("text_editor", "_Don't Save"), "discard_changes"),
        (CLICK, on("writer", "Don\u2019t Save"), "discard_changes"),
        (CLICK, on("spreadsheet", "Do Not Save"), "discard_changes"),
        (CLICK, on("text_editor", "Discard"), "discard_changes"),
        (CLICK, on("text_editor", "Close _without Saving"), "discard_changes"),
        (CLICK, on("browser", "Close Without Saving"), "discard_changes"),
        # close_window
        (keys("ctrl", "q"), on("calculator"), "close_window"),
        (keys("alt", "F4"), on("browser"), "close_window"),
        (keys("ctrl", "w"), on("writer"), "close_window"),
        (keys("ctrl", "W"), on("spreadsheet"), "close_window"),
        (keys("ctrl", "w"), on("text_editor"), "close_window"),
    ],
)
def test_builtin_categories_trigger(action: Action, context: ActionContext, expected: str) -> None:
    assert category(action, context) == expected


@pytest.mark.parametrize(
    ("action", "context"),
    [
        (CLICK, on("mail", "Sender")),  # a whole word only
        (CLICK, on("mail", "Resend")),
        (CLICK, on("mail", "Send / Receive")),  # fetches mail
        (CLICK, on("mail", "Please send the report", "table cell")),  # a message in the list
        (CLICK, on("text_editor", "Send")),  # send_mail is for the mail client only
        (keys("ctrl", "s"), on("mail")),
        (keys("ctrl", "shift", "enter"), on("mail")),  # chords match exactly
        (keys("ctrl", "enter"), on("writer")),  # a page break, not a message
        (Press(key="enter"), on("mail", "Send")),  # no point: the target is not clicked
        (Press(key="delete"), on("text_editor")),  # deletes a character
        (Press(key="backspace"), on("file_manager")),
        (keys("shift", "delete"), on("spreadsheet")),
        (CLICK, on("file_manager", "Deleted items")),
        (CLICK, on("file_manager", "delete me.txt", "table cell")),  # a file, not a command
        (CLICK, on("text_editor", "Delete")),  # deleting text is not deleting files
        (CLICK, on("writer", "Save")),
        (CLICK, on("writer", "Don't save this line", "paragraph")),  # document content
        (CLICK, on("text_editor", "Discard the old draft", "text")),  # typed text
        (keys("ctrl", "w"), on("browser")),  # closes a tab, which ctrl+shift+t restores
        (keys("ctrl", "w"), on("file_manager")),
        (keys("alt", "f5"), on("browser")),
        (RightClick(x=5, y=5), on("mail")),  # no target
        (TypeText(text="Send"), on("mail", "Send")),  # no point: types at the focus
        (Scroll(x=5, y=5, direction="down"), on("mail", "Send")),
        (CLICK, on("mail", "")),
    ],
)
def test_near_misses_are_not_sensitive(action: Action, context: ActionContext) -> None:
    assert category(action, context) == ""


def test_an_unknown_app_counts_as_any_app() -> None:
    """A rule for one app still applies when the run loop could not tell which app it is."""
    assert category(CLICK, on("", "Send")) == "send_mail"
    assert category(Press(key="delete"), on("")) == "delete_files"
    assert category(keys("ctrl", "w"), on("")) == "close_window"


def test_closing_a_document_is_sensitive_in_the_environments_editors_only() -> None:
    """Which applications edit documents is the environment's word, not a list of the guard's."""
    guard = SafetyGuard(SafetyConfig(), "auto", editors=frozenset({"notebook"}))
    close_document = keys("ctrl", "w")
    assert guard.classify(close_document, on("notebook")) is not None
    assert guard.classify(close_document, on("writer")) is None  # not an editor here
    assert guard.classify(close_document, on("")) is not None  # unknown counts as any app
    assert guard.classify(keys("ctrl", "q"), on("writer")) is not None  # closing an app still is


def test_an_environment_that_names_no_editors_guards_closing_everywhere() -> None:
    guard = SafetyGuard(SafetyConfig(), "auto", editors=frozenset())
    assert guard.classify(keys("ctrl", "w"), on("browser")) is not None


def test_ocr_marks_are_matched_whatever_their_role() -> None:
    """OCR text stands in for controls that have no accessible text, so it may be a button."""
    ocr_send = ActionContext(app="mail", target=mark("Send", role="text", source="ocr"))
    assert category(CLICK, ocr_send) == "send_mail"
    accessible_text = ActionContext(app="mail", target=mark("Send", role="text"))
    assert category(CLICK, accessible_text) == ""


def test_reason_names_what_is_clicked_and_where() -> None:
    guard = SafetyGuard(SafetyConfig(), "auto", editors=EDITORS)
    sensitivity = guard.classify(CLICK, on("mail", "Send"))
    assert sensitivity is not None
    assert sensitivity.reason.startswith('clicks "Send" in mail')
    hotkey = guard.classify(keys("alt", "f4"), on(""))
    assert hotkey is not None
    assert "presses alt+f4 in an unidentified window" in hotkey.reason


def test_label_normalisation() -> None:
    assert normalize_label("  _Don\u2019t   &Save ") == "Don't Save"


def test_chords_compare_as_keysym_sets() -> None:
    assert parse_chord("ctrl+enter") == parse_chord("Control+Return") == parse_chord("RETURN+ctrl")
    assert parse_chord("ctrl++") == frozenset({"ctrl", "plus"})
    assert parse_chord("ctrl+shift+x") != parse_chord("ctrl+x")


# --- what the guard lets through -----------------------------------------------------------------


def test_harmless_actions_run_without_asking() -> None:
    human = ScriptedHuman()  # any question would raise
    verdict = SafetyGuard(SafetyConfig(), "passive", human, editors=EDITORS).check(
        CLICK, on("mail", "Reply")
    )
    assert verdict.allowed and verdict.sensitivity is None and not verdict.asked_human
    assert human.questions == []


def test_auto_mode_refuses_with_the_config_key_to_change() -> None:
    human = NoHuman()
    verdict = SafetyGuard(SafetyConfig(), "auto", human, editors=EDITORS).check(
        CLICK, on("mail", "Send")
    )
    assert not verdict.allowed and not verdict.asked_human
    assert verdict.sensitivity is not None and verdict.sensitivity.category == "send_mail"
    assert '"send_mail" to [safety] allow' in verdict.reason
    assert human.questions == []  # auto mode never asks, not even a NoHuman


def test_allow_lets_a_category_through_in_auto_mode() -> None:
    guard = SafetyGuard(SafetyConfig(allow=["send_mail"]), "auto", ScriptedHuman(), editors=EDITORS)
    verdict = guard.check(CLICK, on("mail", "Send"))
    assert verdict.allowed and not verdict.asked_human
    assert verdict.sensitivity is not None and verdict.sensitivity.category == "send_mail"
    # Only that category: deleting files is still refused.
    assert not guard.check(Press(key="delete"), on("file_manager")).allowed


def test_allow_skips_the_question_in_passive_mode() -> None:
    human = ScriptedHuman()
    guard = SafetyGuard(SafetyConfig(allow=["close_window"]), "passive", human, editors=EDITORS)
    assert guard.check(keys("ctrl", "q"), on("writer")).allowed
    assert human.questions == []


@pytest.mark.parametrize("mode", ["passive", "proactive"])
@pytest.mark.parametrize("answer", [True, False])
def test_passive_and_proactive_modes_ask_the_human(mode: str, answer: bool) -> None:
    human = ScriptedHuman(confirms=[answer])
    guard = SafetyGuard(SafetyConfig(), mode, human, editors=EDITORS)  # type: ignore[arg-type]
    context = ActionContext(
        app="file_manager", target=mark("Move to Trash", "menu item"), role="decision"
    )
    verdict = guard.check(CLICK, context)
    assert verdict.allowed is answer and verdict.asked_human
    (question,) = human.questions
    for expected in ("click", "Move to Trash", "file_manager", "delete_files", "decision"):
        assert expected in question
    if not answer:
        assert "refused" in verdict.reason


def test_enforce_raises_when_refused_and_returns_the_verdict_otherwise() -> None:
    guard = SafetyGuard(
        SafetyConfig(), "passive", ScriptedHuman(confirms=[False, True]), editors=EDITORS
    )
    with pytest.raises(ActionRefusedError, match="discard_changes"):
        guard.enforce(CLICK, on("writer", "Don't Save"))
    assert guard.enforce(CLICK, on("writer", "Don't Save")).allowed
    assert guard.enforce(CLICK, on("writer", "Save")).sensitivity is None
    with pytest.raises(ActionRefusedError, match=r"\[safety\] allow"):
        SafetyGuard(SafetyConfig(), "auto", editors=EDITORS).enforce(
            keys("alt", "f4"), on("writer")
        )


def test_a_human_out_of_answers_is_not_taken_as_consent() -> None:
    guard = SafetyGuard(SafetyConfig(), "passive", ScriptedHuman(), editors=EDITORS)
    with pytest.raises(HumanScriptExhaustedError):
        guard.check(CLICK, on("mail", "Send"))


# --- configured extras ---------------------------------------------------------------------------


def test_extra_labels_and_hotkeys_are_custom() -> None:
    config = SafetyConfig(
        extra_labels=["publish( now)?", r"wipe\s+all"], extra_hotkeys=["ctrl+shift+x"]
    )
    assert category(CLICK, on("browser", "Publish Now"), config) == "custom"
    assert category(CLICK, on("writer", "_Wipe  All"), config) == "custom"
    assert category(CLICK, on("browser", "Publisher"), config) == ""
    assert category(keys("ctrl", "shift", "X"), on("calculator"), config) == "custom"
    assert category(keys("ctrl", "x"), on("calculator"), config) == ""
    assert category(CLICK, on("browser", "Publish")) == ""  # not without the configuration
    allowed = SafetyGuard(config.model_copy(update={"allow": ["custom"]}), "auto", editors=EDITORS)
    assert allowed.check(CLICK, on("browser", "Publish")).allowed


@pytest.mark.parametrize(
    ("config", "key"),
    [
        (SafetyConfig(extra_labels=["(unclosed"]), "safety.extra_labels"),
        (SafetyConfig(extra_hotkeys=["ctrl+nosuchkey"]), "safety.extra_hotkeys"),
        (SafetyConfig(extra_hotkeys=["ctrl+"]), "safety.extra_hotkeys"),
    ],
)
def test_bad_extras_are_configuration_errors(config: SafetyConfig, key: str) -> None:
    with pytest.raises(ConfigurationError, match=key):
        SafetyGuard(config, "auto", editors=EDITORS)


def test_unknown_mode_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="mode"):
        SafetyGuard(SafetyConfig(), "sometimes", editors=EDITORS)  # type: ignore[arg-type]


def test_from_config_uses_safety_section_and_run_mode() -> None:
    config = PcAgentConfig(
        run=RunConfig(mode="passive"), safety=SafetyConfig(extra_hotkeys=["ctrl+k"])
    )
    human = ScriptedHuman(confirms=[True])
    guard = SafetyGuard.from_config(config, human, editors=EDITORS)
    assert guard.mode == "passive"
    verdict = guard.check(keys("ctrl", "k"), on("writer"))
    assert verdict.allowed and verdict.asked_human
    assert verdict.sensitivity is not None and verdict.sensitivity.category == "custom"
