"""The safety guard: between an agent's decision and its execution, stop what cannot be undone.

Deciding and executing are kept apart: the run loop hands every action, with the screen it was
decided on (:class:`ActionContext`, built by :func:`context_for`), to :meth:`SafetyGuard.enforce`
before the executor sees it. The guard

1. classifies the action against a small table of :class:`SensitiveRule` (sending mail, deleting
   files, replacing existing files, discarding unsaved changes, closing windows, plus
   ``[safety]`` extras); which
   applications edit documents (where closing a window may lose work) comes from the
   environment's application list, given at construction (:func:`builtin_rules`);
2. lets it through when it is not sensitive, or when its category is in ``[safety] allow``;
3. otherwise refuses it in ``auto`` mode, and asks the human in ``passive`` and ``proactive``.

What is matched (:mod:`pcagent.runtime.safety.reach` computes it, the rules are data in
:mod:`pcagent.runtime.safety.rules`):

- **Labels** of the commands an action may activate, as whole phrases, in the folded form of
  :mod:`pcagent.runtime.safety.label_folding` (case, mnemonic markers, apostrophes, zero-width
  characters, look-alike letters of other scripts and compatibility forms do not count):
  "Send" matches "Send", "Sеnd" with a Cyrillic "е" and "Send Now", but not "Sender" or "Resend". A press lands on the smallest *command* mark (button, menu item,
  toggle...) under its point, so a click on the icon inside "Send" is a click on "Send"; with no
  labelled command there, every mark under the point counts. Marks that show content rather than
  commands (text fields, documents, table cells, list and tree items: a file called "delete
  me.txt", a mail whose subject says "send") are never matched as commands. Some labels only
  count on menu items ("Close", "Exit", "Quit": a "Close" button in a dialog is harmless).
- **Drags** at both ends (a short drag on a button presses it), at every command their straight
  path crosses, and at what they drop onto, content included (a file dropped on "Trash").
- **Chords** as sets of X keysyms, case-insensitively (``["ctrl", "enter"]``, ``"ctrl+return"``
  are the same), pressed with at least the chord's modifiers: ``ctrl+w`` also covers
  ``ctrl+shift+w`` (close all), ``delete`` covers ``shift+delete`` and ``ctrl+shift+delete``.
  Keys that also edit text (Delete) do not count while a text field has the focus.
- **The keyboard focus**: Enter and Space activate the focused marks (state ``focused``) and the
  highlighted menu entries (both ``selected`` and ``focused``, as GTK reports it); with a menu
  open and no entry highlighted, any of its items. An explicit Enter while no mark has the focus
  may press the window's default button: every command of the focused window counts.
- **Menus and mnemonics**: menus open with ``menu``, ``shift+f10``, ``f10`` or ``alt+<letter>``
  show their items as marks at the next step; a letter or digit then counts as picking any open
  menu item whose label holds it (its mnemonic is one of its letters). With Alt, or while a button
  has the focus (dialogs take bare mnemonics), a letter reaches every command of the focused
  window that holds it. Typed text (no point) presses the same keys (a newline is Enter, a space
  is Space), but is never taken for a press of an unseen default button: a mail body typed while
  the focus cannot be seen would otherwise be refused.
- **Window-manager controls**, which no mark shows: a press on the close button at the right end
  of a title bar, on the window-menu icon at its left end, a right-click anywhere on it, and
  ``alt+space`` (the window menu) count as closing the window.
- **Kinds of window**: a file dialog of any application is treated like the file manager (Delete
  there deletes files); in a mail compose window a press in the toolbar row on a spot with no
  named mark (none, or only unnamed buttons) may be a Send button the screen reading missed, and
  counts as sending. "Replace" and "Overwrite" confirm writing over a file in any window but a
  find-and-replace dialog, where they replace text; in a file dialog "Yes" may confirm it too.

Application actions (:mod:`pcagent.app_actions`) that are sensitive by themselves say so
(``Action.sensitivity``: ``mail_send`` is ``send_mail``) and are decided like a matched rule.

An unknown application counts as any application. This guard is the first line of defence, not
the only one: effects are checked behind it (see :mod:`pcagent.runtime.safety.effects`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from pydantic import BaseModel, ConfigDict

from pcagent.actions import Action
from pcagent.config import InteractionMode, PcAgentConfig, SafetyConfig
from pcagent.errors import ActionRefusedError, ConfigurationError
from pcagent.runtime.loop.human import Human, NoHuman
from pcagent.runtime.safety.context import ActionContext, context_for
from pcagent.runtime.safety.reach import (
    Activation,
    activations,
    pressed_keys,
    typing_into_text,
)
from pcagent.runtime.safety.rules import (
    CONTENT_ROLES,
    CUSTOM_CATEGORY,
    CompiledRule,
    SensitiveRule,
    builtin_rules,
    compile_rule,
    custom_rule,
    normalize_label,
    parse_chord,
)

__all__ = [
    "CONTENT_ROLES",
    "CUSTOM_CATEGORY",
    "ActionContext",
    "GuardVerdict",
    "SafetyGuard",
    "SensitiveRule",
    "Sensitivity",
    "builtin_rules",
    "context_for",
    "normalize_label",
    "parse_chord",
]


class Sensitivity(BaseModel):
    """Why an action is sensitive."""

    model_config = ConfigDict(frozen=True)

    #: ``send_mail``, ``delete_files``, ``overwrite_files``, ``discard_changes``,
    #: ``close_window`` or ``custom``;
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
    _compiled: tuple[CompiledRule, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        modes = get_args(InteractionMode)
        if self.mode not in modes:
            raise ConfigurationError(
                f"unknown interaction mode {self.mode!r}; [run] mode must be one of {modes}"
            )
        compiled = [compile_rule(rule) for rule in builtin_rules(frozenset(self.editors))]
        custom = custom_rule(self.config)
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
        """The first rule the action matches, as a :class:`Sensitivity`; None if none does.
        An action sensitive by itself (an application action that sends mail) needs no rule."""
        own = action.sensitivity()
        if own is not None:
            return Sensitivity(category=own[0], reason=own[1])
        pressed = pressed_keys(action)
        reached = activations(action, context)
        typing = typing_into_text(context)
        where = f"in {context.app}" if context.app else "in an unidentified window"
        if context.surfaces:
            where += f" ({', '.join(sorted(context.surfaces))})"
        for compiled in self._compiled:
            rule = compiled.rule
            if not rule.applies_to(context.app, context.surfaces):
                continue
            if pressed is not None and compiled.matches_keys(pressed[0], typing):
                trigger = f"presses {pressed[1]}"
            else:
                trigger = next((a.how for a in reached if _matches(compiled, a)), "")
            if trigger:
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


def _matches(compiled: CompiledRule, activation: Activation) -> bool:
    if activation.kind == "command":
        return compiled.matches_command(activation.label, activation.role)
    if activation.kind == "drop":
        return compiled.matches_drop(activation.label)
    return activation.control in compiled.rule.controls


def _action_detail(action: Action) -> str:
    pressed = pressed_keys(action)
    if pressed is not None:
        return f" {pressed[1]}"
    points = action.points()
    return f" at {points[0]}" if points else ""
