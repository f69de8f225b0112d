"""The safety guard: which actions are sensitive, and who decides whether they run."""

from __future__ import annotations

import pytest
from PIL import Image

from pcagent.actions import (
    Action,
    Click,
    DoubleClick,
    Drag,
    Hotkey,
    Press,
    RightClick,
    Scroll,
    TypeText,
    parse_action,
)
from pcagent.config import PcAgentConfig, RunConfig, SafetyConfig
from pcagent.env.apps import app_infos
from pcagent.env.observation import Box, Element, Observation, WindowInfo
from pcagent.errors import ActionRefusedError, ConfigurationError
from pcagent.perception.marks import Mark
from pcagent.perception.module import Perception
from pcagent.runtime.loop.human import HumanScriptExhaustedError, NoHuman, ScriptedHuman
from pcagent.runtime.safety.context import surfaces_of
from pcagent.runtime.safety.guard import (
    ActionContext,
    SafetyGuard,
    context_for,
    normalize_label,
    parse_chord,
)

CLICK = Click(x=50, y=20)
#: The sandbox's document editors, as the run layer takes them from the environment.
EDITORS = frozenset(info.name for info in app_infos() if info.edits_documents)


def mark(
    label: str,
    role: str = "push button",
    source: str = "accessibility",
    *,
    at: tuple[int, int, int, int] = (0, 0, 100, 40),
    states: tuple[str, ...] = (),
) -> Mark:
    """A mark; ``at`` is its box as (x, y, width, height) in screen pixels."""
    x, y, width, height = at
    return Mark(
        number=1,
        role=role,
        label=label,
        states=states,
        box=Box(x=x, y=y, width=width, height=height),
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
        (keys("ctrl", "shift", "enter"), on("mail"), "send_mail"),  # send later
        (keys("ctrl", "shift", "delete"), on("file_manager"), "delete_files"),
        (keys("ctrl", "delete"), on("file_manager"), "delete_files"),
        (keys("ctrl", "f4"), on("writer"), "close_window"),
        (keys("ctrl", "shift", "w"), on("text_editor"), "close_window"),  # close all
        (keys("alt", "space"), on("writer"), "close_window"),  # the window manager's menu
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
        (keys("ctrl", "shift", "s"), on("mail")),  # more modifiers, but not a sensitive chord
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


def test_labels_are_shown_without_mnemonic_markers_and_extra_spaces() -> None:
    # What people are shown; rules compare the folded form (tests/runtime/test_label_folding.py).
    assert normalize_label("  _Don\u2019t   &Save ") == "Don\u2019t Save"


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


# --- every way to reach a protected effect -------------------------------------------------------
# Scenes as the perception reports them (boxes and states taken from the real applications).


def window(title: str, app_class: str, at: tuple[int, int, int, int]) -> WindowInfo:
    x, y, width, height = at
    return WindowInfo(
        window_id=hash(title) & 0xFFFF,
        title=title,
        app_class=app_class,
        box=Box(x=x, y=y, width=width, height=height),
    )


def scene(app: str, windows: tuple[WindowInfo, ...], *marks: Mark) -> ActionContext:
    """The focused window is the last (topmost) one."""
    focused = windows[-1]
    return ActionContext(
        app=app,
        window_title=focused.title,
        marks=marks,
        windows=windows,
        window=focused,
        surfaces=surfaces_of(app, focused.title),
    )


MOUSEPAD = window("*Untitled 1 - Mousepad", "Mousepad", (5, 29, 640, 480))
SAVE_CHANGES = window("Save Changes", "Mousepad", (73, 242, 514, 112))


def save_changes_dialog(focused: str = "Save") -> ActionContext:
    """Mousepad's "Save changes?" after ctrl+shift+w, with ``focused`` the focused button."""
    buttons = {"Cancel": (73, 320, 172, 34), "Don't Save": (245, 320, 171, 34)}
    buttons["Save"] = (416, 320, 171, 34)
    return scene(
        "text_editor",
        (MOUSEPAD, SAVE_CHANGES),
        mark("Do you want to save the changes before closing?", "label", at=(108, 247, 444, 19)),
        mark("If you don't save, the changes will be lost.", "label", at=(135, 276, 389, 17)),
        *(
            mark(name, at=box, states=("focused",) if name == focused else ())
            for name, box in buttons.items()
        ),
    )


THUNAR = window("home - Thunar", "Thunar", (5, 29, 640, 480))
VICTIM = mark("victim.txt", "table cell", at=(204, 269, 105, 26), states=("selected", "focused"))
TRASH = mark("Trash", "table cell", at=(47, 211, 130, 25))


def thunar_context_menu(highlighted: str = "") -> ActionContext:
    """Thunar after a click on a file and the ``menu`` key (the file cell keeps ``focused``)."""
    items = ["Open With Mousepad", "Cut", "Copy", "Paste", "Delete", "Rename...", "Properties..."]
    return scene(
        "file_manager",
        (THUNAR,),
        VICTIM,
        TRASH,
        mark("", "menu", at=(257, 283, 260, 238)),
        *(
            mark(
                item,
                "menu item",
                at=(257, 287 + 26 * index, 260, 25),
                states=("selected", "focused") if item == highlighted else (),
            )
            for index, item in enumerate(items)
        ),
    )


COMPOSE = window("Write: Quarterly figures - Thunderbird", "thunderbird", (0, 30, 1000, 700))
SEND = mark("Send", at=(10, 40, 80, 40))
SEND_ICON = mark("", "icon", at=(20, 48, 24, 24))
ATTACH = mark("Attach", at=(100, 40, 80, 40))
TO_FIELD = mark("To", "entry", at=(100, 130, 800, 30))
BODY = mark("", "document web", at=(0, 200, 1000, 500))


def compose(*marks: Mark, focused: str = "") -> ActionContext:
    """Thunderbird's compose window; ``focused`` names the mark (by label or role) with focus."""
    chosen = marks or (SEND, SEND_ICON, ATTACH, TO_FIELD, BODY)
    if focused:
        chosen = tuple(
            m.model_copy(update={"states": ("focused",)}) if focused in (m.label, m.role) else m
            for m in chosen
        )
    return scene("mail", (COMPOSE,), *chosen)


#: Thunderbird reports the chosen entry of each combo box as a visible, ``selected`` menu item
#: even while no menu is open.
COMBO_ITEMS = (
    mark("Paragraph", "menu item", at=(10, 210, 91, 25), states=("selected",)),
    mark("Variable Width", "menu item", at=(114, 210, 130, 25), states=("selected",)),
)


def compose_file_menu() -> ActionContext:
    """The compose window after alt+f: the File menu is open, nothing highlighted yet."""
    items = ["New", "Attach", "Save", "Send Now", "Send Later", "Print...", "Close"]
    return compose(
        mark("File", "menu", at=(0, 30, 40, 25), states=("selected",)),
        *(mark(item, "menu item", at=(0, 55 + 25 * i, 220, 25)) for i, item in enumerate(items)),
        *COMBO_ITEMS,
        BODY,
    )


WRITER = window("report.odt - LibreOffice Writer", "libreoffice-writer", (0, 29, 1280, 771))
WRITER_TEXT = mark("", "document text", at=(100, 150, 800, 600))
WRITER_PARAGRAPH = mark("We send the draft on Monday.", "paragraph", at=(120, 170, 700, 20))


def writer(*marks: Mark) -> ActionContext:
    return scene("writer", (WRITER,), *(marks or (WRITER_TEXT, WRITER_PARAGRAPH)))


def drag(start: tuple[int, int], end: tuple[int, int]) -> Drag:
    return Drag(start_x=start[0], start_y=start[1], end_x=end[0], end_y=end[1])


def menu_items(app: str, *labels: str) -> ActionContext:
    return scene(app, (WRITER,), *(mark(label, "menu item") for label in labels))


BYPASSES: list[tuple[str, Action, ActionContext, str]] = [
    # files deleted
    ("thunar menu key, then d", Press(key="d"), thunar_context_menu(), "delete_files"),
    ("... then D with shift", keys("shift", "d"), thunar_context_menu(), "delete_files"),
    (
        "... then enter, Delete highlighted",
        Press(key="enter"),
        thunar_context_menu("Delete"),
        "delete_files",
    ),
    (
        "... then enter, nothing highlighted",
        Press(key="enter"),
        thunar_context_menu(),
        "delete_files",
    ),
    ("... typed d", TypeText(text="d"), thunar_context_menu(), "delete_files"),
    (
        "drag a file onto the trash",
        drag(VICTIM.center, TRASH.center),
        thunar_context_menu(),
        "delete_files",
    ),
    (
        "delete in another app's file dialog",
        Press(key="delete"),
        scene("text_editor", (window("Open File", "Mousepad", (5, 29, 900, 700)),)),
        "delete_files",
    ),
    (
        "Delete item in a file dialog",
        CLICK,
        scene(
            "writer",
            (window("Save As", "Soffice", (5, 29, 900, 700)),),
            mark("Delete", "menu item"),
        ),
        "delete_files",
    ),
    # unsaved work discarded
    (
        "shift+tab to Don't Save, then space",
        Press(key="space"),
        save_changes_dialog("Don't Save"),
        "discard_changes",
    ),
    ("... then enter", Press(key="enter"), save_changes_dialog("Don't Save"), "discard_changes"),
    (
        "... then a typed space",
        TypeText(text=" "),
        save_changes_dialog("Don't Save"),
        "discard_changes",
    ),
    ("alt+d, Don't Save's mnemonic", keys("alt", "d"), save_changes_dialog(), "discard_changes"),
    (
        "a bare d while a button has the focus",
        Press(key="d"),
        save_changes_dialog(),
        "discard_changes",
    ),
    (
        "a 4-pixel drag on Don't Save",
        drag((300, 337), (304, 337)),
        save_changes_dialog(),
        "discard_changes",
    ),
    (
        "a drag across Don't Save",
        drag((100, 337), (560, 337)),
        save_changes_dialog(),
        "discard_changes",
    ),
    ("title bar close button", Click(x=1268, y=14), writer(), "close_window"),
    ("title bar close, double", DoubleClick(x=1275, y=5), writer(), "close_window"),
    ("right-click on the title bar", RightClick(x=640, y=14), writer(), "close_window"),
    ("the title bar's window-menu icon", DoubleClick(x=10, y=14), writer(), "close_window"),
    ("Close menu item", CLICK, menu_items("writer", "Close"), "close_window"),
    ("Exit LibreOffice menu item", CLICK, menu_items("writer", "Exit LibreOffice"), "close_window"),
    ("Quit menu item", CLICK, menu_items("calculator", "_Quit"), "close_window"),
    ("Close Tab in the editor", CLICK, menu_items("text_editor", "Close Tab"), "close_window"),
    # mail sent
    ("alt+f, then d (Send Now)", Press(key="d"), compose_file_menu(), "send_mail"),
    ("enter on a focused Send", Press(key="enter"), compose(focused="Send"), "send_mail"),
    ("space on a focused Send", Press(key="space"), compose(focused="Send"), "send_mail"),
    ("drag across Send", drag((5, 60), (95, 60)), compose(), "send_mail"),
    ("click on the icon inside Send", Click(x=30, y=60), compose(), "send_mail"),
    (
        "Send missing from the marks",
        Click(x=50, y=60),
        compose(ATTACH, TO_FIELD, BODY),
        "send_mail",
    ),
    (
        "an unnamed button in the toolbar row",
        Click(x=50, y=60),
        compose(mark("", at=(10, 40, 80, 40))),
        "send_mail",
    ),
    ("enter with no focus anywhere", Press(key="enter"), compose(), "send_mail"),
    ("... beside stale combo items", Press(key="enter"), compose(SEND, *COMBO_ITEMS), "send_mail"),
    ("alt+f, then enter", Press(key="enter"), compose_file_menu(), "send_mail"),
]


@pytest.mark.parametrize(
    ("action", "context", "expected"),
    [case[1:] for case in BYPASSES],
    ids=[case[0] for case in BYPASSES],
)
def test_every_known_bypass_is_sensitive(
    action: Action, context: ActionContext, expected: str
) -> None:
    assert category(action, context) == expected


NEAR_MISSES: list[tuple[str, Action, ActionContext]] = [
    (
        "typing 'delete me' into a text field",
        TypeText(text="delete me", x=300, y=75),
        scene("file_manager", (THUNAR,), mark("", "text", at=(157, 58, 448, 35))),
    ),
    (
        "typing 'delete me' at a focused field",
        TypeText(text="delete me\n"),
        scene(
            "file_manager", (THUNAR,), mark("", "text", at=(157, 58, 448, 35), states=("focused",))
        ),
    ),
    (
        "Delete in a focused file-name field",
        Press(key="delete"),
        scene(
            "writer",
            (window("Save As", "Soffice", (5, 29, 900, 700)),),
            mark("Name", "entry", states=("focused",)),
        ),
    ),
    (
        "a list item named Send report.txt",
        Click(x=50, y=300),
        compose(mark("Send report.txt", "list item", at=(0, 290, 400, 20))),
    ),
    ("enter in the To field", Press(key="enter"), compose(focused="entry")),
    (
        "... beside stale combo items",
        Press(key="enter"),
        compose(SEND, *COMBO_ITEMS, TO_FIELD, focused="To"),
    ),
    (
        "typing a body with newlines",
        TypeText(text="Dear all,\nsend me the figures.\n"),
        compose(focused="document web"),
    ),
    ("alt+f opens the File menu", keys("alt", "f"), compose(focused="document web")),
    ("a click on Attach", Click(x=140, y=60), compose()),
    ("an unmarked spot below the toolbar", Click(x=500, y=400), compose(SEND, TO_FIELD)),
    (
        "an unnamed field in the toolbar row",
        Click(x=50, y=60),
        compose(mark("", "entry", at=(10, 40, 80, 40))),
    ),
    (
        "an unmarked toolbar spot in the main window",
        Click(x=500, y=40),
        scene("mail", (window("Inbox - Thunderbird", "thunderbird", (0, 30, 1000, 700)),)),
    ),
    ("a drag inside a document", drag((130, 175), (600, 400)), writer()),
    ("a click on document text that says send", Click(x=130, y=175), writer()),
    (
        "ctrl+w in the browser",
        keys("ctrl", "w"),
        scene("browser", (window("Chromium", "Chromium", (0, 29, 1280, 771)),)),
    ),
    (
        "ctrl+shift+w in the browser",
        keys("ctrl", "shift", "w"),
        scene("browser", (window("Chromium", "Chromium", (0, 29, 1280, 771)),)),
    ),
    ("maximize in the title bar", Click(x=1235, y=14), writer()),
    ("moving a window by its title bar", drag((640, 14), (500, 100)), writer()),
    ("shift+tab in the dialog", keys("shift", "tab"), save_changes_dialog()),
    ("space on a focused Save", Press(key="space"), save_changes_dialog("Save")),
    (
        "menu key (it only opens a menu)",
        Press(key="menu"),
        scene("file_manager", (THUNAR,), VICTIM),
    ),
    ("a letter no sensitive item holds", Press(key="x"), thunar_context_menu()),
    ("enter on a highlighted Rename", Press(key="enter"), thunar_context_menu("Rename...")),
    ("a Close button in a dialog", CLICK, scene("writer", (WRITER,), mark("Close"))),
    ("Exit Full Screen", CLICK, menu_items("writer", "Exit Full Screen")),
    ("Close Tab in the browser", CLICK, menu_items("browser", "Close Tab")),
    ("drag within the file list", drag(VICTIM.center, (250, 240)), thunar_context_menu()),
]


@pytest.mark.parametrize(
    ("action", "context"), [case[1:] for case in NEAR_MISSES], ids=[case[0] for case in NEAR_MISSES]
)
def test_near_misses_of_the_bypasses_stay_allowed(action: Action, context: ActionContext) -> None:
    assert category(action, context) == ""


def test_reasons_say_how_the_command_is_reached() -> None:
    guard = SafetyGuard(SafetyConfig(), "auto", editors=EDITORS)
    cases = [
        (Press(key="space"), save_changes_dialog("Don't Save"), 'presses space on "Don\'t Save"'),
        (Press(key="d"), thunar_context_menu(), 'may pick the menu item "Delete"'),
        (drag((100, 337), (560, 337)), save_changes_dialog(), 'drags across "Don\'t Save"'),
        (Click(x=1268, y=14), writer(), "close button in the title bar"),
        (Click(x=50, y=60), compose(ATTACH), "unnamed spot in the toolbar row"),
        (
            Press(key="delete"),
            scene("text_editor", (window("Open File", "M", (5, 29, 9, 9)),)),
            "(file_dialog)",
        ),
    ]
    for action, context, expected in cases:
        sensitivity = guard.classify(action, context)
        assert sensitivity is not None and expected in sensitivity.reason, (action, sensitivity)


@pytest.mark.parametrize("case", BYPASSES[::4], ids=[case[0] for case in BYPASSES[::4]])
def test_bypasses_are_put_to_the_human_in_passive_mode(
    case: tuple[str, Action, ActionContext, str],
) -> None:
    _, action, context, expected = case
    human = ScriptedHuman(confirms=[False])
    verdict = SafetyGuard(SafetyConfig(), "passive", human, editors=EDITORS).check(action, context)
    assert not verdict.allowed and verdict.asked_human
    (question,) = human.questions
    assert expected in question


@pytest.mark.parametrize("case", BYPASSES[2::4], ids=[case[0] for case in BYPASSES[2::4]])
def test_bypasses_are_refused_in_auto_mode_with_the_way_out(
    case: tuple[str, Action, ActionContext, str],
) -> None:
    _, action, context, expected = case
    with pytest.raises(ActionRefusedError, match=rf'"{expected}" to \[safety\] allow'):
        SafetyGuard(SafetyConfig(), "auto", NoHuman(), editors=EDITORS).enforce(action, context)


@pytest.mark.parametrize(
    ("app", "title", "expected"),
    [
        ("text_editor", "Open File", {"file_dialog"}),
        ("writer", "Save As", {"file_dialog"}),
        ("mail", "Attach File(s)", {"file_dialog"}),
        ("mail", "Write: (no subject) - Thunderbird", {"mail_compose"}),
        ("text_editor", "Write: notes.txt - Mousepad", set()),  # only the mail client composes
        ("text_editor", "Open File - Mousepad", set()),  # a document called "Open File"
        ("mail", "Inbox - Thunderbird", set()),
    ],
)
def test_kinds_of_window_come_from_the_whole_title(
    app: str, title: str, expected: set[str]
) -> None:
    assert surfaces_of(app, title) == expected


def test_the_loop_context_names_the_command_under_the_point_and_the_screen() -> None:
    """``context_for`` is what the run loop calls: the command wins over the icon inside it."""
    elements = [Element(id=0, role="push button", name="Send", box=SEND.box, app="thunderbird")]
    observation = Observation(
        screenshot=Image.new("RGB", (1280, 800)),
        elements=elements,
        windows=[COMPOSE],
        focused_window=COMPOSE,
        timestamp=0.0,
    )
    marks = [SEND, SEND_ICON, BODY]
    perception = Perception(observation, marks, marks)
    context = context_for(Click(x=30, y=60), perception, lambda w: "mail", role="mailer")
    assert context.target == SEND
    assert context.app == "mail" and context.role == "mailer"
    assert context.surfaces == {"mail_compose"} and context.window == COMPOSE
    assert context.marks == tuple(marks) and context.windows == (COMPOSE,)
    assert context_for(Press(key="enter"), perception, lambda w: "").target is None


def test_an_application_action_that_sends_mail_is_decided_like_a_send_click() -> None:
    send = parse_action({"kind": "mail_send"})
    assert category(send, on("mail")) == "send_mail"
    assert category(send, on("")) == "send_mail"  # whatever window is in front
    assert category(parse_action({"kind": "mail_read"}), on("mail")) == ""
    assert (
        category(parse_action({"kind": "mail_compose", "to": ["a@example.test"]}), on("mail")) == ""
    )
    refused = SafetyGuard(SafetyConfig(), "auto", editors=EDITORS).check(send, on("mail"))
    assert not refused.allowed and 'allow = ["send_mail"]' in refused.reason
    allowed = SafetyGuard(SafetyConfig(allow=["send_mail"]), "auto", editors=EDITORS)
    assert allowed.check(send, on("mail")).allowed
    asked = ScriptedHuman(confirms=[False])
    passive = SafetyGuard(SafetyConfig(), "passive", human=asked, editors=EDITORS)
    assert not passive.check(send, on("mail")).allowed
