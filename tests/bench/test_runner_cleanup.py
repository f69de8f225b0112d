"""A benchmark run leaves nothing behind in the temporary folder."""

from __future__ import annotations

import os
import signal
import tempfile
import time
from pathlib import Path

import pytest

from pcagent.bench import worker
from pcagent.bench.runner import run_tasks
from pcagent.bench.tasks import select_tasks
from pcagent.env import SandboxDesktop, processes

pytestmark = [pytest.mark.desktop]


def _scratch_folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("pcagent-bench-*"))


def test_the_services_folder_of_a_run_is_removed_when_it_ends() -> None:
    before = _scratch_folders()
    (result,) = run_tasks(select_tasks(["pc16"]), "noop")  # web and mail services
    assert not result.outcome.success
    assert _scratch_folders() == before


@pytest.mark.parametrize("parallel", [1, 2])
def test_an_interrupted_run_closes_its_sandboxes_before_it_stops(
    parallel: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[int]] = []

    def interrupted(
        task: object, agent: object, desktop: SandboxDesktop, *_: object, **__: object
    ) -> None:
        assert desktop.state is not None
        started.append(list(desktop.state.infrastructure_pids))
        # Ctrl+C as a person presses it: SIGINT to the process, handled in its main thread.
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)

    monkeypatch.setattr(worker, "run_task", interrupted)
    before = _scratch_folders()
    with pytest.raises(KeyboardInterrupt):
        run_tasks(select_tasks(["pc04", "pc09", "pc16"]), "noop", parallel=parallel)
    # no task started after the interruption, and every sandbox closed before it went on
    assert 1 <= len(started) <= parallel
    for pids in started:
        assert pids and not any(processes.is_alive(pid) for pid in pids)
    assert _scratch_folders() == before
