"""An in-memory screen for tests of the run loop's logic (caps, escalation, modes, ablations).

A test double for orchestration only: one window with a "Next" button and a label "count N";
clicking the button's centre increments N and redraws the screenshot. The loop's behaviour on
real applications is tested in test_session_desktop.py.
"""

from __future__ import annotations

import time

from PIL import Image, ImageDraw

from pcagent import actions as act
from pcagent.env.observation import ActionResult, Box, Element, Observation, WindowInfo
from pcagent.env.protocol import AppInfo

#: What the screen says it offers (ApplicationCatalog): the counter passes for a calculator, so
#: the planner and the roles have applications to work with.
APPLICATIONS = (
    AppInfo(name="calculator", description="calculator"),
    AppInfo(name="clock", description="clocks and alarms"),
    AppInfo(name="text_editor", description="plain-text editor", edits_documents=True),
    AppInfo(name="mail", description="e-mail client"),
)

WINDOW = WindowInfo(
    window_id=1, title="Counter", app_class="Counter", box=Box(x=0, y=0, width=400, height=300)
)
NEXT = Box(x=10, y=10, width=80, height=30)
_STATES = frozenset({"showing", "visible", "enabled", "sensitive", "focusable"})


class CounterScreen:
    """Implements :class:`pcagent.env.Environment` and ``ApplicationCatalog`` in memory."""

    def __init__(self) -> None:
        self.count = 0
        self.executed: list[act.Action] = []

    def observe(self) -> Observation:
        image = Image.new("RGB", (640, 480), "white")
        ImageDraw.Draw(image).text((20, 70), f"count {self.count}" * 3, fill="black")
        elements = [
            Element(
                id=0,
                role="push button",
                name="Next",
                states=_STATES,
                box=NEXT,
                app="counter",
                window="Counter",
            ),
            Element(
                id=1,
                role="label",
                name=f"count {self.count}",
                states=frozenset({"showing"}),
                box=Box(x=10, y=60, width=200, height=30),
                app="counter",
                window="Counter",
            ),
        ]
        return Observation(image, elements, [WINDOW], WINDOW, time.time())

    def execute(self, action: act.Action) -> ActionResult:
        self.executed.append(action)
        if isinstance(action, act.Click) and NEXT.contains(action.x, action.y):
            self.count += 1
        return ActionResult(ok=True, message=f"did {action.kind}")

    def applications(self) -> tuple[AppInfo, ...]:
        return APPLICATIONS

    def app_of_window(self, window: WindowInfo) -> str:
        return "calculator" if window.title == WINDOW.title else ""

    def reset(self) -> None:
        self.count = 0

    def close(self) -> None:
        pass
