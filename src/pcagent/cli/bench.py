"""``pcagent bench compare|generate`` and the ``bench`` group (with, from their own modules,
``run``, ``list|report`` and ``tasks|new|validate|checkers``): the PC-Eval-style benchmark, and
training tasks composed from sub-task templates."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from pcagent.cli.bench_results import list_bench_runs, report
from pcagent.cli.bench_run import run
from pcagent.cli.bench_tasks import list_checkers, list_tasks, new_task, validate_tasks
from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.config import load_config
from pcagent.errors import BenchError

if TYPE_CHECKING:
    from pcagent.bench.comparison import ComparedOutcome, ComparedRun
    from pcagent.bench.results import BenchRun, BenchStore

bench_app = typer.Typer(
    cls=ConventionalGroup, help="Run the benchmark tasks and report on them.", no_args_is_help=True
)
console = Console()
bench_app.command("list")(list_bench_runs)
bench_app.command("report")(report)
bench_app.command("tasks")(list_tasks)
bench_app.command("new")(new_task)
bench_app.command("validate")(validate_tasks)
bench_app.command("checkers")(list_checkers)
bench_app.command("run")(run)


@bench_app.command("compare")
@reports_errors
def compare(
    first: Annotated[str, typer.Argument(help="A benchmark run (e.g. of the 25 tasks).")],
    second: Annotated[
        str, typer.Argument(help="Another run (e.g. of tasks_reworded/); either may be 'latest'.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead.")] = False,
) -> None:
    """Two benchmark runs side by side, one row per original task (a rewording counts under the
    task it rewords), with each run's SR and the difference in points."""
    from pcagent.bench.comparison import compare_runs
    from pcagent.bench.results import BenchStore

    with BenchStore(load_config().data_dir / "bench") as store:
        comparison = compare_runs(store, _run_named(store, first), _run_named(store, second))
    if as_json:
        print(comparison.model_dump_json(indent=1))
        return
    table = Table("task", comparison.first.bench_id, comparison.second.bench_id)
    for row in comparison.tasks:
        table.add_row(
            row.original, _outcomes(row.original, row.first), _outcomes(row.original, row.second)
        )
    console.print(table)
    for side in (comparison.first, comparison.second):
        console.print(_side_line(side))
    if comparison.difference_points is not None:
        console.print(f"difference: {comparison.difference_points:+.1f} points (second - first)")
    if (shared := comparison.shared) is not None:
        console.print("[yellow]the runs have results for different tasks[/yellow]")
        console.print(
            f"over the tasks both ran ({shared.first_results} and {shared.second_results} "
            f"results): SR {100 * shared.first_rate:.1f}% and {100 * shared.second_rate:.1f}%, "
            f"{shared.difference_points:+.1f} points"
        )
    codes = {**comparison.first.codes, **comparison.second.codes}
    console.print(_code_line(comparison.same_code, codes))


def _run_named(store: BenchStore, bench_id: str) -> BenchRun:
    """The stored run ``bench_id`` (an id or its start), or the latest for "latest"."""
    bench = store.latest() if bench_id == "latest" else store.get(bench_id)
    if bench is None:
        raise BenchError("no benchmark run yet; run `pcagent bench run` first")
    return bench


def _outcomes(original: str, outcomes: list[ComparedOutcome]) -> str:
    """One side's verdicts on a row: "pass", or "pc01r1 pass, pc01r2 fail" when the results are
    other tasks' than the row's (its rewordings); "–" for none."""
    if not outcomes:
        return "–"

    def verdict(outcome: ComparedOutcome) -> str:
        return "[green]pass[/green]" if outcome.success else "[red]fail[/red]"

    return ", ".join(
        verdict(o) if o.task_id == original else f"{escape(o.task_id)} {verdict(o)}"
        for o in outcomes
    )


def _code_line(same: bool | None, codes: dict[str, int]) -> str:
    """Whether the two runs' figures come from one version of the code."""
    if same:
        return f"both runs ran one version of the code: {escape(next(iter(codes)))}"
    if same is None:
        return "[yellow]unknown whether both ran one version of the code[/yellow]"
    return "[yellow]the runs ran different versions of the code (see each run's line)[/yellow]"


def _side_line(side: ComparedRun) -> str:
    from pcagent.bench.listing import codes_text

    rate = "–" if side.success_rate is None else f"{100 * side.success_rate:.1f}%"
    where = escape(side.tasks_dir) if side.tasks_dir else "built-in tasks"
    codes = codes_text(side.codes)
    return (
        f"{side.bench_id}: SR {rate} over {side.tasks} tasks, agent {escape(side.agent)}"
        f"{' ' + escape(side.model) if side.model else ''} ({where}), code {escape(codes or '-')}"
    )


@bench_app.command("generate")
@reports_errors
def generate(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the task files into.")],
    count: Annotated[int, typer.Option("--count", "-n", help="How many tasks.")] = 20,
    seed: Annotated[int, typer.Option(help="Random seed; the same seed gives the same tasks.")] = 0,
) -> None:
    """Compose training tasks from sub-task templates and write them as task files
    (run them with bench run --tasks-dir)."""
    from pcagent.bench.generate import generate_tasks, write_task_files

    tasks = generate_tasks(count, seed)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console
    ) as progress:
        bar = progress.add_task("writing", total=len(tasks))
        written = write_task_files(tasks, out, on_written=lambda _path: progress.advance(bar))
    single = sum(1 for task in tasks if len(task.apps) == 1)
    console.print(
        f"wrote {len(written)} tasks (seed {seed}; {single} in one application, "
        f"{len(tasks) - single} in several) to {escape(str(out))}"
    )
