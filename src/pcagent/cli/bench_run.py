"""``pcagent bench run``: run benchmark tasks in fresh sandboxes (or on Ray) and store the results.

The command has many options (agents, models, served desktops, Ray's resources, resuming a
stored run); each is checked before a sandbox starts, so a mistake costs nothing. The other
``bench`` commands live in :mod:`.bench`, :mod:`.bench_results` and :mod:`.bench_tasks`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pcagent.bench.ray_resources import DEFAULT_ATTEMPTS, DEFAULT_TASK_TIMEOUT, ActorResources
from pcagent.cli.bench_options import (
    AGENTS,
    DEFAULT_ACTOR,
    ActorCpusOption,
    ActorMemoryOption,
    ActorsOption,
    AgentOption,
    AttemptsOption,
    EnvironmentOption,
    EnvironmentTokenOption,
    ParallelOption,
    ProfileOption,
    RayOption,
    RecordToOption,
    ResumeOption,
    StepCapOption,
    TasksOption,
    TaskTimeoutOption,
)
from pcagent.cli.bench_results import print_summary
from pcagent.cli.bench_tasks import CrossOption, TasksDirOption
from pcagent.cli.errors import reports_errors
from pcagent.cli.options import (
    CONFIGURED_MODEL,
    AblationOption,
    ExperienceOption,
    ModelChoice,
    config_with,
    takes_model_choice,
)
from pcagent.cli.run_output import JsonOption, QuietOption, RunOutput, output_mode
from pcagent.config import PcAgentConfig, load_config
from pcagent.errors import BenchError, ConfigurationError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pcagent.bench.environments import RemoteDesktop
    from pcagent.bench.results import BenchRun, BenchStore
    from pcagent.bench.task_run import TaskRun
    from pcagent.bench.tasks import Task
    from pcagent.models.served import ServedModel
    from pcagent.runtime.loop.ablations import Ablation

console = Console()


class RayChoices(NamedTuple):
    """How a benchmark run uses Ray: its address, its actors and what each may use, named as
    :func:`~pcagent.bench.ray_runner.run_tasks_on_ray` takes them."""

    address: str
    actors: int
    resources: ActorResources
    max_attempts: int
    task_timeout: float


@reports_errors
@takes_model_choice(ProfileOption)
def run(
    tasks: TasksOption = None,
    agent: AgentOption = "pcagent",
    model: ModelChoice = CONFIGURED_MODEL,
    ablation: AblationOption = "none",
    parallel: ParallelOption = 1,
    max_steps: StepCapOption = None,
    tasks_dir: TasksDirOption = None,
    cross: CrossOption = False,
    environment: EnvironmentOption = None,
    environment_token: EnvironmentTokenOption = None,
    experience: ExperienceOption = None,
    record_to: RecordToOption = None,
    resume: ResumeOption = None,
    ray: RayOption = None,
    actors: ActorsOption = 2,
    actor_cpus: ActorCpusOption = DEFAULT_ACTOR.cpus,
    actor_memory: ActorMemoryOption = DEFAULT_ACTOR.memory_gb,
    task_timeout: TaskTimeoutOption = DEFAULT_TASK_TIMEOUT,
    attempts: AttemptsOption = DEFAULT_ATTEMPTS,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Run tasks in fresh sandboxes and store the results (see bench report)."""
    from pcagent.bench.results import BenchStore
    from pcagent.bench.tasks import cross_tasks_folder, select_tasks
    from pcagent.runtime.loop.ablations import check_ablation

    mode = output_mode(quiet, as_json)
    if ray is not None:
        _check_ray_companions(parallel, record_to)
    resumed = None
    profile, served = model.profile, model.served()
    if resume is not None:
        resumed = _resumable(resume, tasks, tasks_dir, cross, record_to)
        agent, ablation = resumed.agent, resumed.ablation
        if resumed.model_server is not None:
            profile, served = None, resumed.model_server
        else:
            profile, served = resumed.model or profile, None
        experience = Path(resumed.experience) if resumed.experience else experience
        tasks_dir = Path(resumed.tasks_dir) if resumed.tasks_dir else None
        tasks = resumed.tasks
        max_steps = _resumed_step_cap(resumed, max_steps)
    if agent not in AGENTS:
        raise ConfigurationError(f"unknown agent {agent!r}; use one of: {', '.join(AGENTS)}")
    checked = check_ablation(ablation)
    config = config_with(
        max_steps, profile, experience, served, notice=lambda line: console.print(escape(line))
    )
    config = config if ray is not None else _timed(config, task_timeout)
    chosen = with_their_reference(select_tasks(tasks, tasks_dir, cross=cross), agent)
    remotes = _checked_desktops(chosen, ray, environment or [], environment_token or [], parallel)
    task_folder = cross_tasks_folder() if cross else tasks_dir
    _check_bench_setting(config, chosen, agent, checked, record_to)
    with BenchStore(config.data_dir / "bench") as store:
        bench, chosen, started = _started_bench(
            store, resumed, chosen, agent, served, profile, checked, task_folder, config
        )
        with _task_bars(mode) as progress, RunOutput(mode, bars=progress) as output:
            output.say(started)
            output.emit("bench_start", bench_id=bench.bench_id, tasks=[t.id for t in chosen])
            done = _result_recorder(store, bench.bench_id, progress, output, len(chosen))
            ray_choices = None
            if ray is not None:
                resources = ActorResources(cpus=actor_cpus, memory_gb=actor_memory)
                ray_choices = RayChoices(ray, actors, resources, attempts, task_timeout)
            _run_chosen(
                chosen,
                agent,
                config,
                checked,
                done,
                remotes,
                output,
                ray=ray_choices,
                parallel=parallel,
                record_to=record_to,
            )
        print_summary(store, bench.bench_id, output)  # below the progress display, once gone


def _timed(config: PcAgentConfig, task_timeout: float) -> PcAgentConfig:
    """``config`` whose runs stop before a step once ``task_timeout`` seconds are spent: off
    Ray, where no actor can be ended under a task, the run ends itself."""
    return config.model_copy(
        update={"run": config.run.model_copy(update={"time_budget": task_timeout})}
    )


def _check_ray_companions(parallel: int, record_to: Path | None) -> None:
    """On Ray the tasks run on the actors: options about this machine are refused beside --ray."""
    if parallel != 1:
        raise ConfigurationError("--parallel runs threads on this machine; with --ray use --actors")
    if record_to is not None:
        raise ConfigurationError("--record-to records on this machine; leave out --ray")


def _resumable(
    bench_id: str,
    tasks: list[str] | None,
    tasks_dir: Path | None,
    cross: bool,
    record_to: Path | None,
) -> BenchRun:
    """The stored run ``--resume`` names; the options it replaces are refused beside it."""
    if tasks or tasks_dir or cross or record_to is not None:
        raise ConfigurationError(
            "--resume takes the tasks of the stored run; leave out --tasks, --tasks-dir, "
            "--cross and --record-to"
        )
    return _stored_run(bench_id)


def _resumed_step_cap(resumed: BenchRun, asked: int | None) -> int | None:
    """The step cap a resumed run goes on with: the one it began with (the rest of its tasks
    measured otherwise would not be the same measurement); ``--max-steps`` only for a run that
    did not keep its cap."""
    if resumed.max_steps is None:
        return asked
    if asked is not None and asked != resumed.max_steps:
        raise ConfigurationError(
            f"benchmark run {resumed.bench_id} runs with --max-steps {resumed.max_steps}; "
            "leave out --max-steps to resume it"
        )
    return resumed.max_steps


def _checked_desktops(
    chosen: list[Task], ray: str | None, urls: list[str], tokens: list[str], parallel: int
) -> dict[str, RemoteDesktop] | list[dict[str, RemoteDesktop]]:
    """The served desktops the cross-environment tasks work on, checked against the tasks: one
    set for this machine, or on Ray (where a name may repeat) one set per actor."""
    from pcagent.bench.environments import (
        check_remote_desktops,
        parse_assignments,
        remote_desktop_sets,
        remote_desktops,
    )

    if ray is not None:
        sets = remote_desktop_sets(urls, tokens)
        for remotes in sets:
            check_remote_desktops(chosen, remotes, 1)
        return sets
    remotes = remote_desktops(
        parse_assignments(urls, "--environment"),
        parse_assignments(tokens, "--environment-token"),
    )
    check_remote_desktops(chosen, remotes, parallel)
    return remotes


def _check_bench_setting(
    config: PcAgentConfig, chosen: list[Task], agent: str, ablation: str, record_to: Path | None
) -> None:
    """--record-to only with a reference agent, and no experience built from the chosen tasks
    themselves (a benchmark that has seen its answers measures nothing)."""
    if record_to is not None and agent not in ("reference", "reference-api"):
        raise ConfigurationError("--record-to records reference solutions; use --agent reference")
    if config.run.experience and agent == "pcagent" and ablation != "no_experience":
        from pcagent.bench.experience_leakage import check_no_leakage

        check_no_leakage(Path(config.run.experience), chosen)


def _started_bench(
    store: BenchStore,
    resumed: BenchRun | None,
    chosen: list[Task],
    agent: str,
    served: ServedModel | None,
    model: str | None,
    ablation: Ablation,
    task_folder: Path | None,
    config: PcAgentConfig,
) -> tuple[BenchRun, list[Task], str]:
    """The benchmark run the results go to, the tasks still to run and the line that says so: a
    resumed run keeps its stored id and runs only the tasks without a result."""
    if resumed is not None:
        from pcagent.bench.listing import other_code

        results = store.results(resumed.bench_id)
        done = {result.task_id for result in results}
        chosen = [task for task in chosen if task.id not in done]
        started = (
            f"benchmark run {resumed.bench_id} resumed: {len(done)} tasks done, "
            f"{len(chosen)} to run, agent {agent}{other_code(results)}"
        )
        return resumed, chosen, started
    bench = store.create(
        agent,
        [t.id for t in chosen],
        served.name if served is not None else model or "",
        ablation,
        model_server=served,
        tasks_dir=str(task_folder.resolve()) if task_folder is not None else "",
        experience=config.run.experience if agent == "pcagent" else "",
        max_steps=config.run.max_steps,
    )
    return bench, chosen, f"benchmark run {bench.bench_id}: {len(chosen)} tasks, agent {agent}"


def _task_bars(mode: str) -> Progress:
    """The tasks' progress bar, shown in text mode only."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=mode != "text",
    )


def _result_recorder(
    store: BenchStore, bench_id: str, progress: Progress, output: RunOutput, total: int
) -> Callable[[TaskRun], None]:
    """What each finished task goes to: the store first (a result is never lost to a display
    error), then a line or a JSON event, then the bar."""
    bar = progress.add_task("tasks", total=total)

    def done(result: TaskRun) -> None:
        store.add(bench_id, result)
        outcome = result.outcome
        mark = "[green]pass[/green]" if outcome.success else "[red]fail[/red]"
        retried = f", {result.attempts} attempts" if result.attempts > 1 else ""
        if output.mode == "text":
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

    return done


def _run_chosen(
    chosen: list[Task],
    agent: str,
    config: PcAgentConfig,
    ablation: Ablation,
    done: Callable[[TaskRun], None],
    remotes: object,
    output: RunOutput,
    *,
    ray: RayChoices | None,
    parallel: int,
    record_to: Path | None,
) -> None:
    """The chosen tasks, each result to ``done`` as it comes: on Ray's actors where ``ray`` says
    how, else in ``parallel`` sandboxes on this machine (recording them into ``record_to``);
    none (a resumed run with every result in) starts nothing."""
    if not chosen:
        return
    both_take: dict[str, Any] = {
        "config": config,
        "ablation": ablation,
        "on_result": done,
        "remotes": remotes,
    }
    if ray is None:
        from pcagent.bench.runner import run_tasks

        run_tasks(
            chosen,
            agent,  # type: ignore[arg-type]
            parallel=parallel,
            record_to=record_to,
            progress=output.progress,
            **both_take,
        )
        return
    from pcagent.bench.ray_runner import run_tasks_on_ray

    run_tasks_on_ray(
        chosen,
        agent,  # type: ignore[arg-type]
        **ray._asdict(),
        notice=lambda message: output.log(f"  {message}"),
        **both_take,
    )


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
