"""Every task's reference solutions (through the GUI, and with application actions) pass all of
its sub-goals on the real desktop, and doing nothing passes none of its final ones (so every
checker can fail)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.bench.task_run import Services, run_task, sandbox_config_for, services_for
from pcagent.bench.tasks import Task, load_tasks
from pcagent.env import SandboxDesktop

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TASKS = list(load_tasks().values())


@pytest.fixture(scope="module")
def bench_desktop(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SandboxDesktop, Services]]:
    folder: Path = tmp_path_factory.mktemp("bench")
    with (
        services_for(TASKS, folder) as services,
        SandboxDesktop(sandbox_config_for(services)) as desktop,
    ):
        yield desktop, services


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_both_references_pass_and_noop_fails(
    task: Task, bench_desktop: tuple[SandboxDesktop, Services]
) -> None:
    desktop, services = bench_desktop
    for agent in ("reference", "reference-api"):
        reference = run_task(task, agent, desktop, services)
        failed = {s.node_id: s.reason for s in reference.nodes if not s.passed}
        assert reference.error is None, f"{agent}: {reference.error}"
        assert not failed, f"{agent}: {failed}"
        assert reference.outcome.success and reference.outcome.completion_ratio == 1.0
        assert all(s.step is not None for s in reference.nodes)

    noop = run_task(task, "noop", desktop, services)
    assert not noop.outcome.success
    assert noop.outcome.completion_ratio < 1.0
    assert noop.outcome.reset_seconds < 15
