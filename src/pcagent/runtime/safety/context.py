"""What the safety guard knows about where an action lands, and how the run loop builds it.

The guard judges an action against the screen as the agent saw it when it decided: every mark (for
drags, open menus, mnemonics and the keyboard focus), the windows (for title bars, which the window
manager draws and no mark shows) and the kinds of window the focused one is (a file dialog, a
compose window). :func:`context_for` builds it from one perception; tests build it by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict

from pcagent.actions import Action
from pcagent.env.observation import WindowInfo
from pcagent.perception.marks import Mark
from pcagent.perception.module import Perception
from pcagent.runtime.safety.rules import COMMAND_ROLES, SURFACES


class ActionContext(BaseModel):
    """What the guard knows about where an action lands; the run loop builds it per action."""

    model_config = ConfigDict(frozen=True)

    #: Logical app of the focused window, as the environment names its applications
    #: (``mail``, ``file_manager``...); "" when unknown.
    #: An unknown app counts as *any* app: a rule for one app cannot be dodged by a window the
    #: run loop could not name.
    app: str = ""
    window_title: str = ""
    #: The mark the action's first point lands on: the smallest command mark there, else the
    #: smallest mark. It always counts as under the first point, even when ``marks`` is empty.
    target: Mark | None = None
    #: The decision role that chose the action, for the question put to the human.
    role: str = ""
    #: Every mark on the screen, with its states (``focused``, ``selected``): what a drag may cross,
    #: what a key press may activate.
    marks: tuple[Mark, ...] = ()
    #: Top-level windows, bottom to top; boxes are client areas, the title bar sits above them.
    windows: tuple[WindowInfo, ...] = ()
    #: The focused window, whose keys and mnemonics a key press reaches.
    window: WindowInfo | None = None
    #: Kinds of window the focused one is besides its application (``file_dialog``,
    #: ``mail_compose``, ``find_replace``; see :data:`pcagent.runtime.safety.rules.SURFACES`).
    surfaces: frozenset[str] = frozenset()


def surfaces_of(app: str, title: str) -> frozenset[str]:
    """The kinds of window (:data:`~pcagent.runtime.safety.rules.SURFACES`) a window is."""
    return frozenset(surface.name for surface in SURFACES if surface.matches(app, title))


def mark_at(marks: Iterable[Mark], point: tuple[int, int]) -> Mark | None:
    """The mark a press at ``point`` lands on: the smallest command mark holding it (a click on an
    icon inside a button is a click on the button), else the smallest mark holding it."""
    holding = [mark for mark in marks if mark.box.contains(*point)]
    commands = [mark for mark in holding if mark.role in COMMAND_ROLES]
    chosen = commands or holding
    return min(chosen, key=lambda mark: mark.box.width * mark.box.height) if chosen else None


def context_for(
    action: Action,
    perception: Perception,
    app_of: Callable[[WindowInfo | None], str],
    role: str = "",
) -> ActionContext:
    """The context of ``action`` decided on ``perception`` (the look before the action).

    ``app_of`` names the application of a window ("" when unknown), as the environment does.
    """
    observation = perception.observation
    focused = observation.focused_window
    app = app_of(focused)
    title = focused.title if focused else ""
    points = action.points()
    return ActionContext(
        app=app,
        window_title=title,
        target=mark_at(perception.marks, points[0]) if points else None,
        role=role,
        marks=tuple(perception.marks),
        windows=tuple(observation.windows),
        window=focused,
        surfaces=surfaces_of(app, title) if focused else frozenset(),
    )
