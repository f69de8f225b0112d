"""``pcagent run`` and ``pcagent runs list|show|resume|replay|rewind|restore-unsaved|import|gif``.

Every command checks its input (the instruction, the ablation, the mode, the run id, the files)
before a desktop starts, so a typo costs nothing and leaves no run behind.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.cli.options import (
    AblationOption,
    ExperienceOption,
    MaxStepsOption,
    ModelOption,
    ModeOption,
    config_with,
)
from pcagent.config import PcAgentConfig, load_config
from pcagent.errors import ConfigurationError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pcagent.assembly import RunChoices, RunParts
    from pcagent.runtime.record_models import RunRecord, StepRecord
    from pcagent.runtime.replay import ReplayedStep
    from pcagent.runtime.session import RunOutcome

runs_app = typer.Typer(
    help="Inspect, resume, replay and rewind recorded runs.", no_args_is_help=True
)
console = Console()

RunIdArgument = Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")]
CertificateOption = Annotated[
    Path | None,
    typer.Option("--certificate", help="The server's TLS certificate (https --remote or --also)."),
]
AlsoOption = Annotated[
    list[str] | None,
    typer.Option(
        "--also",
        help="NAME=URL: a further desktop `pcagent serve` serves, for a task across "
        "desktops (repeatable); the run's own desktop is called main, and the plan says "
        "which desktop each subtask works on.",
    ),
]
AlsoTokenOption = Annotated[
    list[str] | None,
    typer.Option("--also-token", help="NAME=PATH: the token file of the --also desktop NAME."),
]
VERDICT_COLOURS = {"success": "green", "no_change": "yellow", "unexpected_change": "red"}


def print_step(record: StepRecord) -> None:
    """One line per step: number, subtask and role, the action with its arguments, Reflection's
    verdict, and what went wrong if something did."""
    action = record.action
    kind = action.kind if action is not None else "-"
    arguments = ""
    if action is not None:
        fields = action.model_dump(exclude={"kind"})
        arguments = ", ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None)
    verdict = record.reflection.verdict if record.reflection is not None else ""
    colour = VERDICT_COLOURS.get(verdict, "white")
    problem = record.error or ""
    result = record.result
    if not problem and result is not None and not result.ok:
        problem = f"{result.error}: {result.message}" if result.error else result.message
    console.print(
        f"[bold]{record.step:>3}[/bold] "
        + escape(f"[{record.subtask_id} {record.role}] ")
        + escape(f"{kind}({arguments})")
        + f"  [{colour}]{verdict}[/{colour}]"
        + (f"  [red]{escape(problem)}[/red]" if problem else "")
    )


def _log(message: str) -> None:
    console.print(f"[dim]{escape(message)}[/dim]")


def _announce(choices: RunChoices) -> None:
    if choices.attached:
        snapshots = "snapshotted" if choices.config.run.snapshot_home else "not snapshotted"
        console.print(
            f"attached to display {escape(str(choices.display))} in {choices.mode} mode: "
            f"HOME is {snapshots}"
            + (", sensitive actions wait for your yes here" if choices.mode != "auto" else "")
        )
    else:
        console.print(f"starting the sandbox desktop ({choices.mode} mode)...")


def _report(outcome: RunOutcome, config: PcAgentConfig) -> None:
    colour = {"finished": "green", "unverified": "yellow"}.get(outcome.status, "red")
    console.print(
        f"[{colour}]run {outcome.status}[/{colour}]: {escape(outcome.summary)} "
        f"({outcome.steps} steps, {outcome.tokens} tokens)"
    )
    console.print(
        f"record: {config.runs_dir / outcome.run_id}  (pcagent runs show {outcome.run_id})"
    )
    if outcome.status != "finished":
        raise typer.Exit(code=1)


def _copy_into(home: Path, files: list[Path]) -> None:
    from pcagent.env.ownership import give_to_owner

    for path in files:
        target = home / path.name
        if path.is_dir():
            shutil.copytree(path, target, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target)
        give_to_owner(target, home)  # the sandbox's applications run as HOME's owner
        console.print(f"  copied {path} to {target}")


def _recorded_run(config: PcAgentConfig, run_id: str) -> RunRecord:
    """The run ``run_id`` names; :class:`~pcagent.errors.RunNotFoundError` (listing recent
    runs) when there is none."""
    from pcagent.runtime.records import RunStore

    with RunStore(config.runs_dir) as store:
        return store.get_run(run_id)


def _continuing(
    run_id: str, mode: str | None, max_steps: int | None, model: str | None
) -> tuple[RunRecord, RunChoices]:
    """The recorded run to continue, and the choices to continue it with: its own ablation, in
    a fresh sandbox (a recorded HOME is never restored into the person's own)."""
    from pcagent.assembly import RunChoices

    config = config_with(max_steps, model)
    record = _recorded_run(config, run_id)
    ablation = str(record.settings.get("ablation", "none"))
    choices = RunChoices.of(config, ablation=ablation, mode=mode, may_attach=False)
    _announce(choices)
    return record, choices


@reports_errors
def run_command(
    instruction: Annotated[str, typer.Argument(help="What to do, in plain words.")],
    mode: ModeOption = None,
    ablation: AblationOption = "none",
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
    experience: ExperienceOption = None,
    files: Annotated[
        list[Path] | None,
        typer.Option("--file", "-f", help="Copy this file or folder into the sandbox HOME first."),
    ] = None,
    display: Annotated[
        str | None,
        typer.Option(
            "--display",
            help="Work on this X display (e.g. :0, your own desktop) instead of a sandbox "
            "(default: desktop.display). Passive mode and no HOME snapshots unless asked.",
        ),
    ] = None,
    snapshot_home: Annotated[
        bool | None,
        typer.Option(
            "--snapshot-home/--no-snapshot-home",
            help="Snapshot HOME after every step (default: run.snapshot_home; off with --display).",
        ),
    ] = None,
    remote: Annotated[
        str | None,
        typer.Option(
            "--remote",
            help="Work on the desktop `pcagent serve` serves at this address "
            "(e.g. http://127.0.0.1:8765) instead of a sandbox of its own.",
        ),
    ] = None,
    token_file: Annotated[
        Path | None,
        typer.Option("--token-file", help="The token file `pcagent serve` wrote (with --remote)."),
    ] = None,
    certificate: CertificateOption = None,
    also: AlsoOption = None,
    also_token: AlsoTokenOption = None,
) -> None:
    """Carry out INSTRUCTION in a fresh sandbox (or on --display, or --remote) with the
    configured model; with --also, across that desktop and further served ones.

    Exit status 0: the run finished; 1: it failed; 2: an error before or around it."""
    from pcagent.assembly import RunChoices

    if not instruction.strip():
        raise ConfigurationError(
            'the instruction is empty; say what the run should do, e.g. pcagent run "Open the '
            'calculator and compute 12 * 7"'
        )
    files = files or []
    if remote is not None:
        _check_remote(remote, token_file, display, files)
    further = _further_desktops(also or [], also_token or [])
    choices = RunChoices.of(
        config_with(max_steps, model, experience),
        ablation=ablation,
        display=display,
        mode=mode,
        snapshot_home=False if remote is not None else snapshot_home,
    )
    if files and choices.attached:
        raise ConfigurationError(
            "--file copies into the sandbox's HOME, and on an attached display that is your own "
            "HOME; put the files where you want them and name them in the instruction"
        )
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        raise ConfigurationError(f"files to copy into the sandbox do not exist: {missing}")
    with contextlib.ExitStack() as stack:
        environment = None
        if remote is not None:
            from pcagent.env.remote_client import connect

            environment = stack.enter_context(
                contextlib.closing(connect(remote, token_file=token_file, certificate=certificate))
            )
            console.print(f"working on the remote desktop at {escape(remote)}")
        else:
            _announce(choices)
        if further:
            environment = _with_further_desktops(stack, choices, environment, further, certificate)
        parts = _open_parts(stack, choices, environment)
        if files:
            _copy_into(parts.environment.home, files)
        outcome = parts.session().start(instruction)
    _report(outcome, choices.config)


def _further_desktops(also: list[str], tokens: list[str]) -> dict[str, tuple[str, Path]]:
    """--also NAME=URL with --also-token NAME=PATH, checked before anything starts."""
    from pcagent.bench.environments import parse_assignments, remote_desktops

    desktops = remote_desktops(
        parse_assignments(also, "--also"), parse_assignments(tokens, "--also-token")
    )
    if "main" in desktops:
        raise ConfigurationError("main is the run's own desktop; give the others other names")
    return {name: (desktop.url, desktop.token_file) for name, desktop in desktops.items()}


def _with_further_desktops(
    stack: contextlib.ExitStack,
    choices: RunChoices,
    environment: object,
    further: dict[str, tuple[str, Path]],
    certificate: Path | None,
) -> object:
    """The run's own desktop (started here unless it is --remote) and the --also desktops, as
    one environment the run switches between by subtask."""
    from pcagent.assembly import open_environment
    from pcagent.env.environment_set import environment_set
    from pcagent.env.remote_client import connect

    if environment is None:
        environment = stack.enter_context(open_environment(choices, log=_log))
    members: dict[str, object] = {"main": environment}
    for name, (url, token) in further.items():
        members[name] = stack.enter_context(
            contextlib.closing(connect(url, token_file=token, certificate=certificate))
        )
        console.print(f"also working on the desktop {escape(name)} at {escape(url)}")
    return environment_set(members)  # type: ignore[arg-type]


def _check_remote(
    remote: str, token_file: Path | None, display: str | None, files: list[Path]
) -> None:
    """--remote's companions, checked before anything connects."""
    if token_file is None:
        raise ConfigurationError(
            "--remote needs --token-file: the file `pcagent serve` wrote its token to"
        )
    if display is not None:
        raise ConfigurationError("--remote and --display name two desktops; give one")
    if files:
        raise ConfigurationError(
            "--file copies into a sandbox's HOME, which a remote desktop does not share; put the "
            "files on that machine"
        )


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


@runs_app.command("list")
@reports_errors
def list_runs(
    limit: Annotated[int, typer.Option(help="How many runs, newest first.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The most recent runs."""
    from pcagent.runtime.records import RunStore

    with RunStore(load_config().runs_dir) as store:
        runs = store.list_runs(limit)
    if as_json:
        print(json.dumps([run.model_dump(mode="json") for run in runs], indent=1))
        return
    table = Table("run", "started (UTC)", "status", "steps", "tokens", "instruction")
    for run in runs:
        table.add_row(
            run.run_id,
            _when(run.created_at),
            run.status,
            str(run.steps),
            str(run.tokens),
            escape(run.instruction[:60]),
        )
    console.print(table)


@runs_app.command("show")
@reports_errors
def show_run(
    run_id: RunIdArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A run's plan, steps and events."""
    from pcagent.runtime.events import PlanEvent
    from pcagent.runtime.records import RunStore

    with RunStore(load_config().runs_dir) as store:
        run = store.get_run(run_id)
        steps = store.steps(run.run_id)
        events = store.events(run.run_id)
        folder = store.run_dir(run.run_id)
    if as_json:
        print(
            json.dumps(
                {
                    "run": run.model_dump(mode="json"),
                    "steps": [
                        s.model_dump(mode="json", exclude={"state", "listing"}) for s in steps
                    ],
                    "events": [e.model_dump(mode="json") for e in events],
                },
                indent=1,
            )
        )
        return
    console.print(f"[bold]{run.run_id}[/bold] {run.status}: {escape(run.instruction)}")
    if run.parent_run:
        console.print(f"rewound from {run.parent_run} at step {run.parent_step}")
    for record in events:
        if isinstance(record.event, PlanEvent):
            for subtask in record.event.subtasks:
                console.print(
                    f"  plan {subtask.id} [{escape(subtask.app or '?')}] "
                    f"{escape(subtask.description)}"
                )
    for step in steps:
        print_step(step)
        if step.thought:
            console.print(f"      [dim]thought: {escape(step.thought[:160])}[/dim]")
        if step.reflection is not None and step.reflection.reason:
            console.print(f"      [dim]reflection: {escape(step.reflection.reason[:160])}[/dim]")
        if step.reflection is not None and step.reflection.model_verdict is not None:
            opinion = f"{step.reflection.model_verdict}: {step.reflection.model_reason[:120]}"
            console.print(f"      [dim]model's second opinion: {escape(opinion)}[/dim]")
    for record in events:
        if isinstance(record.event, PlanEvent):
            continue
        details = record.event.model_dump_json(exclude={"kind"})[:160]
        console.print(
            f"  [dim]event after step {record.step}: {record.kind} {escape(details)}[/dim]"
        )
    console.print(f"summary: {escape(run.summary or '-')}   files: {folder}")


@runs_app.command("resume")
@reports_errors
def resume_run(
    run_id: RunIdArgument,
    mode: ModeOption = None,
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
    also: AlsoOption = None,
    also_token: AlsoTokenOption = None,
    certificate: CertificateOption = None,
) -> None:
    """Continue a killed or stopped run from its last completed step, in a fresh sandbox.

    The sandbox is restored to that step; the one a killed run left behind is ended first. A
    run across desktops goes on with the same --also desktops, as they are now."""
    further = _further_desktops(also or [], also_token or [])
    record, choices = _continuing(run_id, mode, max_steps, model)
    with _continued_run(choices, further, certificate) as parts:
        outcome = parts.resume(record.run_id)
    _report(outcome, choices.config)


@runs_app.command("rewind")
@reports_errors
def rewind_run(
    run_id: RunIdArgument,
    to: Annotated[
        int, typer.Option("--to", help="Go back to the state after this step (0: start).", min=0)
    ],
    role: Annotated[
        str | None, typer.Option("--role", help="Hand the running subtask to this role.")
    ] = None,
    guidance: Annotated[str, typer.Option("--guidance", help="Advice for the agents.")] = "",
    mode: ModeOption = None,
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
    also: AlsoOption = None,
    also_token: AlsoTokenOption = None,
    certificate: CertificateOption = None,
) -> None:
    """Continue a run from its state after step N as a new run, in a fresh sandbox.

    Restored: the agents' state, HOME files, the applications on their documents. A run across
    desktops goes on with the same --also desktops, as they are now (only the run's own desktop
    is restored)."""
    further = _further_desktops(also or [], also_token or [])
    record, choices = _continuing(run_id, mode, max_steps, model)
    with _continued_run(choices, further, certificate) as parts:
        outcome = parts.session().rewind(record.run_id, to, role=role, guidance=guidance)
    _report(outcome, choices.config)


@contextlib.contextmanager
def _continued_run(
    choices: RunChoices, further: dict[str, tuple[str, Path]], certificate: Path | None
) -> Iterator[RunParts]:
    """The parts a resumed or rewound run works with: a fresh sandbox, and the --also desktops
    beside it when there are any."""
    with contextlib.ExitStack() as stack:
        environment = None
        if further:
            environment = _with_further_desktops(stack, choices, None, further, certificate)
        yield _open_parts(stack, choices, environment)


def _open_parts(stack: contextlib.ExitStack, choices: RunChoices, environment: object) -> RunParts:
    """The run's parts, open until ``stack`` closes, printing each step; ``environment`` None:
    a sandbox of the run's own."""
    from pcagent.assembly import default_human, open_run

    return stack.enter_context(
        open_run(
            choices,
            human=default_human(choices.mode, console=console),
            on_step=print_step,
            log=_log,
            environment=environment,  # type: ignore[arg-type]
        )
    )


@runs_app.command("replay")
@reports_errors
def replay(
    run_id: RunIdArgument,
    upto: Annotated[int | None, typer.Option("--upto", help="Stop after this step.")] = None,
) -> None:
    """Re-execute a recorded run's actions (no model) in a fresh sandbox from its start state.

    Exit status 1 when a step's result differs from the record."""
    from pcagent.assembly import RunChoices, open_environment
    from pcagent.runtime.records import RunStore
    from pcagent.runtime.replay import replay_run

    def show(step: ReplayedStep) -> None:
        mark = "[green]ok[/green]" if step.ok else "[red]failed[/red]"
        differs = "" if step.agrees else "  [yellow](differs from the run)[/yellow]"
        console.print(f"{step.step:>3} {step.action:<12} {mark} {escape(step.message)}{differs}")

    config = load_config()
    choices = RunChoices.of(config, may_attach=False)
    with RunStore(config.runs_dir) as store:
        record = store.get_run(run_id)
        console.print("starting the sandbox desktop...")
        with open_environment(choices, log=_log) as desktop:
            replayed = replay_run(store, desktop, record.run_id, upto=upto, on_step=show)
    disagreements = sum(1 for step in replayed if not step.agrees)
    console.print(f"replayed {len(replayed)} steps; {disagreements} differ from the record")
    if disagreements:
        raise typer.Exit(code=1)


@runs_app.command("restore-unsaved")
@reports_errors
def restore_unsaved_command(
    run_id: RunIdArgument,
    step: Annotated[
        int | None,
        typer.Option(
            "--step",
            help="The step whose unsaved documents to write (default: the last step that had any).",
            min=1,
        ),
    ] = None,
    to: Annotated[
        Path | None,
        typer.Option("--to", help="Folder to write them into (default: ./unsaved-RUN)."),
    ] = None,
) -> None:
    """Write out the documents a run left with unsaved changes at a step, as files."""
    from pcagent.runtime.records import RunStore
    from pcagent.runtime.unsaved_restore import restore_unsaved

    config = load_config()
    with RunStore(config.runs_dir) as store:
        record = store.get_run(run_id)
        target = to if to is not None else Path(f"unsaved-{record.run_id}")
        written = restore_unsaved(store, record.run_id, target, step)
    for path in written:
        console.print(f"wrote {escape(str(path))}")


@runs_app.command("import")
@reports_errors
def import_run_command(
    archive: Annotated[
        Path, typer.Argument(help="A run's zip, as the viewer exports it (/runs/RUN/export.zip).")
    ],
    new_id: Annotated[
        str | None,
        typer.Option("--as", help="Record it under this run id instead of its own."),
    ] = None,
) -> None:
    """Add a run exported from another machine's viewer to the recorded runs.

    Its steps, model calls, events and step files come with it; nothing is written when the
    archive is refused."""
    from pcagent.runtime.record_import import import_run
    from pcagent.runtime.records import RunStore

    with RunStore(load_config().runs_dir) as store:
        imported = import_run(store, archive, new_id=new_id)
        folder = store.run_dir(imported.run.run_id)
    run = imported.run
    console.print(
        f"imported run [bold]{run.run_id}[/bold] ({run.status}, {run.steps} steps, "
        f"{imported.files} files): {escape(run.instruction[:60])}"
    )
    if imported.missing_parent is not None:
        console.print(
            f"[yellow]it was rewound from run {imported.missing_parent}, which is not here; "
            "the link to it was dropped[/yellow]"
        )
    console.print(f"record: {folder}  (pcagent runs show {run.run_id})")


@runs_app.command("gif")
@reports_errors
def gif_command(
    run_id: RunIdArgument,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="File to write (default: ./RUN.gif).", metavar="FILE"),
    ] = None,
    width: Annotated[
        int, typer.Option(help="Width of the frames in pixels.", min=160, max=1920)
    ] = 800,
    frame_ms: Annotated[
        int, typer.Option("--frame-ms", help="How long each step shows, in ms.", min=100)
    ] = 1200,
) -> None:
    """Write an animated GIF of a run: one frame per step, its action drawn on its screenshot."""
    from pcagent.runtime.records import RunStore
    from pcagent.viewer.run_gif import write_run_gif

    with RunStore(load_config().runs_dir) as store:
        record = store.get_run(run_id)
        target = out if out is not None else Path(f"{record.run_id}.gif")
        written = write_run_gif(store, record.run_id, target, width=width, frame_ms=frame_ms)
    width_px, height_px = written.size
    console.print(
        f"wrote {escape(str(written.path))}: {written.frames} frames, {width_px}x{height_px}",
        soft_wrap=True,
    )
