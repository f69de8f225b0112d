"""``pcagent bench run|compare|generate`` (and, from their own modules, ``list|report``
and ``tasks|new|validate|checkers``): the PC-Eval-style benchmark, and training tasks composed
from sub-task templates."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pcagent.bench.ray_resources import DEFAULT_ATTEMPTS, DEFAULT_TASK_TIMEOUT, ActorResources
from pcagent.cli.bench_results import list_bench_runs, print_summary, report
from pcagent.cli.bench_tasks import (
    CrossOption,
    TasksDirOption,
    list_checkers,
    list_tasks,
    new_task,
    validate_tasks,
)
from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.cli.options import (
    AblationOption,
    ApiKeyEnvOption,
    ExperienceOption,
    ModelNameOption,
    ModelUrlOption,
    VisionOption,
    config_with,
    served_model,
)
from pcagent.cli.run_output import JsonOption, QuietOption, RunOutput, output_mode
from pcagent.config import load_config
from pcagent.errors import BenchError, ConfigurationError

if TYPE_CHECKING:
    from pcagent.bench.comparison import ComparedOutcome, ComparedRun
    from pcagent.bench.results import BenchRun, BenchStore
    from pcagent.bench.task_run import TaskRun
    from pcagent.bench.tasks import Task

bench_app = typer.Typer(
    cls=ConventionalGroup, help="Run the benchmark tasks and report on them.", no_args_is_help=True
)
console = Console()
AGENTS = ("pcagent", "reference", "reference-api", "noop")
#: What an actor reserves on Ray unless told otherwise.
DEFAULT_ACTOR = ActorResources()
bench_app.command("list")(list_bench_runs)
bench_app.command("report")(report)
bench_app.command("tasks")(list_tasks)
bench_app.command("new")(new_task)
bench_app.command("validate")(validate_tasks)
bench_app.command("checkers")(list_checkers)


@bench_app.command("run")
@reports_errors
def run(
    tasks: Annotated[
        list[str] | None,
        typer.Option("--tasks", "-t", help="Task ids (repeatable); all by default."),
    ] = None,
    agent: Annotated[
        str,
        typer.Option(
            metavar="[" + "|".join(AGENTS) + "]",
            help="Who does the tasks: pcagent, the task's reference solution through the GUI "
            "(reference) or with application actions (reference-api), or nobody (noop).",
        ),
    ] = "pcagent",
    model: Annotated[
        str | None, typer.Option(metavar="PROFILE", help="Model profile for every agent role.")
    ] = None,
    model_url: ModelUrlOption = None,
    model_name: ModelNameOption = None,
    vision: VisionOption = None,
    api_key_env: ApiKeyEnvOption = None,
    ablation: AblationOption = "none",
    parallel: Annotated[int, typer.Option(help="Sandboxes side by side.", min=1, max=8)] = 1,
    max_steps: Annotated[int | None, typer.Option("--max-steps", help="Step cap per task.")] = None,
    tasks_dir: TasksDirOption = None,
    cross: CrossOption = False,
    environment: Annotated[
        list[str] | None,
        typer.Option(
            "--environment",
            metavar="NAME=URL",
            help="A cross-environment task's further environment NAME is the desktop "
            "pcagent serve serves there (repeatable; default: a second local sandbox). With "
            "--ray a NAME may repeat: one served desktop per actor.",
        ),
    ] = None,
    environment_token: Annotated[
        list[str] | None,
        typer.Option(
            "--environment-token",
            metavar="NAME=PATH",
            help="The token file of the server given for NAME with --environment.",
        ),
    ] = None,
    experience: ExperienceOption = None,
    record_to: Annotated[
        Path | None,
        typer.Option(
            "--record-to",
            help="Record the reference solutions (agents reference/reference-api) as runs in "
            "this folder, with their screens: what pcagent experience build learns from.",
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Go on with this stored benchmark run (an id, or 'latest'): only its tasks "
            "without a result run, with its agent, model, ablation, tasks and page graph.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on Ray: no address (or 'local') starts a Ray instance on this machine; "
            "'auto', HOST:PORT or ray://HOST:10001 joins an existing cluster (docs/bench.md).",
        ),
    ] = None,
    actors: Annotated[
        int, typer.Option(help="With --ray: actors, each owning one sandbox.", min=1)
    ] = 2,
    actor_cpus: Annotated[
        float, typer.Option(help="With --ray: CPUs each actor reserves.", min=0)
    ] = DEFAULT_ACTOR.cpus,
    actor_memory: Annotated[
        float, typer.Option(help="With --ray: GiB of memory each actor reserves.", min=0)
    ] = DEFAULT_ACTOR.memory_gb,
    task_timeout: Annotated[
        float,
        typer.Option(help="With --ray: seconds a task may run before it is ended.", min=1),
    ] = DEFAULT_TASK_TIMEOUT,
    attempts: Annotated[
        int,
        typer.Option(help="With --ray: starts of a task whose worker dies under it.", min=1),
    ] = DEFAULT_ATTEMPTS,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Run tasks in fresh sandboxes and store the results (see bench report)."""
    from pcagent.bench.environments import (
        check_remote_desktops,
        parse_assignments,
        remote_desktop_sets,
        remote_desktops,
    )
    from pcagent.bench.results import BenchStore
    from pcagent.bench.runner import run_tasks
    from pcagent.bench.tasks import cross_tasks_folder, select_tasks
    from pcagent.runtime.ablations import check_ablation

    mode = output_mode(quiet, as_json)
    if ray is not None and parallel != 1:
        raise ConfigurationError("--parallel runs threads on this machine; with --ray use --actors")
    if ray is not None and record_to is not None:
        raise ConfigurationError("--record-to records on this machine; leave out --ray")
    resumed = None
    served = served_model(model, model_url, model_name, vision, api_key_env)
    if resume is not None:
        if tasks or tasks_dir or cross or record_to is not None:
            raise ConfigurationError(
                "--resume takes the tasks of the stored run; leave out --tasks, --tasks-dir, "
                "--cross and --record-to"
            )
        resumed = _stored_run(resume)
        agent, ablation = resumed.agent, resumed.ablation
        if resumed.model_server is not None:
            model, served = None, resumed.model_server
        else:
            model, served = resumed.model or model, None
        experience = Path(resumed.experience) if resumed.experience else experience
        tasks_dir = Path(resumed.tasks_dir) if resumed.tasks_dir else None
        tasks = resumed.tasks
    if agent not in AGENTS:
        raise ConfigurationError(f"unknown agent {agent!r}; use one of: {', '.join(AGENTS)}")
    checked = check_ablation(ablation)
    config = config_with(
        max_steps, model, experience, served, notice=lambda line: console.print(escape(line))
    )
    chosen = with_their_reference(select_tasks(tasks, tasks_dir, cross=cross), agent)
    if ray is not None:
        # On Ray a name may repeat: one served desktop per actor.
        served = remote_desktop_sets(environment or [], environment_token or [])
        for remotes in served:
            check_remote_desktops(chosen, remotes, 1)
    else:
        remotes = remote_desktops(
            parse_assignments(environment or [], "--environment"),
            parse_assignments(environment_token or [], "--environment-token"),
        )
        check_remote_desktops(chosen, remotes, parallel)
    task_folder = cross_tasks_folder() if cross else tasks_dir
    if record_to is not None and agent not in ("reference", "reference-api"):
        raise ConfigurationError("--record-to records reference solutions; use --agent reference")
    if config.run.experience and agent == "pcagent" and checked != "no_experience":
        from pcagent.bench.experience_leakage import check_no_leakage

        check_no_leakage(Path(config.run.experience), chosen)
    with BenchStore(config.data_dir / "bench") as store:
        if resumed is not None:
            bench = resumed
            done = {result.task_id for result in store.results(bench.bench_id)}
            chosen = [task for task in chosen if task.id not in done]
            started = (
                f"benchmark run {bench.bench_id} resumed: {len(done)} tasks done, "
                f"{len(chosen)} to run, agent {agent}"
            )
        else:
            bench = store.create(
                agent,
                [t.id for t in chosen],
                served.name if served is not None else model or "",
                checked,
                model_server=served,
                tasks_dir=str(task_folder.resolve()) if task_folder is not None else "",
                experience=config.run.experience if agent == "pcagent" else "",
            )
            started = f"benchmark run {bench.bench_id}: {len(chosen)} tasks, agent {agent}"
        with (
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                disable=mode != "text",
            ) as progress,
            RunOutput(mode, bars=progress) as output,
        ):
            output.say(started)
            output.emit("bench_start", bench_id=bench.bench_id, tasks=[t.id for t in chosen])
            bar = progress.add_task("tasks", total=len(chosen))

            def done(result: TaskRun) -> None:
                store.add(bench.bench_id, result)
                outcome = result.outcome
                mark = "[green]pass[/green]" if outcome.success else "[red]fail[/red]"
                retried = f", {result.attempts} attempts" if result.attempts > 1 else ""
                if mode == "text":
                    progress.console.print(
                        f"  {outcome.task_id} {mark} completion {outcome.completion_ratio:.0%} "
                        f"({outcome.actions} actions, {outcome.seconds:.0f} s, reset "
                        f"{outcome.reset_seconds:.1f} s{retried})"
                    )
                output.emit(
                    "task_result",
                    task=outcome.task_id,
                    success=outcome.success,
                    completion_ratio=outcome.completion_ratio,
                    actions=outcome.actions,
                    seconds=round(outcome.seconds, 3),
                    run_id=result.run_id,
                    error=result.error,
                )
                progress.advance(bar)

            if ray is not None:
                from pcagent.bench.ray_runner import run_tasks_on_ray

                run_tasks_on_ray(
                    chosen,
                    agent,  # type: ignore[arg-type]
                    address=ray,
                    actors=actors,
                    config=config,
                    ablation=checked,
                    on_result=done,
                    resources=ActorResources(cpus=actor_cpus, memory_gb=actor_memory),
                    max_attempts=attempts,
                    task_timeout=task_timeout,
                    remotes=served,
                    notice=lambda message: output.log(f"  {message}"),
                )
            else:
                run_tasks(
                    chosen,
                    agent,  # type: ignore[arg-type]
                    parallel=parallel,
                    config=config,
                    ablation=checked,
                    on_result=done,
                    record_to=record_to,
                    remotes=remotes,
                    progress=output.progress,
                )
        print_summary(store, bench.bench_id, output)  # below the progress display, once gone


def with_their_reference(tasks: list[Task], agent: str) -> list[Task]:
    """The tasks ``agent`` can do: a reference agent skips, saying so, each task without the
    reference solution it runs (a task runs with the references it has)."""
    if agent not in ("reference", "reference-api"):
        return tasks
    api = agent == "reference-api"
    kind = "with application actions (reference_api)" if api else "through the GUI (reference)"
    kept = [task for task in tasks if task.has_reference(api)]
    for task in tasks:
        if not task.has_reference(api):
            console.print(f"skipping {task.id}: it has no reference solution {kind}")
    if not kept:
        raise BenchError(f"none of the chosen tasks has a reference solution {kind}")
    return kept


def _stored_run(bench_id: str) -> BenchRun:
    """The stored benchmark run ``bench_id`` (or the latest), for ``--resume``."""
    from pcagent.bench.results import BenchStore

    with BenchStore(load_config().data_dir / "bench") as store:
        bench = store.latest() if bench_id == "latest" else store.get(bench_id)
    if bench is None:
        raise BenchError("no benchmark run to resume yet")
    return bench


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


def _side_line(side: ComparedRun) -> str:
    rate = "–" if side.success_rate is None else f"{100 * side.success_rate:.1f}%"
    where = escape(side.tasks_dir) if side.tasks_dir else "built-in tasks"
    return (
        f"{side.bench_id}: SR {rate} over {side.tasks} tasks, agent {escape(side.agent)}"
        f"{' ' + escape(side.model) if side.model else ''} ({where})"
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
