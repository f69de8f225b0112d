"""What the safety guard counts as sensitive: the rules as data, and how one thing an action may set
off (:class:`~pcagent.runtime.safety.reach.Activation`) or one key chord is matched against them.

The guard that applies them is :class:`pcagent.runtime.safety.guard.SafetyGuard`; its module docstring
states the matching rules. Adding a sensitive command, chord or window kind means adding data here,
not code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pcagent.actions import normalize_key
from pcagent.config import SafetyConfig
from pcagent.errors import ConfigurationError, InvalidActionError
from pcagent.runtime.safety.label_folding import fold_label, fold_pattern, fold_text
from pcagent.text import single_spaced

#: Category of the rules built from ``[safety] extra_labels`` and ``extra_hotkeys``.
CUSTOM_CATEGORY = "custom"

#: Accessibility roles whose label is content (typed text, a file or message name), not a command.
CONTENT_ROLES = frozenset(
    {
        "text",
        "entry",
        "password text",
        "paragraph",
        "heading",
        "document text",
        "document frame",
        "document web",
        "document spreadsheet",
        "terminal",
        "table cell",
        "tree item",
        "list item",
        "icon",
    }
)
#: Roles that run a command when activated: a click inside one is a click on it, whatever icon or
#: label inside it the pointer lands on.
COMMAND_ROLES = frozenset(
    {
        "push button",
        "toggle button",
        "menu",
        "menu item",
        "check menu item",
        "radio menu item",
        "link",
        "page tab",
        "radio button",
        "check box",
        "combo box",
    }
)
#: Entries of an open menu (a top-level ``menu`` only opens one).
MENU_ITEM_ROLES = frozenset({"menu item", "check menu item", "radio menu item"})
#: Roles that take typed text: keys pressed while one has the focus edit it.
TEXT_INPUT_ROLES = frozenset(
    {"text", "entry", "password text", "terminal", "document text", "paragraph", "spin button"}
)
#: Keys that may be added to a rule's chord without changing what it does: applications bind the
#: shifted variant to a stronger form of the same command (``ctrl+shift+w`` closes every
#: document, ``ctrl+shift+enter`` sends later, ``shift+delete`` deletes for good).
MODIFIERS = frozenset({"ctrl", "alt", "shift", "super"})
#: What file managers call the trash (a folder named "bin" is not one).
_TRASH = r"(trash|wastebasket|rubbish bin|recycle bin)"

#: Names of controls that have no mark to read a label from (the window manager draws them, or the
#: screen reading missed them); rules list them in ``controls``.
Control = Literal["window_close", "window_menu", "unmarked_toolbar"]
WINDOW_CLOSE: Control = "window_close"
WINDOW_MENU: Control = "window_menu"
UNMARKED_TOOLBAR: Control = "unmarked_toolbar"


@dataclass(frozen=True)
class Surface:
    """A kind of window rules can name besides applications, recognised by its whole title.

    A file dialog belongs to whatever application opened it, yet can delete files like the file
    manager; a mail client's compose window is where Send lives.
    """

    name: str
    #: Regular expression matched, case-insensitively, against the whole window title in its
    #: folded form (:func:`~pcagent.runtime.safety.label_folding.fold_text`).
    title: str
    #: Only windows of these applications; empty means any.
    apps: frozenset[str] = frozenset()

    def matches(self, app: str, title: str) -> bool:
        if self.apps and app not in self.apps:
            return False
        return re.fullmatch(self.title, fold_text(title), re.IGNORECASE) is not None


SURFACES = (
    Surface(
        "file_dialog",
        r"(open|save|save as|save a copy|export|export as|insert image|open files?|save files?"
        r"|attach files?|attach file\(s\)|(select|choose) (an? )?(files?|folders?|image))\.*",
    ),
    Surface("mail_compose", r"write: .*", apps=frozenset({"mail"})),
    # Where "Replace" replaces text, not a file: the find-and-replace dialogs of the editors.
    Surface("find_replace", r"(find|search)( (and|&))? replace|replace( text)?"),
)


@dataclass(frozen=True)
class SensitiveRule:
    """One kind of sensitive action, as data.

    ``labels`` are regular expressions matched as whole phrases against the label of a command
    the action may activate (``label_roles``, when given, limits them to commands of those roles);
    ``drop_labels`` against whatever a drag ends on, content included (a file dropped on "Trash");
    ``chords`` are key combinations such as ``"shift+delete"``, pressed with at least their
    modifiers (see :data:`MODIFIERS`); ``controls`` are unlabelled controls (:data:`Control`).
    ``apps`` limits the rule to those logical apps (an unknown app counts as any), ``surfaces``
    adds kinds of window (:data:`SURFACES`) where it also holds; both empty means everywhere.
    ``except_surfaces`` are kinds of window where it never holds (its labels mean something
    harmless there). Labels are compared in folded form
    (:mod:`pcagent.runtime.safety.label_folding`), so patterns are written in lower case, and any
    apostrophe in them is ignored.
    With ``keys_edit_text``, the chords are also text-editing keys (Delete) and do not count while
    a text field has the keyboard focus.
    """

    category: str
    description: str
    labels: tuple[str, ...] = ()
    label_roles: frozenset[str] = frozenset()
    drop_labels: tuple[str, ...] = ()
    chords: tuple[str, ...] = ()
    controls: tuple[Control, ...] = ()
    apps: frozenset[str] = frozenset()
    surfaces: frozenset[str] = frozenset()
    except_surfaces: frozenset[str] = frozenset()
    keys_edit_text: bool = False

    def applies_to(self, app: str, surfaces: frozenset[str]) -> bool:
        if self.except_surfaces & surfaces:
            return False
        if self.surfaces & surfaces:
            return True
        if self.apps:
            return not app or app in self.apps
        return not self.surfaces  # a rule only for some kinds of window holds nowhere else


#: The built-in rules that hold the same in every environment, checked in order.
_EVERYWHERE: tuple[SensitiveRule, ...] = (
    SensitiveRule(
        "send_mail",
        "sends the message being written",
        # "Send / Receive" only fetches mail.
        labels=(r"send(?!\s*/)", r"send now", r"send later"),
        # enter and return are the same keysym; ctrl+shift+enter sends later.
        chords=("ctrl+enter",),
        apps=frozenset({"mail"}),
    ),
    SensitiveRule(
        "send_mail",
        "may press Send, which the screen reading did not show there",
        controls=(UNMARKED_TOOLBAR,),
        surfaces=frozenset({"mail_compose"}),
    ),
    SensitiveRule(
        "delete_files",
        "deletes files or moves them to the trash",
        # "Erase" and "Remove" are what some file managers and dialogs call deleting.
        labels=(
            r"delete",
            r"erase",
            r"remove",
            rf"move to (the )?{_TRASH}",
            rf"empty (the )?{_TRASH}",
            r"delete permanently",
        ),
        drop_labels=(_TRASH,),
        chords=("delete",),  # with any modifiers: shift+, ctrl+, ctrl+shift+delete
        apps=frozenset({"file_manager"}),
        surfaces=frozenset({"file_dialog"}),
        keys_edit_text=True,
    ),
    SensitiveRule(
        "delete_files",
        "deletes files for good",
        labels=(r"(delete|erase) permanently", rf"empty (the )?{_TRASH}"),
    ),
    SensitiveRule(
        "discard_changes",
        "throws away unsaved changes",
        # As GTK, Qt, LibreOffice and older desktops word it; "Dont Save" and "Don’t Save"
        # are the first one (labels are folded).
        labels=(
            r"don't save",
            r"do not save",
            r"discard",
            r"(close|quit|exit|continue) without saving",
            r"throw away",
            r"lose (the |all |unsaved )?changes",
        ),
    ),
    SensitiveRule(
        "overwrite_files",
        "confirms replacing an existing file, whose content is lost",
        # Whole labels: "Replace" in a file dialog's or file manager's confirmation, not
        # "Find and Replace..." in a menu. Replacing text is harmless: not in find dialogs.
        labels=(
            r"^(yes,? )?(replace|overwrite)"
            r"( (all|file|files|existing( files?)?|anyway|it|them))?$",
        ),
        except_surfaces=frozenset({"find_replace"}),
    ),
    SensitiveRule(
        "overwrite_files",
        "may confirm replacing an existing file (file dialogs ask it as a question)",
        labels=(r"^yes( to all)?$",),
        surfaces=frozenset({"file_dialog"}),
    ),
    SensitiveRule(
        "close_window",
        "closes the application, possibly losing unsaved work",
        # "Exit Full Screen" leaves a mode; "Quit Mousepad", "Exit LibreOffice" quit.
        labels=(r"^(exit|quit)(?! full\s*screen)( \w+)?$",),
        label_roles=MENU_ITEM_ROLES,
        # alt+space opens the window manager's menu, whose Close item no mark shows.
        chords=("ctrl+q", "alt+f4", "alt+space"),
        controls=(WINDOW_CLOSE, WINDOW_MENU),
    ),
)


def builtin_rules(editors: frozenset[str]) -> tuple[SensitiveRule, ...]:
    """The built-in rules, checked in order; the first that matches names the category.

    ``editors`` are the environment's applications that edit documents: in them ``ctrl+w`` and a
    "Close" menu item close a document, elsewhere (a browser tab) it is harmless. Empty means the
    environment could not say, and those rules then hold in every application.
    """
    return (
        *_EVERYWHERE,
        SensitiveRule(
            "close_window",
            "closes the document, possibly losing unsaved work",
            labels=(r"^close( (tab|window|document|all( windows| documents)?))?$",),
            label_roles=MENU_ITEM_ROLES,
            chords=("ctrl+w", "ctrl+f4"),  # and ctrl+shift+w, which closes them all
            apps=editors,
        ),
    )


# --- matching ------------------------------------------------------------------------------------

_MNEMONIC_MARKERS = re.compile(r"[_&]")


def normalize_label(label: str) -> str:
    """The label as people are shown it: mnemonic markers removed, single spaces. Rules compare
    its folded form (:func:`~pcagent.runtime.safety.label_folding.fold_label`)."""
    return single_spaced(_MNEMONIC_MARKERS.sub("", label))


@cache
def _phrase_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` as a whole phrase of a folded label: not preceded or followed by a letter,
    digit or underscore.

    Lookarounds rather than ``\\b`` so that a pattern starting or ending with punctuation
    ("save...") still behaves. A pattern anchored with ``^...$`` must match the whole label.
    """
    return re.compile(rf"(?<!\w)(?:{fold_pattern(pattern)})(?!\w)", re.IGNORECASE)


def parse_chord(chord: str) -> frozenset[str]:
    """A key combination such as ``"ctrl+shift+x"`` (or ``"ctrl++"``) as a set of keysyms.

    Keysyms are lower-cased, so the comparison ignores case. Raises
    :class:`InvalidActionError` for an empty part or an unknown key name.
    """
    text = chord.strip()
    names: list[str] = []
    if text == "+" or text.endswith("++"):  # the plus key itself
        names.append("+")
        text = text[:-2] if len(text) > 1 else ""
    if text:
        names.extend(part.strip() for part in text.split("+"))
    if not names or not all(names):
        raise InvalidActionError(
            f"key chord {chord!r} has an empty part; write e.g. 'ctrl+shift+x'"
        )
    return frozenset(normalize_key(name).lower() for name in names)


def chord_pressed(chord: frozenset[str], pressed: frozenset[str]) -> bool:
    """Whether ``pressed`` is ``chord`` with, at most, more modifiers held."""
    return chord <= pressed and pressed - chord <= MODIFIERS


@dataclass(frozen=True)
class CompiledRule:
    """A rule with its patterns compiled and its chords parsed, ready to match."""

    rule: SensitiveRule
    labels: tuple[re.Pattern[str], ...]
    drop_labels: tuple[re.Pattern[str], ...]
    chords: tuple[frozenset[str], ...]

    def matches_command(self, label: str, role: str) -> bool:
        """Whether activating a command with this label and role is sensitive (the label is
        compared folded: "Sеnd" with a Cyrillic letter is "Send")."""
        if self.rule.label_roles and role not in self.rule.label_roles:
            return False
        folded = fold_label(label)
        return bool(folded) and any(pattern.search(folded) for pattern in self.labels)

    def matches_drop(self, label: str) -> bool:
        folded = fold_label(label)
        return bool(folded) and any(pattern.search(folded) for pattern in self.drop_labels)

    def matches_keys(self, pressed: frozenset[str], typing: bool) -> bool:
        """Whether the pressed keys are one of the chords; ``typing``: a text field has the
        focus (the chords of a ``keys_edit_text`` rule then only edit text)."""
        if typing and self.rule.keys_edit_text:
            return False
        return any(chord_pressed(chord, pressed) for chord in self.chords)


def compile_rule(rule: SensitiveRule) -> CompiledRule:
    return CompiledRule(
        rule=rule,
        labels=tuple(_phrase_pattern(pattern) for pattern in rule.labels),
        drop_labels=tuple(_phrase_pattern(pattern) for pattern in rule.drop_labels),
        chords=tuple(parse_chord(chord) for chord in rule.chords),
    )


def custom_rule(config: SafetyConfig) -> CompiledRule | None:
    """The ``custom`` rule from ``[safety]``, with errors that name the offending entry."""
    if not config.extra_labels and not config.extra_hotkeys:
        return None
    for pattern in config.extra_labels:
        try:
            _phrase_pattern(pattern)
        except re.error as error:
            raise ConfigurationError(
                f"safety.extra_labels: {pattern!r} is not a valid regular expression ({error})"
            ) from error
    for chord in config.extra_hotkeys:
        try:
            parse_chord(chord)
        except InvalidActionError as error:
            raise ConfigurationError(f"safety.extra_hotkeys: {chord!r}: {error}") from error
    return compile_rule(
        SensitiveRule(
            CUSTOM_CATEGORY,
            "listed as sensitive in the [safety] configuration",
            labels=tuple(config.extra_labels),
            chords=tuple(config.extra_hotkeys),
        )
    )
