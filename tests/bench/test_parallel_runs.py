"""``--parallel``: tasks spread over several sandboxes in threads, with the pcagent agent on the
real local model (smollm2; each worker loads its own; no Manager), results stored as each task
ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support import smollm2_config

from pcagent.bench.runner import run_tasks
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.runtime.record.store import RunStore

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def test_two_sandboxes_side_by_side_with_the_local_model(tmp_path: Path) -> None:
    config = smollm2_config(tmp_path, max_steps=1, threads=1)
    tasks = [load_tasks()[task_id] for task_id in ("pc09", "pc13")]
    finished: list[str] = []

    def record(result: TaskRun) -> None:
        finished.append(result.task.id)

    # No Manager: its 2,000-token prompt took 40 s of each worker on two shared cores, and the
    # planning has tests of its own; the workers' own models still decide the step.
    results = run_tasks(
        tasks,
        "pcagent",
        parallel=2,
        config=config,
        ablation="no_manager",
        scratch=tmp_path,
        on_result=record,
    )
    assert [r.task.id for r in results] == ["pc09", "pc13"]  # task order, whatever finished first
    assert sorted(finished) == ["pc09", "pc13"]
    for result in results:
        assert result.error is None, result.error
        assert result.run_id and result.outcome.actions == 1
        assert result.outcome.tokens > 0
    # each worker had its own sandbox
    with RunStore(config.runs_dir) as store:
        sandboxes = {
            store.get_run(r.run_id).settings["environment"]["sandbox_id"]  # type: ignore[arg-type]
            for r in results
        }
    assert len(sandboxes) == 2
