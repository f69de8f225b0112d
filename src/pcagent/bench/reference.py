"""Running a task's reference solution: typed actions through the same Environment an agent uses.

Steps may name an element to click (found in the observation at that moment) rather than fixed
coordinates, and may wait for a window, so reference solutions survive small layout changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from pcagent import actions as act
from pcagent.bench.tasks import ReferenceStep, Task
from pcagent.env.protocol import Environment
from pcagent.errors import BenchError


class ReferenceSolutionError(BenchError):
    """A reference step could not be carried out (its element or window never appeared)."""


def _find_click(environment: Environment, name: str, role: str | None, timeout: float) -> act.Click:
    deadline = time.monotonic() + timeout
    while True:
        observation = environment.observe()
        for element in observation.elements:
            if (
                element.name == name
                and (role is None or element.role == role)
                and not element.box.is_empty
            ):
                x, y = element.box.center
                return act.Click(x=x, y=y)
        if time.monotonic() >= deadline:
            seen = sorted({e.name for e in observation.elements if e.name})[:40]
            raise ReferenceSolutionError(
                f"no element {name!r} ({role or 'any role'}) on screen; seen {seen}"
            )
        time.sleep(0.2)


def _wait_for_window(
    environment: Environment, text: str, timeout: float, *, present: bool = True
) -> None:
    """Until a window's title contains ``text`` (``present``), or until none does.

    A window that appeared is then given up to :data:`FOCUS_SETTLE` seconds to take the focus:
    a dialog is mapped before the window manager focuses it, and keys typed in between go to
    the window below (measured: a city typed into the Clocks main window under load).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(text in w.title for w in environment.observe().windows) == present:
            if present:
                _wait_for_focus(environment, text, FOCUS_SETTLE)
            return
        time.sleep(0.2)
    titles = [w.title for w in environment.observe().windows]
    what = "appeared" if present else "closed"
    raise ReferenceSolutionError(f"no window titled like {text!r} {what}; windows: {titles}")


def _wait_for_focus(environment: Environment, text: str, settle: float) -> None:
    """Until the focused window's title contains ``text``, for at most ``settle`` seconds; a
    window that never takes the focus (a panel, a notification) is not an error."""
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:
        focused = environment.observe().focused_window
        if focused is not None and text in focused.title:
            return
        time.sleep(0.2)


def _still_open(environment: Environment, text: str, settle: float) -> bool:
    """Whether a window titled like ``text`` is open once ``settle`` seconds have passed
    without it closing (the previous action may be closing it)."""
    deadline = time.monotonic() + settle
    while True:
        if not any(text in w.title for w in environment.observe().windows):
            return False
        if time.monotonic() >= deadline:
            return True
        time.sleep(0.2)


#: How long a step waits for its element or window. Generous because it costs nothing when the
#: element is there: a mail client started while another sandbox loads the same two cores has
#: been seen to take more than 10 s before its accessibility tree lists anything.
STEP_TIMEOUT = 30.0
#: How long an ``if_open`` step watches its window before deciding it stays open (every such
#: step costs this much when the window does stay).
IF_OPEN_SETTLE = 3.5
#: How long a window that appeared is given to take the focus before the next step goes on
#: (it costs nothing when the focus comes: 3 s was too short for Clocks' New Alarm dialog with
#: a language model running beside the sandbox, and the alarm's keys went to the main window).
FOCUS_SETTLE = 10.0


def run_step(
    environment: Environment, step: ReferenceStep, timeout: float = STEP_TIMEOUT
) -> act.Action | None:
    """Carry out one reference step; returns the action executed (None for a wait).

    Raises :class:`ReferenceSolutionError` when the element to click or the window to wait for
    does not appear within ``timeout`` seconds (three times that for a window to close). An
    ``if_open`` step whose window closed within :data:`IF_OPEN_SETTLE` seconds (or ``timeout``,
    if shorter) is skipped (None).
    """
    if step.wait_for is not None:
        _wait_for_window(environment, step.wait_for, timeout)
        return None
    if step.wait_gone is not None:
        _wait_for_window(environment, step.wait_gone, 3 * timeout, present=False)
        return None
    if step.if_open is not None and not _still_open(
        environment, step.if_open, min(IF_OPEN_SETTLE, timeout)
    ):
        return None
    if step.click is not None:
        action: act.Action = _find_click(environment, step.click, step.role, timeout)
    else:
        action = act.parse_action(step.action or {})
    result = environment.execute(action)
    if action.belongs_to is not None and not result.ok:
        raise ReferenceSolutionError(f"{action.kind} failed: {result.message}")
    return action


def run_reference(
    environment: Environment | Mapping[str, Environment],
    task: Task,
    after_step: Callable[[int, act.Action | None], None],
    *,
    api: bool = False,
) -> int:
    """Execute every reference step, calling ``after_step(number, action)`` after each (the
    evaluator checks there). ``api`` runs the solution with application actions
    (``reference_api``) instead of the GUI one. Returns the number of steps.

    ``environment`` is the one desktop, or, for a cross-environment task, the desktops by the
    task's environment names: each step runs on the one it names (the first by default).

    Raises :class:`ReferenceSolutionError` when a step fails, an application action included:
    a reference solution that does not do what it says is a broken task, not a poor agent.
    """
    steps = task.reference_api if api else task.reference
    if not steps:
        kind = "with application actions (reference_api)" if api else "through the GUI (reference)"
        raise ReferenceSolutionError(f"task {task.id} has no reference solution {kind}")
    environments = (
        environment if isinstance(environment, Mapping) else {task.environments[0]: environment}
    )
    missing = sorted(set(task.environments) - set(environments))
    if missing:
        raise ReferenceSolutionError(
            f"task {task.id} runs steps on environments {missing}, which this run does not have"
        )
    for number, step in enumerate(steps, start=1):
        after_step(number, run_step(environments[task.environment_of(step)], step))
    return len(steps)
