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
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.cli.options import (
    AblationOption,
    ApiKeyEnvOption,
    ContinuedModeOption,
    ExperienceOption,
    MaxStepsOption,
    ModelNameOption,
    ModelOption,
    ModelUrlOption,
    ModeOption,
    VisionOption,
    config_with,
    served_model,
)
from pcagent.cli.run_output import (
    JsonOption,
    QuietOption,
    RunOutput,
    output_mode,
    step_markup,
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
    cls=ConventionalGroup,
    help="Inspect, resume, replay and rewind recorded runs.",
    no_args_is_help=True,
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
        metavar="NAME=URL",
        help="A further desktop that pcagent serve serves, for a task across "
        "desktops (repeatable); the run's own desktop is called main, and the plan says "
        "which desktop each subtask works on.",
    ),
]
AlsoTokenOption = Annotated[
    list[str] | None,
    typer.Option(
        "--also-token", metavar="NAME=PATH", help="The token file of the --also desktop NAME."
    ),
]
#: The spelling of --step that rewind had before (kept, hidden, for scripts that use it).
StepAliasOption = Annotated[int | None, typer.Option("--to", hidden=True, min=0)]
#: How a run's outcome reads in the terminal: what was checked.
OUTCOME_WORDS = {
    "finished": "every subtask's effect checked",
    "unverified": "done by the agents' word, not every effect checked",
}


def one_step(step: int | None, old_step: int | None, old_name: str) -> int | None:
    """The step given as --step or under its former name; both at once is an error."""
    if step is not None and old_step is not None:
        raise ConfigurationError(f"--step and {old_name} name the same step; give --step alone")
    return step if step is not None else old_step


def print_step(record: StepRecord) -> None:
    """One line per step (see :func:`~pcagent.cli.run_output.step_markup`)."""
    console.print(step_markup(record))


def _log(message: str) -> None:
    console.print(f"[dim]{escape(message)}[/dim]")


def _announce(choices: RunChoices, output: RunOutput) -> None:
    if choices.attached:
        snapshots = "snapshotted" if choices.config.run.snapshot_home else "not snapshotted"
        output.say(
            f"attached to display {escape(str(choices.display))} in {choices.mode} mode: "
            f"HOME is {snapshots}"
            + (", sensitive actions wait for your yes here" if choices.mode != "auto" else "")
        )
    else:
        output.say(f"starting the sandbox desktop ({choices.mode} mode)...")


def _report(outcome: RunOutcome, config: PcAgentConfig, output: RunOutput) -> None:
    colour = {"finished": "green", "unverified": "yellow"}.get(outcome.status, "red")
    record = config.runs_dir / outcome.run_id
    output.result(
        [
            f"[{colour}]run {outcome.status}[/{colour}]: {escape(outcome.summary)} "
            f"({outcome.steps} steps, {outcome.tokens} tokens)",
            f"record: {record}  (pcagent runs show {outcome.run_id})",
        ],
        run_id=outcome.run_id,
        status=outcome.status,
        summary=outcome.summary,
        steps=outcome.steps,
        tokens=outcome.tokens,
        record=str(record),
    )
    if outcome.status != "finished":
        raise typer.Exit(code=1)


def _copy_into(home: Path, files: list[Path], output: RunOutput) -> None:
    from pcagent.env.ownership import give_to_owner

    for path in files:
        target = home / path.name
        if path.is_dir():
            shutil.copytree(path, target, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target)
        give_to_owner(target, home)  # the sandbox's applications run as HOME's owner
        output.say(escape(f"  copied {path} to {target}"))


def _recorded_run(config: PcAgentConfig, run_id: str) -> RunRecord:
    """The run ``run_id`` names; :class:`~pcagent.errors.RunNotFoundError` (listing recent
    runs) when there is none."""
    from pcagent.runtime.records import RunStore

    with RunStore(config.runs_dir) as store:
        return store.get_run(run_id)


def _continuing(
    run_id: str, mode: str | None, max_steps: int | None, model: str | None, output: RunOutput
) -> tuple[RunRecord, RunChoices]:
    """The recorded run to continue, and the choices to continue it with: its own ablation, in
    a fresh sandbox (a recorded HOME is never restored into the person's own)."""
    from pcagent.assembly import RunChoices

    config = config_with(max_steps, model)
    record = _recorded_run(config, run_id)
    ablation = str(record.settings.get("ablation", "none"))
    choices = RunChoices.of(config, ablation=ablation, mode=mode, may_attach=False)
    _announce(choices, output)
    return record, choices


@reports_errors
def run_command(
    instruction: Annotated[str, typer.Argument(help="What to do, in plain words.")],
    mode: ModeOption = None,
    ablation: AblationOption = "none",
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
    model_url: ModelUrlOption = None,
    model_name: ModelNameOption = None,
    vision: VisionOption = None,
    api_key_env: ApiKeyEnvOption = None,
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
            metavar="URL",
            help="Work on the desktop pcagent serve serves at this address "
            "(e.g. http://127.0.0.1:8765) instead of a sandbox of its own.",
        ),
    ] = None,
    token_file: Annotated[
        Path | None,
        typer.Option("--token-file", help="The token file pcagent serve wrote (with --remote)."),
    ] = None,
    certificate: CertificateOption = None,
    also: AlsoOption = None,
    also_token: AlsoTokenOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Carry out INSTRUCTION in a fresh sandbox (or on --display, or --remote) with the
    configured model (or the one at --model-url); with --also, across that desktop and further
    served ones.

    Exit status 0: the run finished; 1: it failed; 2: an error before or around it."""
    from pcagent.assembly import RunChoices

    if not instruction.strip():
        raise ConfigurationError(
            'the instruction is empty; say what the run should do, e.g. pcagent run "Open the '
            'calculator and compute 12 * 7"'
        )
    output = RunOutput(output_mode(quiet, as_json))
    files = files or []
    served = served_model(model, model_url, model_name, vision, api_key_env)
    if remote is not None:
        _check_remote(remote, token_file, display, files)
    further = _further_desktops(also or [], also_token or [])
    choices = RunChoices.of(
        config_with(max_steps, model, experience, served, notice=_log),
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
        stack.enter_context(output)
        environment = None
        if remote is not None:
            from pcagent.env.remote_client import connect

            environment = stack.enter_context(
                contextlib.closing(connect(remote, token_file=token_file, certificate=certificate))
            )
            output.say(f"working on the remote desktop at {escape(remote)}")
        else:
            _announce(choices, output)
        if further:
            environment = _with_further_desktops(
                stack, choices, environment, further, certificate, output
            )
        parts = _open_parts(stack, choices, environment, output)
        if files:
            _copy_into(parts.environment.home, files, output)
        outcome = parts.session().start(instruction)
    _report(outcome, choices.config, output)


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
    output: RunOutput,
) -> object:
    """The run's own desktop (started here unless it is --remote) and the --also desktops, as
    one environment the run switches between by subtask."""
    from pcagent.assembly import open_environment
    from pcagent.env.environment_set import environment_set
    from pcagent.env.remote_client import connect

    if environment is None:
        environment = stack.enter_context(
            open_environment(choices, log=output.log, progress=output.progress)
        )
    members: dict[str, object] = {"main": environment}
    for name, (url, token) in further.items():
        members[name] = stack.enter_context(
            contextlib.closing(connect(url, token_file=token, certificate=certificate))
        )
        output.say(f"also working on the desktop {escape(name)} at {escape(url)}")
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
    console.print(runs_table(runs, console.width))


def runs_table(runs: list[RunRecord], width: int) -> Table:
    """The runs as a table ``width`` characters wide that keeps each run id whole (the value to
    copy into the next command) and cuts a long instruction with an ellipsis; the model column
    only where it leaves the instruction room (``runs show`` names the models too)."""
    columns = {
        "run": max((len(run.run_id) for run in runs), default=3),
        "started (UTC)": 16,
        "status": max((len(run.status) for run in runs), default=6),
        "steps": max((len(str(run.steps)) for run in runs), default=5),
        "tokens": max((len(str(run.tokens)) for run in runs), default=6),
    }
    models = [_models_of(run) for run in runs]
    model_width = max(len("model"), *(len(text) for text in models))
    # Between two columns: a space of padding on each side of a one-space rule.
    used = sum(max(content, len(name)) + 3 for name, content in columns.items())
    if width - used - model_width - 3 >= _INSTRUCTION_ROOM:
        columns["model"] = model_width
        used += model_width + 3
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name, content in columns.items():
        table.add_column(name, no_wrap=True, min_width=max(content, len(name)))
    table.add_column(
        "instruction", no_wrap=True, overflow="ellipsis", max_width=max(12, width - used)
    )
    for run, model in zip(runs, models, strict=True):
        cells = [run.run_id, _when(run.created_at), run.status, str(run.steps), str(run.tokens)]
        if "model" in columns:
            cells.append(escape(model))
        table.add_row(*cells, escape(" ".join(run.instruction.split())))
    return table


#: The fewest characters of the instruction worth a narrower table than the model column makes.
_INSTRUCTION_ROOM = 30


def _models_of(run: RunRecord) -> str:
    """The model names the run's roles asked, each once."""
    return ", ".join(dict.fromkeys(m.model for m in run.models.values())) or "-"


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
    if run.status in OUTCOME_WORDS:
        console.print(f"  outcome: {run.status} ({OUTCOME_WORDS[run.status]})")
    for line in _model_lines(run):
        console.print(f"  {escape(line)}")
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


def _model_lines(run: RunRecord) -> list[str]:
    """The models that answered the run's agents, one line per model with its roles."""
    roles: dict[tuple[str, str], list[str]] = {}
    for role, model in run.models.items():
        roles.setdefault((model.model, model.profile), []).append(role)
    return [
        f"model {name}" + (f" (profile {profile})" if profile else "") + f": {', '.join(names)}"
        for (name, profile), names in roles.items()
    ]


@runs_app.command("resume")
@reports_errors
def resume_run(
    run_id: RunIdArgument,
    mode: ContinuedModeOption = None,
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
    output = RunOutput("text")
    record, choices = _continuing(run_id, mode, max_steps, model, output)
    with output, _continued_run(choices, further, certificate, output) as parts:
        outcome = parts.resume(record.run_id)
    _report(outcome, choices.config, output)


@runs_app.command("rewind")
@reports_errors
def rewind_run(
    run_id: RunIdArgument,
    step: Annotated[
        int | None,
        typer.Option("--step", help="Go back to the state after this step (0: start).", min=0),
    ] = None,
    old_step: StepAliasOption = None,
    role: Annotated[
        str | None, typer.Option("--role", help="Hand the running subtask to this role.")
    ] = None,
    guidance: Annotated[str, typer.Option("--guidance", help="Advice for the agents.")] = "",
    mode: ContinuedModeOption = None,
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
    to = one_step(step, old_step, "--to")
    if to is None:
        raise ConfigurationError("say which step to go back to: --step N (0: the start)")
    further = _further_desktops(also or [], also_token or [])
    output = RunOutput("text")
    record, choices = _continuing(run_id, mode, max_steps, model, output)
    with output, _continued_run(choices, further, certificate, output) as parts:
        outcome = parts.session().rewind(record.run_id, to, role=role, guidance=guidance)
    _report(outcome, choices.config, output)


@contextlib.contextmanager
def _continued_run(
    choices: RunChoices,
    further: dict[str, tuple[str, Path]],
    certificate: Path | None,
    output: RunOutput,
) -> Iterator[RunParts]:
    """The parts a resumed or rewound run works with: a fresh sandbox, and the --also desktops
    beside it when there are any."""
    with contextlib.ExitStack() as stack:
        environment = None
        if further:
            environment = _with_further_desktops(stack, choices, None, further, certificate, output)
        yield _open_parts(stack, choices, environment, output)


def _open_parts(
    stack: contextlib.ExitStack, choices: RunChoices, environment: object, output: RunOutput
) -> RunParts:
    """The run's parts, open until ``stack`` closes, telling ``output`` each step, note and
    wait; ``environment`` None: a sandbox of the run's own."""
    from pcagent.assembly import default_human, open_run

    return stack.enter_context(
        open_run(
            choices,
            # Questions to the person go to standard error when standard output is for scripts.
            human=default_human(
                choices.mode, console=console if output.mode == "text" else Console(stderr=True)
            ),
            on_step=output.step,
            log=output.log,
            environment=environment,  # type: ignore[arg-type]
            progress=output.progress,
        )
    )


@runs_app.command("replay")
@reports_errors
def replay(
    run_id: RunIdArgument,
    step: Annotated[
        int | None, typer.Option("--step", help="Stop after this step (default: the last).", min=0)
    ] = None,
    old_step: Annotated[int | None, typer.Option("--upto", hidden=True, min=0)] = None,
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

    upto = one_step(step, old_step, "--upto")
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
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder to write them into (default: ./unsaved-RUN)."),
    ] = None,
    old_out: Annotated[Path | None, typer.Option("--to", hidden=True)] = None,
) -> None:
    """Write out the documents a run left with unsaved changes at a step, as files."""
    from pcagent.runtime.records import RunStore
    from pcagent.runtime.unsaved_restore import restore_unsaved

    config = load_config()
    with RunStore(config.runs_dir) as store:
        record = store.get_run(run_id)
        chosen = out if out is not None else old_out
        target = chosen if chosen is not None else Path(f"unsaved-{record.run_id}")
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
