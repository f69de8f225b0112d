"""Two benchmark runs side by side, per original task: the 25 tasks in one run, their rewordings
(``tasks_reworded/``) in the other, and what each set's success rate says about the other.

A result counts under the task it rewords (the task file's ``rewords``), or under its own id for
a task of its own, so a run of ``pc01`` and one of ``pc01r1`` and ``pc01r2`` meet on one row.
Two runs of the same tasks (two models, before and after a change) compare the same way, one
task per row.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from pcagent.bench.listing import code_counts
from pcagent.bench.metrics import summarize
from pcagent.bench.report import tasks_of
from pcagent.bench.results import BenchRun, BenchStore
from pcagent.bench.tasks import Task


class ComparedOutcome(BaseModel):
    """One task's result in one of the runs."""

    task_id: str
    success: bool
    completion_ratio: float


class ComparedTask(BaseModel):
    """One original task: its results (the task itself, or its rewordings) in each run; a run
    that did not run it has none."""

    original: str
    first: list[ComparedOutcome]
    second: list[ComparedOutcome]


class ComparedRun(BaseModel):
    """One side: the run, its task folder ("" for the built-in tasks), tasks and success rate
    (None without results)."""

    bench_id: str
    agent: str
    model: str
    tasks_dir: str
    tasks: int
    success_rate: float | None
    #: How many of its results ran at each version of pcagent's code.
    codes: dict[str, int] = {}


class SharedTasks(BaseModel):
    """The success rates over the original tasks both runs have results for, where one run has
    some the other has not (a run stopped part way, a subset run beside a whole one): the
    whole runs' rates then weigh different tasks, and only these compare like with like."""

    #: How many results of each run count (the 25 against the 50: one against two a task).
    first_results: int
    second_results: int
    first_rate: float
    second_rate: float
    difference_points: float


class RunComparison(BaseModel):
    first: ComparedRun
    second: ComparedRun
    #: Whether every result of both runs ran at one version of the code: True, False, or None
    #: where some result's version was not kept. A difference is a wording's (or a model's)
    #: only when it is True.
    same_code: bool | None = None
    #: The second run's success rate less the first's, in percentage points (None when either
    #: has no results).
    difference_points: float | None
    tasks: list[ComparedTask]
    #: None where both runs have results for the same original tasks, or for none in common.
    shared: SharedTasks | None = None


def original_of(task_id: str, tasks: Mapping[str, Task]) -> str:
    """The id of the task ``task_id`` rewords; ``task_id`` itself for a task of its own, or one
    missing from ``tasks`` (its file gone since the run)."""
    task = tasks.get(task_id)
    return (task.rewords if task is not None else "") or task_id


def compare_runs(store: BenchStore, first: BenchRun, second: BenchRun) -> RunComparison:
    """``first`` and ``second`` side by side, one row per original task: those of the first
    run by task id, then any only the second ran."""
    rows: dict[str, ComparedTask] = {}
    sides = []
    for bench in (first, second):
        results = store.results(bench.bench_id)
        tasks = tasks_of(bench)
        for result in results:
            original = original_of(result.task_id, tasks)
            row = rows.setdefault(original, ComparedTask(original=original, first=[], second=[]))
            side = row.first if bench is first else row.second
            side.append(
                ComparedOutcome(
                    task_id=result.task_id,
                    success=bool(result.outcome["success"]),
                    completion_ratio=float(result.outcome["completion_ratio"]),
                )
            )
        rate = summarize([result.task_outcome() for result in results]).get("SR")
        sides.append(
            ComparedRun(
                bench_id=bench.bench_id,
                agent=bench.agent,
                model=bench.model,
                tasks_dir=bench.tasks_dir,
                tasks=len(results),
                success_rate=None if rate is None else float(rate),
                codes=code_counts(results),
            )
        )
    before, after = sides
    difference = (
        None
        if before.success_rate is None or after.success_rate is None
        else round(100 * (after.success_rate - before.success_rate), 1)
    )
    return RunComparison(
        first=before,
        second=after,
        same_code=one_code(before.codes, after.codes),
        difference_points=difference,
        tasks=list(rows.values()),
        shared=shared_tasks(list(rows.values())),
    )


def shared_tasks(rows: list[ComparedTask]) -> SharedTasks | None:
    """The rates over the rows both sides have results for, and in a row whose task ids both
    sides ran, over those alone (two runs of the 50, one stopped between a task's two
    rewordings); None where both sides have the same results' tasks throughout, or none."""
    first: list[ComparedOutcome] = []
    second: list[ComparedOutcome] = []
    same = True
    for row in rows:
        ran = {o.task_id for o in row.first} & {o.task_id for o in row.second}
        mine = [o for o in row.first if not ran or o.task_id in ran] if row.second else []
        theirs = [o for o in row.second if not ran or o.task_id in ran] if row.first else []
        same = same and len(mine) == len(row.first) and len(theirs) == len(row.second)
        first += mine
        second += theirs
    if same or not first:
        return None
    return SharedTasks(
        first_results=len(first),
        second_results=len(second),
        first_rate=round(_rate(first), 4),
        second_rate=round(_rate(second), 4),
        difference_points=round(100 * (_rate(second) - _rate(first)), 1),
    )


def _rate(outcomes: list[ComparedOutcome]) -> float:
    return sum(outcome.success for outcome in outcomes) / len(outcomes)


def one_code(*counts: dict[str, int]) -> bool | None:
    """Whether the results counted in ``counts`` all ran at one version of the code (None
    where a result's version is unknown, or there are no results)."""
    versions = {code for count in counts for code in count}
    if not versions or "" in versions:
        return None
    return len(versions) == 1
