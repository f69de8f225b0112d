"""The input layer never hangs and never leaves a button pressed (real sandbox, real xdotool).

Timings belong to benchmarks/input.py; here only what must hold: a click where the pointer
already rests completes and lands (it used to wait ~15 s for a motion event that never came),
a drag that goes nowhere is refused before any button goes down, and a drag releases its button.
"""

from __future__ import annotations

import pytest

from pcagent import actions as act
from pcagent.env import SandboxDesktop
from pcagent.errors import InvalidActionError

pytestmark = [pytest.mark.desktop]


def test_clicks_at_the_pointer_position_and_drags_leave_no_button_down(
    desktop: SandboxDesktop,
) -> None:
    window = desktop.open_app("text_editor")
    inside = (window.box.x + window.box.width // 2, window.box.y + window.box.height // 2)
    input_layer = desktop._executor.input  # type: ignore[union-attr]  # the layer under test
    desktop.execute(act.Click(x=inside[0], y=inside[1]))
    assert input_layer.pointer() == inside
    # again at the very same point: must not wait for a motion event
    input_layer.timeout = 5.0  # a hang would now raise ActionExecutionError
    desktop.execute(act.Click(x=inside[0], y=inside[1]))
    desktop.execute(act.TypeText(text="still responsive"))
    assert input_layer.pointer() == inside

    with pytest.raises(InvalidActionError, match="same point"):
        input_layer.drag(inside, inside)
    assert desktop.x11.buttons_pressed() == []
    desktop.execute(
        act.Drag(start_x=inside[0], start_y=inside[1], end_x=inside[0] + 40, end_y=inside[1])
    )
    assert desktop.x11.buttons_pressed() == []
    assert input_layer.pointer() == (inside[0] + 40, inside[1])
