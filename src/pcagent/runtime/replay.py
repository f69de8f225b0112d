"""Re-executing a recorded run's actions, without any model, on a restored desktop.

Replay starts from the run's recorded start state (HOME snapshot and applications before the
first action) and carries out every recorded action in order. Actions that do not act on the
desktop (answer, done, fail, ask_human) and actions the run refused are skipped. It shows whether
a run is reproducible and turns a good run into a script.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pcagent import actions as act
from pcagent.env.protocol import Environment
from pcagent.errors import ActionError, DesktopError, PerceptionError
from pcagent.perception.text_selection import TextSelector
from pcagent.runtime.desktop_state import restore_desktop
from pcagent.runtime.home_snapshot import HomeSnapshots
from pcagent.runtime.records import RunStore

#: The folder (under the run store) holding the content-addressed HOME snapshots of every run.
HOME_STORE = "home-store"
_NOT_ON_DESKTOP = ("answer", "done", "fail", "ask_human")


def home_snapshots(store: RunStore, max_file_bytes: int = 50_000_000) -> HomeSnapshots:
    """The snapshot store shared by all runs of ``store`` (so rewound runs find their parent's)."""
    return HomeSnapshots(store.root / HOME_STORE, max_file_bytes=max_file_bytes)


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
    from pcagent.runtime.session import initial_desktop

    record = store.get_run(run_id)
    snapshot_id, apps = initial_desktop(store, record.run_id)
    restore_desktop(environment, home_snapshots(store), snapshot_id, apps)
    replayed = []
    for step in store.steps(record.run_id, upto=upto):
        if step.action is None:
            continue
        action = act.parse_action(step.action)
        recorded_ok = step.result.get("ok") if step.result else None
        refused = bool(step.result and "Refused" in str(step.result.get("error", "")))
        refused = refused or bool(step.result and "Domain" in str(step.result.get("error", "")))
        if action.kind in _NOT_ON_DESKTOP or refused:
            why = "refused in the run" if refused else "does not act on the desktop"
            outcome = ReplayedStep(
                step.step, action.kind, False, True, recorded_ok, f"skipped: {why}"
            )
        else:
            outcome = _execute(environment, step.step, action, recorded_ok)
        replayed.append(outcome)
        if on_step is not None:
            on_step(outcome)
    return replayed


def _execute(
    environment: Environment, number: int, action: act.Action, recorded_ok: bool | None
) -> ReplayedStep:
    try:
        if isinstance(action, act.SelectText):
            selection = TextSelector(environment).execute(action)
            ok, message = selection.matches, f"selected {selection.selected!r}"
        else:
            result = environment.execute(action)
            ok, message = result.ok, result.message
    except (ActionError, DesktopError, PerceptionError) as error:
        ok, message = False, f"{type(error).__name__}: {error}"
    return ReplayedStep(number, action.kind, True, ok, recorded_ok, message)
