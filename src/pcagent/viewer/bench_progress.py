"""How far a benchmark run has got: tasks done of tasks planned, its success rate so far, and
the agent runs of the tasks under way, so that a benchmark in progress links to its live runs.

A task's result (with its run id) is stored when the task ends; until then the only trace of it
is its agent run, recorded with the task's id in its settings (``bench_task``) and ``running``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pcagent.bench.results import BenchRun, StoredResult
from pcagent.runtime.record.models import RunRecord

BenchState = Literal["running", "incomplete", "complete"]


@dataclass
class BenchProgress:
    """One benchmark run's progress; ``success_rate`` is over the tasks done (None before the
    first)."""

    bench: BenchRun
    done: int
    success_rate: float | None
    live_runs: list[RunRecord] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.bench.tasks)

    @property
    def state(self) -> BenchState:
        if self.done >= self.total:
            return "complete"
        return "running" if self.live_runs else "incomplete"

    def tasks_text(self) -> str:
        """``3`` when all are done, ``1 of 3`` before."""
        return str(self.total) if self.done >= self.total else f"{self.done} of {self.total}"


def bench_progress(
    bench: BenchRun, results: Sequence[StoredResult], recent_runs: Sequence[RunRecord]
) -> BenchProgress:
    """The progress of ``bench`` from its stored ``results`` and the run store's recent runs
    (newest first), among which the running runs of its unfinished tasks are its live runs."""
    finished = {result.task_id for result in results}
    passed = sum(1 for result in results if result.outcome.get("success"))
    waiting = set(bench.tasks) - finished
    live = [
        run
        for run in recent_runs
        if run.status == "running"
        and run.created_at >= bench.created_at
        and run.settings.get("bench_task") in waiting
    ]
    rate = passed / len(results) if results else None
    return BenchProgress(bench, len(finished), rate, live)
