"""Turns typed actions into X11 input, and nothing else.

Kept apart from any decision making (COLA's separate executor): it receives only validated actions
and a small set of callbacks from the environment that owns it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

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

    def execute(self, action: act.Action) -> ActionResult:
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise UnsupportedActionError(
                f"'{action.kind}' actions are carried out by the perception layer, not the desktop"
            )
        return handler(action)

    def _do_open_app(self, action: act.OpenApp) -> ActionResult:
        title = self.open_app(action.app)
        return ActionResult(ok=True, message=f"opened {action.app}: {title}")

    def _do_click(self, action: act.Click) -> ActionResult:
        self.input.click(action.x, action.y)
        return ActionResult(ok=True, message=f"clicked ({action.x}, {action.y})")

    def _do_double_click(self, action: act.DoubleClick) -> ActionResult:
        self.input.click(action.x, action.y, repeat=2)
        return ActionResult(ok=True, message=f"double-clicked ({action.x}, {action.y})")

    def _do_right_click(self, action: act.RightClick) -> ActionResult:
        self.input.click(action.x, action.y, button="right")
        return ActionResult(ok=True, message=f"right-clicked ({action.x}, {action.y})")

    def _do_type(self, action: act.TypeText) -> ActionResult:
        if action.x is not None and action.y is not None:
            self.input.click(action.x, action.y)
        self.input.type_text(action.text, key_pause=self.key_pause())
        return ActionResult(ok=True, message=f"typed {len(action.text)} characters")

    def _do_drag(self, action: act.Drag) -> ActionResult:
        self.input.drag((action.start_x, action.start_y), (action.end_x, action.end_y))
        return ActionResult(
            ok=True,
            message=f"dragged ({action.start_x}, {action.start_y}) → ({action.end_x}, {action.end_y})",
        )

    def _do_scroll(self, action: act.Scroll) -> ActionResult:
        self.input.scroll(action.x, action.y, action.direction, action.amount)
        return ActionResult(ok=True, message=f"scrolled {action.direction} x{action.amount}")

    def _do_hotkey(self, action: act.Hotkey) -> ActionResult:
        self.input.key_combination(action.keysyms())
        return ActionResult(ok=True, message=f"pressed {'+'.join(action.keys)}")

    def _do_press(self, action: act.Press) -> ActionResult:
        self.input.key_combination([action.keysym()], repeat=action.times)
        return ActionResult(ok=True, message=f"pressed {action.key} x{action.times}")

    def _do_wait(self, action: act.Wait) -> ActionResult:
        time.sleep(action.seconds)
        return ActionResult(ok=True, message=f"waited {action.seconds}s")

    def _do_answer(self, action: act.Answer) -> ActionResult:
        return ActionResult(ok=True, message="answered", answer=action.text)

    def _do_done(self, action: act.Done) -> ActionResult:
        return ActionResult(ok=True, message=action.summary or "done", finished=True)

    def _do_fail(self, action: act.Fail) -> ActionResult:
        return ActionResult(ok=False, message=action.reason, finished=True)
