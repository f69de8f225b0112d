"""``pcagent bench list`` and ``pcagent bench report``: the stored benchmark runs, and one run's
outcome task by task."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.config import load_config
from pcagent.errors import BenchError

if TYPE_CHECKING:
    from pcagent.bench.results import BenchRun, BenchStore
    from pcagent.cli.run_output import RunOutput

console = Console()


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


@reports_errors
def list_bench_runs(
    limit: Annotated[int, typer.Option(help="How many benchmark runs, newest first.", min=1)] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The stored benchmark runs: id, date, agent, model, tasks done, SR and SSR."""
    from pcagent.bench.listing import code_label, run_row
    from pcagent.bench.results import BenchStore

    with BenchStore(load_config().data_dir / "bench") as store:
        rows = [run_row(store, bench) for bench in store.runs()[:limit]]
    if as_json:
        print(json.dumps([row.model_dump(mode="json") for row in rows], indent=1))
        return
    if not rows:
        console.print("no benchmark run yet; start one with pcagent bench run")
        return
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("benchmark run", no_wrap=True)
    table.add_column("started (UTC)", no_wrap=True)
    for name in ("agent", "model"):
        table.add_column(name, overflow="fold")
    for name in ("tasks", "SR", "SSR"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("code", overflow="fold")
    for row in rows:
        done = f"{row.tasks_done}/{row.tasks_total}"
        ablation = "" if row.ablation == "none" else f" ({row.ablation})"
        table.add_row(
            row.bench_id,
            datetime.fromtimestamp(row.created_at, UTC).strftime("%Y-%m-%d %H:%M"),
            escape(row.agent + ablation),
            escape(row.model),
            done,
            _percent(row.success_rate),
            _percent(row.subtask_success_rate),
            escape(code_label(row.code, row.codes)),
        )
    console.print(table)


@reports_errors
def report(
    bench_id: Annotated[
        str | None, typer.Argument(help="Benchmark run (default: the latest).")
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="HTML file to write (default: reports/BENCH_ID.html in the data folder's bench).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the JSON summary instead.")
    ] = False,
) -> None:
    """Say which benchmark run this is (agent, model), how each task ended and why it failed,
    and write the HTML report."""
    from pcagent.bench.report import render_html, summary
    from pcagent.bench.results import BenchStore

    folder = load_config().data_dir / "bench"
    with BenchStore(folder) as store:
        bench = store.get(bench_id) if bench_id else store.latest()
        if bench is None:
            raise BenchError("no benchmark run yet; run `pcagent bench run` first")
        if as_json:
            print(json.dumps(summary(store, bench), indent=1))
            return
        print_run_heading(store, bench)
        print_task_outcomes(store, bench)
        # Not the current folder by default: a report written there ends up in whatever
        # checkout or folder the command was run from.
        if output is None:
            output = folder / "reports" / f"{bench.bench_id}.html"
            output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(render_html(store, bench), encoding="utf-8")
        console.print(f"report: {escape(str(output))}")
        print_summary(store, bench.bench_id)


def print_run_heading(store: BenchStore, bench: BenchRun) -> None:
    """Which run, which agent, model and code, on which tasks; a run whose results ran at
    several versions of the code says so, since its figures are then no one version's."""
    from pcagent.bench.listing import code_counts, code_label, model_label

    started = datetime.fromtimestamp(bench.created_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    where = bench.tasks_dir or "built-in tasks"
    codes = code_counts(store.results(bench.bench_id))
    console.print(
        f"benchmark run [bold]{bench.bench_id}[/bold] started {started}: agent "
        f"{escape(bench.agent)}, model {escape(model_label(bench))}, ablation "
        f"{escape(bench.ablation)}, {len(bench.tasks)} tasks ({escape(where)}), code "
        f"{escape(code_label(bench.code, codes))}"
    )
    if len(codes) > 1:
        console.print(
            f"[yellow]its results ran at {len(codes)} versions of the code: their figures are "
            "not one version's[/yellow]"
        )


def print_task_outcomes(store: BenchStore, bench: BenchRun) -> None:
    """One line per task: passed or failed, completion, and for a failure its causes and the
    first thing that went wrong; tasks without a result yet are named."""
    from pcagent.bench.listing import task_line

    results = store.results(bench.bench_id)
    for line in (task_line(result) for result in results):
        mark = "[green]passed[/green]" if line.success else "[red]failed[/red]"
        run = f", run {line.run_id}" if line.run_id else ""
        console.print(
            f"  {escape(line.task_id)} {mark} completion {line.completion_ratio:.0%} "
            f"({line.actions} actions, {line.seconds:.0f} s{run})"
        )
        if line.failure_causes:
            console.print(f"      causes: {escape(', '.join(line.failure_causes))}")
        if line.problem and not line.success:
            console.print(f"      {escape(line.problem)}", soft_wrap=True)
    missing = [task for task in bench.tasks if task not in {r.task_id for r in results}]
    if missing:
        console.print(f"  no result yet: {escape(', '.join(missing))}")


def print_summary(store: BenchStore, bench_id: str, output: RunOutput | None = None) -> None:
    """The run's metrics: one line, or the ``result`` event of ``--json``."""
    from pcagent.bench.report import summary

    summed = summary(store, store.get(bench_id))
    metrics = summed["metrics"]

    def percent(key: str) -> str:
        return _percent(metrics.get(key))

    # the figures the goals are about first; a failure that said done is a false "finished"
    line = (
        f"SR {percent('SR')}  SSR {percent('SSR')}  CR {percent('CR')}  "
        f"model decisions {percent('model_decision_share')}  "
        f"said done but failed {summed['failure_causes'].get('false_done', 0)}  "
        f"recovery {percent('recovery_rate')}  manager accuracy {percent('manager_accuracy')}  "
        f"reset median {metrics.get('reset_seconds_median', 0):.2f} s"
    )
    if output is None:
        console.print(line)
    else:
        output.result([line], bench_id=bench_id, metrics=metrics)
