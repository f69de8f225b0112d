"""Turns typed actions into X11 input, and nothing else.

Kept apart from any decision making (COLA's separate executor): it receives only validated actions
and a small set of callbacks from the environment that owns it. Each action class has one handler,
found by the action's type in :data:`ActionExecutor.handlers`; ``select_text`` and ``ask_human``
have none, because they run elsewhere (see ``Action.runs_on``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from pcagent import actions as act
from pcagent.env.observation import ActionResult
from pcagent.env.x11_input import XdotoolInput
from pcagent.errors import UnsupportedActionError


@dataclass
class ActionExecutor:
    """Executes one action; ``open_app`` is the environment's launcher (it knows the registry)."""

    input: XdotoolInput
    open_app: Callable[[str], str]
    #: Seconds between typed keys for the application in front (see ``AppSpec.key_pause``).
    key_pause: Callable[[], float] = lambda: 0.0

    handlers: ClassVar[dict[type[Any], Callable[[ActionExecutor, Any], ActionResult]]] = {}

    def execute(self, action: act.Action) -> ActionResult:
        handler = self.handlers.get(type(action))
        if handler is None:
            raise UnsupportedActionError(
                f"'{action.kind}' actions are carried out by the {action.runs_on} layer, "
                "not the desktop"
            )
        return handler(self, action)

    def open_application(self, action: act.OpenApp) -> ActionResult:
        title = self.open_app(action.app)
        return ActionResult(ok=True, message=f"opened {action.app}: {title}")

    def click(self, action: act.Click) -> ActionResult:
        self.input.click(action.x, action.y)
        return ActionResult(ok=True, message=f"clicked ({action.x}, {action.y})")

    def double_click(self, action: act.DoubleClick) -> ActionResult:
        self.input.click(action.x, action.y, repeat=2)
        return ActionResult(ok=True, message=f"double-clicked ({action.x}, {action.y})")

    def right_click(self, action: act.RightClick) -> ActionResult:
        self.input.click(action.x, action.y, button="right")
        return ActionResult(ok=True, message=f"right-clicked ({action.x}, {action.y})")

    def type_text(self, action: act.TypeText) -> ActionResult:
        if action.x is not None and action.y is not None:
            self.input.click(action.x, action.y)
        self.input.type_text(action.text, key_pause=self.key_pause())
        return ActionResult(ok=True, message=f"typed {len(action.text)} characters")

    def drag(self, action: act.Drag) -> ActionResult:
        self.input.drag((action.start_x, action.start_y), (action.end_x, action.end_y))
        return ActionResult(
            ok=True,
            message=f"dragged ({action.start_x}, {action.start_y}) → ({action.end_x}, {action.end_y})",
        )

    def scroll(self, action: act.Scroll) -> ActionResult:
        self.input.scroll(action.x, action.y, action.direction, action.amount)
        return ActionResult(ok=True, message=f"scrolled {action.direction} x{action.amount}")

    def hotkey(self, action: act.Hotkey) -> ActionResult:
        self.input.key_combination(action.keysyms())
        return ActionResult(ok=True, message=f"pressed {'+'.join(action.keys)}")

    def press(self, action: act.Press) -> ActionResult:
        self.input.key_combination([action.keysym()], repeat=action.times)
        return ActionResult(ok=True, message=f"pressed {action.key} x{action.times}")

    def wait(self, action: act.Wait) -> ActionResult:
        time.sleep(action.seconds)
        return ActionResult(ok=True, message=f"waited {action.seconds}s")

    # The run loop handles these itself; the desktop answers them too, for scripts that drive a
    # sandbox directly with whole action lists.
    def answer(self, action: act.Answer) -> ActionResult:
        return ActionResult(ok=True, message="answered", answer=action.text)

    def done(self, action: act.Done) -> ActionResult:
        return ActionResult(ok=True, message=action.summary or "done", finished=True)

    def fail(self, action: act.Fail) -> ActionResult:
        return ActionResult(ok=False, message=action.reason, finished=True)


ActionExecutor.handlers.update(
    {
        act.OpenApp: ActionExecutor.open_application,
        act.Click: ActionExecutor.click,
        act.DoubleClick: ActionExecutor.double_click,
        act.RightClick: ActionExecutor.right_click,
        act.TypeText: ActionExecutor.type_text,
        act.Drag: ActionExecutor.drag,
        act.Scroll: ActionExecutor.scroll,
        act.Hotkey: ActionExecutor.hotkey,
        act.Press: ActionExecutor.press,
        act.Wait: ActionExecutor.wait,
        act.Answer: ActionExecutor.answer,
        act.Done: ActionExecutor.done,
        act.Fail: ActionExecutor.fail,
    }
)
