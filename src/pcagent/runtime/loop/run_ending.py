"""What a run's record must say however it ends: an error ends it as ``failed`` with the
error, an interruption as ``interrupted``; and which model answered each agent role.

Why apart from the session: the record is what ``pcagent runs``, the viewer and the benchmark
read, and a run that an error ended before its first step used to stay ``running`` for ever.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import FinishEvent
from pcagent.runtime.record.models import MODELS_SETTING, RoleModel
from pcagent.runtime.record.recorder import StepRecorder


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended (what :class:`~pcagent.runtime.loop.session.RunSession` returns)."""

    run_id: str
    status: str
    summary: str
    steps: int
    tokens: int


def record_role_models(recorder: StepRecorder, used: Mapping[str, RoleModel]) -> None:
    """Each role's model as the run's ``settings["models"]``, with those already recorded (a
    rewound run's parent's, for the steps it copied) unless the same role asked another here."""
    store, run_id = recorder.store, recorder.run_id
    merged = {**store.get_run(run_id).models, **used}
    recorded = {role: model.model_dump(mode="json") for role, model in sorted(merged.items())}
    store.update_settings(run_id, {MODELS_SETTING: recorded})


@contextlib.contextmanager
def failed_on_error(
    recorder: StepRecorder,
    checkpoint: RunCheckpoint,
    steps_done: Callable[[], int],
    log: Callable[[str], None],
) -> Iterator[None]:
    """The ``with`` block runs the recorded run. An error that ends it (a model that cannot be
    reached, a desktop that died, before the first step or later) is recorded: the run is
    ``failed``, its summary and a ``finish`` event say the error. Ctrl+C leaves it
    ``interrupted`` (a resumable state). The exception goes on either way."""
    store, run_id = recorder.store, recorder.run_id
    try:
        yield
    except KeyboardInterrupt:
        if store.get_run(run_id).status == "running":
            store.set_status(run_id, "interrupted", checkpoint.summary or "interrupted by the user")
        raise
    except Exception as error:
        described = f"{type(error).__name__}: {error}"
        checkpoint.outcome, checkpoint.summary = "failed", f"ended by an error: {described}"
        finish = FinishEvent(outcome="failed", summary=checkpoint.summary, error=described)
        recorder.event(steps_done(), finish)
        store.set_status(run_id, "failed", checkpoint.summary)
        log(f"run failed: {checkpoint.summary}")
        raise
