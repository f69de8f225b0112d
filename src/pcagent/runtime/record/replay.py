"""Re-executing a recorded run's actions, without any model, on a restored desktop.

Replay starts from the run's recorded start state (HOME snapshot and applications before the
first action) and carries out every recorded action in order, through the same
:class:`~pcagent.runtime.loop.dispatch.ActionDispatcher` as the run. Actions that do not act on the
desktop (answer, done, fail, ask_human) and actions the run refused are skipped. It shows whether
a run is reproducible and turns a good run into a script.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pcagent.env.protocol import Environment
from pcagent.runtime.loop.desktop_state import DesktopAccess
from pcagent.runtime.loop.dispatch import ActionDispatcher, acts_on_desktop
from pcagent.runtime.record.recorder import home_snapshots, initial_desktop
from pcagent.runtime.record.store import RunStore


@dataclass(frozen=True)
class ReplayedStep:
    """One recorded step as replayed. ``recorded_ok`` is what the run saw (None: unknown)."""

    step: int
    action: str
    executed: bool
    ok: bool
    recorded_ok: bool | None
    message: str

    @property
    def agrees(self) -> bool:
        return self.recorded_ok is None or not self.executed or self.ok == self.recorded_ok


def replay_run(
    store: RunStore,
    environment: Environment,
    run_id: str,
    *,
    upto: int | None = None,
    on_step: Callable[[ReplayedStep], None] | None = None,
) -> list[ReplayedStep]:
    """Restore the run's start state on ``environment`` and re-execute its actions.

    Raises :class:`~pcagent.errors.RunStateError` when the run has no recorded start state or the
    environment cannot be restored; an action that fails is reported, not raised.
    """
    record = store.get_run(run_id)
    snapshot_id, apps = initial_desktop(store, record.run_id)
    DesktopAccess.of(environment).restore(home_snapshots(store), snapshot_id, apps)
    dispatcher = ActionDispatcher(environment)
    replayed = []
    for step in store.steps(record.run_id, upto=upto):
        action = step.action
        if action is None:
            continue
        recorded_ok = step.result.ok if step.result is not None else None
        refused = step.result is not None and step.result.refused
        if refused or not acts_on_desktop(action):
            why = "refused in the run" if refused else "does not act on the desktop"
            outcome = ReplayedStep(
                step.step, action.kind, False, True, recorded_ok, f"skipped: {why}"
            )
        else:
            result = dispatcher.carry_out(action)
            message = f"{result.error}: {result.message}" if result.error else result.message
            outcome = ReplayedStep(step.step, action.kind, True, result.ok, recorded_ok, message)
        replayed.append(outcome)
        if on_step is not None:
            on_step(outcome)
    return replayed
