"""The viewer's benchmark pages: the list of benchmark runs, one run's tasks, and one task's
results in two runs side by side.

The benchmark store is opened on first use and shared by the requests, so they take
``bench_lock`` while they read it.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from pcagent.bench.report import summary
from pcagent.bench.results import BenchRun, BenchStore
from pcagent.errors import RecordError
from pcagent.viewer.app_state import RUNS_LISTED, NotFound, ViewerState, html_page
from pcagent.viewer.bench_progress import bench_progress
from pcagent.viewer.compare_pages import ComparedResult, compare_bench_page
from pcagent.viewer.other_pages import bench_list_page, bench_page


def add_bench_routes(app: FastAPI, state: ViewerState) -> None:
    """Register ``/bench``, ``/bench/compare`` and ``/bench/BENCH`` on ``app`` (in this order:
    ``compare`` is not a benchmark run's id)."""

    @app.get("/bench", response_class=HTMLResponse)
    def bench_runs() -> Response:
        recent = state.store.list_runs(RUNS_LISTED)
        with state.bench_lock:
            bench = state.bench_store()
            progress = (
                [bench_progress(run, bench.results(run.bench_id), recent) for run in bench.runs()]
                if bench is not None
                else []
            )
        sources = state.sources
        where = str(sources.bench_dir) if sources.bench_dir else "no benchmark folder"
        return html_page(bench_list_page(progress, where))

    @app.get("/bench/compare", response_class=HTMLResponse)
    def bench_compare(task: str, a: str, b: str) -> Response:
        """One task's results in two benchmark runs, side by side."""
        with state.bench_lock:
            bench = _opened_bench(state)
            sides = [_compared_result(state, bench, bench_id, task) for bench_id in (a, b)]
            definition = state.tasks_for(sides[0].bench.tasks_dir).get(task)
        return html_page(compare_bench_page(task, definition, sides[0], sides[1]))

    @app.get("/bench/{bench_id}", response_class=HTMLResponse)
    def bench_run(bench_id: str) -> Response:
        recent = state.store.list_runs(RUNS_LISTED)
        with state.bench_lock:
            bench = _opened_bench(state)
            run = _bench_run(bench, bench_id)
            tasks = state.tasks_for(run.tasks_dir)
            known = {
                r.run_id
                for r in bench.results(run.bench_id)
                if r.run_id and state.run_known(r.run_id)
            }
            others = _other_runs_of_its_tasks(bench, run)
            progress = bench_progress(run, bench.results(run.bench_id), recent)
            return html_page(bench_page(bench, run, tasks, known, others, progress))


def _opened_bench(state: ViewerState) -> BenchStore:
    bench = state.bench_store()
    if bench is None:
        raise NotFound("No benchmark results recorded here.")
    return bench


def _bench_run(bench: BenchStore, bench_id: str) -> BenchRun:
    try:
        return bench.get(bench_id)
    except RecordError as error:
        raise NotFound(str(error)) from None


def _compared_result(
    state: ViewerState, bench: BenchStore, bench_id: str, task: str
) -> ComparedResult:
    """Task ``task``'s result in the benchmark run ``bench_id``, with its summary row."""
    run = _bench_run(bench, bench_id)
    rows = {row["task"]: row for row in summary(bench, run)["tasks"]}
    results = {r.task_id: r for r in bench.results(run.bench_id)}
    if task not in results:
        raise NotFound(f"Benchmark run {run.bench_id} has no result of task {task!r}.")
    row = rows[task]
    known = bool(row["run_id"]) and state.run_known(row["run_id"])
    return ComparedResult(run, row, results[task], known)


def _other_runs_of_its_tasks(bench: BenchStore, run: BenchRun) -> dict[str, list[str]]:
    """For each of ``run``'s tasks, the other benchmark runs with a result of it."""
    others: dict[str, list[str]] = {}
    own = {result.task_id for result in bench.results(run.bench_id)}
    for other in bench.runs():
        if other.bench_id == run.bench_id:
            continue
        for result in bench.results(other.bench_id):
            if result.task_id in own:
                others.setdefault(result.task_id, []).append(other.bench_id)
    return others
