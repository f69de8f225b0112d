"""What the safety guard counts as sensitive: the rules as data, and how an action is matched
against them (labels as whole phrases, chords as sets of keysyms). The guard that applies them is
:class:`pcagent.runtime.safety.SafetyGuard`; its module docstring states the matching rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pcagent.actions import (
    Action,
    Click,
    DoubleClick,
    Hotkey,
    Press,
    RightClick,
    TypeText,
    normalize_key,
)
from pcagent.config import SafetyConfig
from pcagent.errors import ConfigurationError, InvalidActionError
from pcagent.perception.marks import Mark

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
        "terminal",
        "table cell",
        "tree item",
        "list item",
        "icon",
    }
)


@dataclass(frozen=True)
class SensitiveRule:
    """One kind of sensitive action, as data.

    ``labels`` are regular expressions matched as whole phrases against the label of the clicked
    mark; ``chords`` are key combinations such as ``"shift+delete"``, matched against hotkeys;
    ``keys`` are single keys matched against presses (and one-key hotkeys). ``apps`` limits the
    rule to those logical apps; empty means any app.
    """

    category: str
    description: str
    labels: tuple[str, ...] = ()
    chords: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    apps: frozenset[str] = frozenset()

    def applies_to(self, app: str) -> bool:
        return not self.apps or not app or app in self.apps


def builtin_rules(editors: frozenset[str]) -> tuple[SensitiveRule, ...]:
    """The built-in rules, checked in order; the first that matches names the category.

    ``editors`` are the environment's applications that edit documents: in them ``ctrl+w``
    closes a document, elsewhere (a browser tab) it is harmless. Empty means the environment
    could not say, and the rule then holds in every application.
    """
    return (
        SensitiveRule(
            "send_mail",
            "sends the message being written",
            # "Send / Receive" only fetches mail.
            labels=(r"send(?!\s*/)", r"send now", r"send later"),
            chords=("ctrl+enter",),  # enter and return are the same keysym
            apps=frozenset({"mail"}),
        ),
        SensitiveRule(
            "delete_files",
            "deletes files or moves them to the trash",
            labels=(
                r"delete",
                r"move to (the )?trash",
                r"empty (the )?trash",
                r"delete permanently",
            ),
            chords=("shift+delete",),
            keys=("delete",),
            apps=frozenset({"file_manager"}),
        ),
        SensitiveRule(
            "delete_files",
            "deletes files for good",
            labels=(r"delete permanently", r"empty (the )?trash"),
        ),
        SensitiveRule(
            "discard_changes",
            "throws away unsaved changes",
            labels=(
                r"don't save",
                r"do not save",
                r"discard( changes)?",
                r"close without saving",
            ),
        ),
        SensitiveRule(
            "close_window",
            "closes the application, possibly losing unsaved work",
            chords=("ctrl+q", "alt+f4"),
        ),
        SensitiveRule(
            "close_window",
            "closes the document, possibly losing unsaved work",
            chords=("ctrl+w",),
            apps=editors,
        ),
    )


# --- matching ------------------------------------------------------------------------------------

_MNEMONIC_MARKERS = re.compile(r"[_&]")
_CURLY_APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc]")


def normalize_label(label: str) -> str:
    """The label as rules see it: mnemonic markers removed, straight apostrophes, single spaces."""
    text = _MNEMONIC_MARKERS.sub("", label)
    text = _CURLY_APOSTROPHES.sub("'", text)
    return " ".join(text.split())


@cache
def _phrase_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` as a whole phrase: not preceded or followed by a letter, digit or underscore.

    Lookarounds rather than ``\\b`` so that a pattern starting or ending with punctuation
    ("don't save...") still behaves.
    """
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


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


def pressed_keys(action: Action) -> tuple[frozenset[str], str] | None:
    """The keys a keyboard action presses together (as keysyms) and as the agent wrote them."""
    if isinstance(action, Hotkey):
        return frozenset(keysym.lower() for keysym in action.keysyms()), "+".join(action.keys)
    if isinstance(action, Press):
        return frozenset({action.keysym().lower()}), action.key
    return None


_POINTER_VERBS: dict[type, str] = {
    Click: "clicks",
    DoubleClick: "double-clicks",
    RightClick: "right-clicks",
    TypeText: "clicks",  # before typing
}


def pointer_verb(action: Action) -> str | None:
    """How the action activates the mark under its point; None if it has no point."""
    if isinstance(action, TypeText) and action.x is None:
        return None
    return _POINTER_VERBS.get(type(action))


def command_label(target: Mark | None) -> str:
    """The target's label if it names a command; "" for content marks and unlabelled ones."""
    if target is None:
        return ""
    if target.source == "accessibility" and target.role in CONTENT_ROLES:
        return ""
    return normalize_label(target.label)


@dataclass(frozen=True)
class CompiledRule:
    rule: SensitiveRule
    labels: tuple[re.Pattern[str], ...]
    chords: frozenset[frozenset[str]]


def compile_rule(rule: SensitiveRule) -> CompiledRule:
    return CompiledRule(
        rule=rule,
        labels=tuple(_phrase_pattern(pattern) for pattern in rule.labels),
        chords=frozenset(parse_chord(chord) for chord in (*rule.chords, *rule.keys)),
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
