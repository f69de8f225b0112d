"""``pcagent runs resume|rewind|replay|restore-unsaved|import|gif``, and the ``runs`` group.

Every command checks its input (the run id, the step, the files) before a desktop starts, so a
typo costs nothing and leaves no run behind. ``runs list`` and ``runs show`` only read the record
and live in :mod:`.run_listing`; ``pcagent run`` lives in :mod:`.run_command`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.cli.options import takes_model_choice
from pcagent.cli.run_launch import (
    ContinueOptions,
    RunIdArgument,
    console,
    continue_run,
    log_notice,
    takes_continue_options,
)
from pcagent.cli.run_listing import list_runs, show_run
from pcagent.config import load_config
from pcagent.errors import ConfigurationError

if TYPE_CHECKING:
    from pcagent.runtime.record.replay import ReplayedStep

runs_app = typer.Typer(
    cls=ConventionalGroup,
    help="Inspect, resume, replay and rewind recorded runs.",
    no_args_is_help=True,
)
runs_app.command("list")(list_runs)
runs_app.command("show")(show_run)

#: The spelling of --step that rewind had before (kept, hidden, for scripts that use it).
StepAliasOption = Annotated[int | None, typer.Option("--to", hidden=True, min=0)]


def one_step(step: int | None, old_step: int | None, old_name: str) -> int | None:
    """The step given as --step or under its former name; both at once is an error."""
    if step is not None and old_step is not None:
        raise ConfigurationError(f"--step and {old_name} name the same step; give --step alone")
    return step if step is not None else old_step


@runs_app.command("resume")
@reports_errors
@takes_model_choice()
@takes_continue_options
def resume_run(run_id: RunIdArgument, *, options: ContinueOptions) -> None:
    """Continue a killed or stopped run from its last completed step, in a fresh sandbox.

    The sandbox is restored to that step; the one a killed run left behind is ended first. A
    run across desktops goes on with the same --also desktops, as they are now. The model is
    the configured one unless --model or --model-url names another, as with pcagent run.

    Exit status 0: the run finished; 1: it failed; 2: an error before or around it."""
    continue_run(run_id, options, lambda parts, full_id: parts.resume(full_id))


@runs_app.command("rewind")
@reports_errors
@takes_model_choice()
@takes_continue_options
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
    *,
    options: ContinueOptions,
) -> None:
    """Continue a run from its state after step N as a new run, in a fresh sandbox.

    Restored: the agents' state, HOME files, the applications on their documents. A run across
    desktops goes on with the same --also desktops, as they are now (only the run's own desktop
    is restored). The model is the configured one unless --model or --model-url names another,
    as with pcagent run.

    Exit status 0: the run finished; 1: it failed; 2: an error before or around it."""
    to = one_step(step, old_step, "--to")
    if to is None:
        raise ConfigurationError("say which step to go back to: --step N (0: the start)")
    continue_run(
        run_id,
        options,
        lambda parts, full_id: parts.session().rewind(full_id, to, role=role, guidance=guidance),
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
    from pcagent.runtime.record.replay import replay_run
    from pcagent.runtime.record.store import RunStore

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
        with open_environment(choices, log=log_notice) as desktop:
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
    from pcagent.runtime.record.store import RunStore
    from pcagent.runtime.safety.unsaved_restore import restore_unsaved

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
    from pcagent.runtime.record.importer import import_run
    from pcagent.runtime.record.store import RunStore

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
    from pcagent.runtime.record.store import RunStore
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
