"""The action space: the union of every action an agent may emit, and what is derived from it.

:data:`Action` lists the actions in the order a model sees them (``open_app``, then the
application actions of :mod:`pcagent.app_actions`, which a role should reach for first, then the
pointer, keyboard and run-control actions); :data:`ACTION_TYPES` maps each kind to its class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Annotated, get_args

from pydantic import Field

from pcagent import app_actions as app
from pcagent.action_base import ActionBase
from pcagent.actions.control import Answer, AskHuman, Done, Fail, OpenApp, UseSkill, Wait
from pcagent.actions.keyboard import Hotkey, Press, TypeText
from pcagent.actions.pointer import (
    Click,
    ClickElement,
    DoubleClick,
    Drag,
    RightClick,
    Scroll,
    SelectText,
)
from pcagent.errors import InvalidActionError

Action = Annotated[
    OpenApp
    | app.WriterOpen
    | app.WriterRead
    | app.WriterInsert
    | app.WriterFormat
    | app.WriterSave
    | app.SheetOpen
    | app.SheetRead
    | app.SheetSet
    | app.SheetSort
    | app.SheetSave
    | app.EditorNew
    | app.EditorOpen
    | app.EditorSaveAs
    | app.FilesList
    | app.FilesMakeFolder
    | app.FilesCopy
    | app.FilesMove
    | app.FilesRename
    | app.FilesOpen
    | app.MailCompose
    | app.MailSend
    | app.MailRead
    | app.MailSaveAttachment
    | app.BrowserOpen
    | app.BrowserRead
    | app.BrowserClick
    | app.BrowserFill
    | app.CalculatorEvaluate
    | app.ClockAddAlarm
    | app.ClockAddWorldClock
    | ClickElement
    | Click
    | DoubleClick
    | RightClick
    | TypeText
    | SelectText
    | Drag
    | Scroll
    | Hotkey
    | Press
    | Wait
    | UseSkill
    | Answer
    | AskHuman
    | Done
    | Fail,
    Field(discriminator="kind"),
]
"""Any action, GUI or application (:mod:`pcagent.app_actions`); validate with
:func:`parse_action`."""


def kind_of(action_class: type[ActionBase]) -> str:
    """The ``kind`` an action class declares (the value of its one-choice literal)."""
    (kind,) = get_args(action_class.model_fields["kind"].annotation)
    return kind


ACTION_TYPES: Mapping[str, type[ActionBase]] = MappingProxyType(
    {kind_of(action_class): action_class for action_class in get_args(get_args(Action)[0])}
)
if not set(app.APP_ACTION_CLASSES) <= set(
    ACTION_TYPES.values()
):  # pragma: no cover - a listing slip
    raise RuntimeError("an application action is missing from the Action union")
"""Kind -> action class, in the order of :data:`Action` (the order used in prompts and schemas:
``open_app``, then the application actions, which a role should reach for first, then the GUI)."""

APP_ACTION_KINDS: frozenset[str] = frozenset(
    kind for kind, action_class in ACTION_TYPES.items() if action_class.belongs_to is not None
)
"""The kinds of the application actions (:mod:`pcagent.app_actions`)."""


def app_kinds_for(apps: Iterable[str]) -> frozenset[str]:
    """The application actions that belong to one of ``apps`` (logical application names)."""
    wanted = set(apps)
    return frozenset(kind for kind in APP_ACTION_KINDS if ACTION_TYPES[kind].belongs_to in wanted)


def select_kinds(kinds: Iterable[str] | None) -> tuple[str, ...]:
    """Validate a subset of kinds (e.g. a role's action domain), in canonical order."""
    if kinds is None:
        return tuple(ACTION_TYPES)
    wanted = set(kinds)
    unknown = sorted(wanted - ACTION_TYPES.keys())
    if unknown:
        raise InvalidActionError(
            f"unknown action kinds {unknown}; valid kinds: {', '.join(ACTION_TYPES)}"
        )
    if not wanted:
        raise InvalidActionError("no action kinds given; name at least one")
    return tuple(kind for kind in ACTION_TYPES if kind in wanted)


def action_points(action: Action) -> list[tuple[int, int]]:
    """Every screen point (x, y) the action touches, in order; empty for keyboard/meta actions."""
    return action.points()


def check_on_screen(action: Action, width: int, height: int) -> None:
    """Raise :class:`InvalidActionError` unless every point lies in [0, width) x [0, height)."""
    if width <= 0 or height <= 0:
        raise ValueError(f"screen size must be positive, got {width}x{height}")
    for x, y in action_points(action):
        if not (0 <= x < width and 0 <= y < height):
            raise InvalidActionError(
                f"point ({x}, {y}) of the {action.kind} action is outside the {width}x{height} "
                f"screen; x must be 0..{width - 1} and y 0..{height - 1}"
            )


def is_terminal(action: Action) -> bool:
    """True for done and fail, which end the run; answer reports a value and the run goes on."""
    return action.terminal
