"""Click latency where the pointer already is, against a click at a new point, in one run.

A click used to move the pointer with ``xdotool mousemove --sync``, which waits for a motion event
that never comes when the pointer is already at the target (about 15 s each time). Small models
repeat clicks at one point all the time. This starts a sandbox with the calculator, then times
``execute(Click)`` at alternating new points (the baseline) and repeated at one point; the goal is
a ratio (same point / new point) of at most 1.5. A zero-length drag is also checked: refused at
once, with no button left pressed.

    python benchmarks/input.py --json [--repeat 9] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from headline import add_quick_option, headline
from pcagent import actions as act
from pcagent.env import SandboxDesktop
from pcagent.errors import InvalidActionError

GOAL_RATIO = 1.5


def timed(desktop: SandboxDesktop, action: act.Action) -> float:
    started = time.perf_counter()
    desktop.execute(action)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=9)
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.repeat = 1
    with SandboxDesktop() as desktop:
        window = desktop.open_app("calculator")
        # Two harmless points inside the calculator's window (its title bar area).
        box = window.box
        first = (box.x + box.width // 3, box.y + 5)
        second = (box.x + 2 * box.width // 3, box.y + 5)
        new_point = [
            timed(desktop, act.Click(x=(first, second)[i % 2][0], y=(first, second)[i % 2][1]))
            for i in range(arguments.repeat)
        ]
        same_point = [
            timed(desktop, act.Click(x=first[0], y=first[1])) for _ in range(arguments.repeat)
        ]
        started = time.perf_counter()
        try:
            desktop.execute(
                act.Drag.model_construct(
                    start_x=first[0], start_y=first[1], end_x=first[0], end_y=first[1]
                )
            )
            zero_drag = "executed"
        except InvalidActionError:
            zero_drag = "refused"
        zero_drag_ms = (time.perf_counter() - started) * 1000
        buttons_down = desktop.x11.buttons_pressed()
    ratio = round(statistics.median(same_point) / statistics.median(new_point), 2)
    result = {
        **headline(
            {"ratio_same_over_new": ratio},
            {
                "ratio_same_over_new": f"at most {GOAL_RATIO}: a click where the pointer rests is "
                "no slower than one at a new point"
            },
            ratio <= GOAL_RATIO and zero_drag == "refused" and not buttons_down,
            quick=arguments.quick,
        ),
        "benchmark": "input",
        "click_new_point_ms_median": round(statistics.median(new_point), 1),
        "click_same_point_ms_median": round(statistics.median(same_point), 1),
        "ratio_same_over_new": ratio,
        "goal_ratio_at_most": GOAL_RATIO,
        "zero_length_drag": zero_drag,
        "zero_length_drag_ms": round(zero_drag_ms, 1),
        "buttons_pressed_after": buttons_down,
        "repeat": arguments.repeat,
    }
    print(json.dumps(result, indent=None if arguments.json else 1))


if __name__ == "__main__":
    main()
