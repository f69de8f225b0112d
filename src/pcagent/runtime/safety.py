"""The safety guard: between an agent's decision and its execution, stop what cannot be undone.

Deciding and executing are kept apart: the run loop hands every action, with what it knows about
where it lands (:class:`ActionContext`), to :meth:`SafetyGuard.enforce` before the executor sees
it. The guard

1. classifies the action against a small table of :class:`SensitiveRule` (sending mail, deleting
   files, discarding unsaved changes, closing windows, plus ``[safety]`` extras); which
   applications edit documents (where closing a window may lose work) comes from the
   environment's application list, given at construction (:func:`builtin_rules`);
2. lets it through when it is not sensitive, or when its category is in ``[safety] allow``;
3. otherwise refuses it in ``auto`` mode, and asks the human in ``passive`` and ``proactive``.

Labels are those of the mark under the action's point. A label matches a rule's pattern as a whole
phrase, case-insensitively, after mnemonic markers (``_Don't Save``, ``&Delete``) are removed:
"Send" matches "Send" and "Send Now" but not "Sender" or "Resend". Marks that show content rather
than commands (text fields, documents, table cells, list and tree items: a file called "delete
me.txt", a mail whose subject says "send") are not matched, so that clicking on them is never
mistaken for a command. Keys compare as sets of X keysyms, case-insensitively, so
``["ctrl", "enter"]``, ``["Control", "Return"]`` and ``"ctrl+return"`` are the same chord.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import get_args

from pydantic import BaseModel, ConfigDict

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
from pcagent.config import InteractionMode, PcAgentConfig, SafetyConfig
from pcagent.errors import ActionRefusedError, ConfigurationError, InvalidActionError
from pcagent.perception.marks import Mark
from pcagent.runtime.human import Human, NoHuman

__all__ = [
    "CONTENT_ROLES",
    "CUSTOM_CATEGORY",
    "ActionContext",
    "GuardVerdict",
    "SafetyGuard",
    "SensitiveRule",
    "Sensitivity",
    "builtin_rules",
    "normalize_label",
    "parse_chord",
]

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


class ActionContext(BaseModel):
    """What the guard knows about where an action lands; the run loop builds it per action."""

    model_config = ConfigDict(frozen=True)

    #: Logical app of the focused window, as the environment names its applications
    #: (``mail``, ``file_manager``...); "" when unknown.
    #: An unknown app counts as *any* app: a rule for one app cannot be dodged by a window the
    #: run loop could not name.
    app: str = ""
    window_title: str = ""
    #: The mark under the action's point (click, double_click, right_click, type with x and y).
    target: Mark | None = None
    #: The decision role that chose the action, for the question put to the human.
    role: str = ""


class Sensitivity(BaseModel):
    """Why an action is sensitive."""

    model_config = ConfigDict(frozen=True)

    #: ``send_mail``, ``delete_files``, ``discard_changes``, ``close_window`` or ``custom``;
    #: the name to put in ``[safety] allow``.
    category: str
    #: For people: 'clicks "Send" in mail: sends the message being written'.
    reason: str


class GuardVerdict(BaseModel):
    """The guard's decision on one action."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    #: None when the action is not sensitive.
    sensitivity: Sensitivity | None = None
    #: Whether the human was asked (the answer is ``allowed``).
    asked_human: bool = False
    #: Why it was refused (or let through), for the run record and the acting role.
    reason: str = ""


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


def _pressed_keys(action: Action) -> tuple[frozenset[str], str] | None:
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


def _pointer_verb(action: Action) -> str | None:
    """How the action activates the mark under its point; None if it has no point."""
    if isinstance(action, TypeText) and action.x is None:
        return None
    return _POINTER_VERBS.get(type(action))


def _command_label(target: Mark | None) -> str:
    """The target's label if it names a command; "" for content marks and unlabelled ones."""
    if target is None:
        return ""
    if target.source == "accessibility" and target.role in CONTENT_ROLES:
        return ""
    return normalize_label(target.label)


@dataclass(frozen=True)
class _CompiledRule:
    rule: SensitiveRule
    labels: tuple[re.Pattern[str], ...]
    chords: frozenset[frozenset[str]]


def _compile(rule: SensitiveRule) -> _CompiledRule:
    return _CompiledRule(
        rule=rule,
        labels=tuple(_phrase_pattern(pattern) for pattern in rule.labels),
        chords=frozenset(parse_chord(chord) for chord in (*rule.chords, *rule.keys)),
    )


def _custom_rule(config: SafetyConfig) -> _CompiledRule | None:
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
    return _compile(
        SensitiveRule(
            CUSTOM_CATEGORY,
            "listed as sensitive in the [safety] configuration",
            labels=tuple(config.extra_labels),
            chords=tuple(config.extra_hotkeys),
        )
    )


# --- the guard -----------------------------------------------------------------------------------


@dataclass
class SafetyGuard:
    """Decides whether an action may run; see the module docstring for the rules.

    ``human`` is only consulted in ``passive`` and ``proactive`` mode, through ``confirm``.
    ``editors`` are the logical names of the environment's applications that edit documents
    (:attr:`pcagent.env.protocol.AppInfo.edits_documents`); see :func:`builtin_rules`.
    Raises :class:`ConfigurationError` at construction for an unknown mode or a bad
    ``extra_labels`` pattern or ``extra_hotkeys`` chord.
    """

    config: SafetyConfig
    mode: InteractionMode
    human: Human = field(default_factory=NoHuman)
    editors: frozenset[str] = field(kw_only=True)
    rules: tuple[SensitiveRule, ...] = field(init=False)
    _compiled: tuple[_CompiledRule, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        modes = get_args(InteractionMode)
        if self.mode not in modes:
            raise ConfigurationError(
                f"unknown interaction mode {self.mode!r}; [run] mode must be one of {modes}"
            )
        compiled = [_compile(rule) for rule in builtin_rules(frozenset(self.editors))]
        custom = _custom_rule(self.config)
        if custom is not None:
            compiled.append(custom)
        self._compiled = tuple(compiled)
        self.rules = tuple(item.rule for item in compiled)

    @classmethod
    def from_config(
        cls, config: PcAgentConfig, human: Human, *, editors: frozenset[str]
    ) -> SafetyGuard:
        """The guard for a run: ``[safety]`` rules and ``[run] mode``, for an environment whose
        document editors are ``editors``."""
        return cls(config=config.safety, mode=config.run.mode, human=human, editors=editors)

    def classify(self, action: Action, context: ActionContext) -> Sensitivity | None:
        """The first rule the action matches, as a :class:`Sensitivity`; None if none does."""
        pressed = _pressed_keys(action)
        verb = _pointer_verb(action)
        label = _command_label(context.target) if verb else ""
        where = f"in {context.app}" if context.app else "in an unidentified window"
        for compiled in self._compiled:
            rule = compiled.rule
            if not rule.applies_to(context.app):
                continue
            if pressed is not None and pressed[0] in compiled.chords:
                trigger = f"presses {pressed[1]}"
            elif label and any(pattern.search(label) for pattern in compiled.labels):
                trigger = f'{verb} "{label}"'
            else:
                continue
            return Sensitivity(
                category=rule.category, reason=f"{trigger} {where}: {rule.description}"
            )
        return None

    def check(self, action: Action, context: ActionContext) -> GuardVerdict:
        """Whether the action may run; may ask the human (passive and proactive mode)."""
        sensitivity = self.classify(action, context)
        if sensitivity is None:
            return GuardVerdict(allowed=True)
        category = sensitivity.category
        if category in self.config.allow:
            return GuardVerdict(
                allowed=True,
                sensitivity=sensitivity,
                reason=f'"{category}" is in [safety] allow',
            )
        if self.mode == "auto":
            return GuardVerdict(
                allowed=False,
                sensitivity=sensitivity,
                reason=(
                    f"refused a sensitive action ({category}) in auto mode: "
                    f"{sensitivity.reason}. To let such actions run without asking, add "
                    f'"{category}" to [safety] allow in the configuration file '
                    f'(allow = ["{category}"]), or set [run] mode = "passive" to be asked'
                ),
            )
        approved = self.human.confirm(self._question(action, context, sensitivity))
        if approved:
            return GuardVerdict(
                allowed=True,
                sensitivity=sensitivity,
                asked_human=True,
                reason="the human allowed it",
            )
        return GuardVerdict(
            allowed=False,
            sensitivity=sensitivity,
            asked_human=True,
            reason=f"the human refused a sensitive action ({category}): {sensitivity.reason}",
        )

    def enforce(self, action: Action, context: ActionContext) -> GuardVerdict:
        """:meth:`check`, raising :class:`ActionRefusedError` (with the reason) when refused."""
        verdict = self.check(action, context)
        if not verdict.allowed:
            raise ActionRefusedError(verdict.reason)
        return verdict

    @staticmethod
    def _question(action: Action, context: ActionContext, sensitivity: Sensitivity) -> str:
        who = f"The {context.role} agent" if context.role else "The agent"
        window = f' (window "{context.window_title}")' if context.window_title else ""
        target = ""
        if context.target is not None and context.target.label:
            target = f' on "{context.target.label}" ({context.target.role})'
        return (
            f"{who} wants to run {action.kind}{_action_detail(action)}{target} in "
            f"{context.app or 'an unidentified app'}{window}. It is sensitive "
            f"({sensitivity.category}): {sensitivity.reason}. Allow it?"
        )


def _action_detail(action: Action) -> str:
    pressed = _pressed_keys(action)
    if pressed is not None:
        return f" {pressed[1]}"
    points = action.points()
    return f" at {points[0]}" if points else ""
