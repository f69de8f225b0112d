"""Turns typed actions into X11 input, and nothing else.

Kept apart from any decision making (COLA's separate executor): it receives only validated actions
and a small set of callbacks from the environment that owns it. Each action class has one handler,
declared on it with :func:`~pcagent.action_handlers.handles` and found by the action's type;
``select_text`` and ``ask_human`` have none, because they run elsewhere (see ``Action.runs_on``).

``answer``, ``done`` and ``fail`` end a step rather than act: their result is defined once, in
:data:`STEP_ENDINGS`, which the run's dispatcher uses too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pcagent import actions as act
from pcagent.action_handlers import Dispatches, HandlerTable, handles
from pcagent.env.observation import ActionResult
from pcagent.env.x11_input import XdotoolInput
from pcagent.errors import UnsupportedActionError


@handles(act.Answer)
def _answered(_owner: object, action: act.Answer) -> ActionResult:
    return ActionResult(ok=True, message="answered", answer=action.text)


@handles(act.Done)
def _done(_owner: object, action: act.Done) -> ActionResult:
    return ActionResult(ok=True, message=action.summary or "done", finished=True)


@handles(act.Fail)
def _failed(_owner: object, action: act.Fail) -> ActionResult:
    return ActionResult(ok=False, message=action.reason, finished=True)


STEP_ENDINGS = HandlerTable.of(_answered, _done, _failed)
"""What ``answer``, ``done`` and ``fail`` come to, wherever they are carried out."""


def end_step(action: act.Action) -> ActionResult:
    """The result of an ``answer``, ``done`` or ``fail``; TypeError for any other action."""
    handler = STEP_ENDINGS.find(action)
    if handler is None:
        raise TypeError(f"{action.kind} does not end a step")
    result: ActionResult = handler(None, action)
    return result


@dataclass
class ActionExecutor(Dispatches):
    """Executes one action; ``open_app`` is the environment's launcher (it knows the registry).

    It answers ``answer``, ``done`` and ``fail`` too (:data:`STEP_ENDINGS`), for scripts that
    drive a sandbox directly with whole action lists."""

    input: XdotoolInput
    open_app: Callable[[str], str]
    #: Seconds between typed keys for the application in front (see ``AppSpec.key_pause``).
    key_pause: Callable[[], float] = lambda: 0.0

    def execute(self, action: act.Action) -> ActionResult:
        handler = self.handlers.find(action) or STEP_ENDINGS.find(action)
        if handler is None:
            raise UnsupportedActionError(
                f"'{action.kind}' actions are carried out by the {action.runs_on} layer, "
                "not the desktop"
            )
        result: ActionResult = handler(self, action)
        return result

    @handles(act.OpenApp)
    def open_application(self, action: act.OpenApp) -> ActionResult:
        title = self.open_app(action.app)
        return ActionResult(ok=True, message=f"opened {action.app}: {title}")

    @handles(act.Click)
    def click(self, action: act.Click) -> ActionResult:
        self.input.click(action.x, action.y)
        return ActionResult(ok=True, message=f"clicked ({action.x}, {action.y})")

    @handles(act.DoubleClick)
    def double_click(self, action: act.DoubleClick) -> ActionResult:
        self.input.click(action.x, action.y, repeat=2)
        return ActionResult(ok=True, message=f"double-clicked ({action.x}, {action.y})")

    @handles(act.RightClick)
    def right_click(self, action: act.RightClick) -> ActionResult:
        self.input.click(action.x, action.y, button="right")
        return ActionResult(ok=True, message=f"right-clicked ({action.x}, {action.y})")

    @handles(act.TypeText)
    def type_text(self, action: act.TypeText) -> ActionResult:
        if action.x is not None and action.y is not None:
            self.input.click(action.x, action.y)
        self.input.type_text(action.text, key_pause=self.key_pause())
        return ActionResult(ok=True, message=f"typed {len(action.text)} characters")

    @handles(act.Drag)
    def drag(self, action: act.Drag) -> ActionResult:
        self.input.drag((action.start_x, action.start_y), (action.end_x, action.end_y))
        return ActionResult(
            ok=True,
            message=f"dragged ({action.start_x}, {action.start_y}) → ({action.end_x}, {action.end_y})",
        )

    @handles(act.Scroll)
    def scroll(self, action: act.Scroll) -> ActionResult:
        self.input.scroll(action.x, action.y, action.direction, action.amount)
        return ActionResult(ok=True, message=f"scrolled {action.direction} x{action.amount}")

    @handles(act.Hotkey)
    def hotkey(self, action: act.Hotkey) -> ActionResult:
        self.input.key_combination(action.keysyms())
        return ActionResult(ok=True, message=f"pressed {'+'.join(action.keys)}")

    @handles(act.Press)
    def press(self, action: act.Press) -> ActionResult:
        self.input.key_combination([action.keysym()], repeat=action.times)
        return ActionResult(ok=True, message=f"pressed {action.key} x{action.times}")

    @handles(act.Wait)
    def wait(self, action: act.Wait) -> ActionResult:
        time.sleep(action.seconds)
        return ActionResult(ok=True, message=f"waited {action.seconds}s")
