"""``pcagent run``: carry out an instruction on a sandbox, an attached display or served desktops.

The command checks everything it is given (the instruction, the files, --remote's companions,
the --also desktops) before a desktop starts, so a typo costs nothing and leaves no run behind.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer
from rich.markup import escape

from pcagent.cli.errors import reports_errors
from pcagent.cli.options import (
    CONFIGURED_MODEL,
    AblationOption,
    ExperienceOption,
    MaxStepsOption,
    ModelChoice,
    ModeOption,
    config_with,
    takes_model_choice,
)
from pcagent.cli.run_launch import (
    AlsoOption,
    AlsoTokenOption,
    CertificateOption,
    announce,
    further_desktops,
    open_parts,
    report_outcome,
    with_further_desktops,
)
from pcagent.cli.run_output import JsonOption, QuietOption, RunOutput, output_mode
from pcagent.errors import ConfigurationError

if TYPE_CHECKING:
    from pcagent.assembly import RunChoices
    from pcagent.runtime.loop.session import RunOutcome


@reports_errors
@takes_model_choice()
def run_command(
    instruction: Annotated[str, typer.Argument(help="What to do, in plain words.")],
    mode: ModeOption = None,
    ablation: AblationOption = "none",
    max_steps: MaxStepsOption = None,
    model: ModelChoice = CONFIGURED_MODEL,
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

    _check_instruction(instruction)
    output = RunOutput(output_mode(quiet, as_json))
    files = files or []
    served = model.served()
    if remote is not None:
        _check_remote(remote, token_file, display, files)
    further = further_desktops(also or [], also_token or [])
    choices = RunChoices.of(
        config_with(max_steps, model.profile, experience, served, notice=output.log),
        ablation=ablation,
        display=display,
        mode=mode,
        snapshot_home=False if remote is not None else snapshot_home,
    )
    _check_files(files, choices)
    desktops = _RemoteDesktops(remote, token_file, certificate, further)
    with output:
        outcome = _carry_out(instruction, choices, desktops, files, output)
    report_outcome(outcome, choices.config, output)


class _RemoteDesktops(NamedTuple):
    """The served desktops a run works on: --remote (``url`` None: a sandbox of its own) and
    the --also ones, each reached with ``certificate``."""

    url: str | None
    token_file: Path | None
    certificate: Path | None
    further: dict[str, tuple[str, Path]]


def _check_instruction(instruction: str) -> None:
    """An empty instruction is refused before anything starts: there is nothing to plan."""
    if not instruction.strip():
        raise ConfigurationError(
            'the instruction is empty; say what the run should do, e.g. pcagent run "Open the '
            'calculator and compute 12 * 7"'
        )


def _check_files(files: list[Path], choices: RunChoices) -> None:
    """--file's paths, checked before a desktop starts: they exist, and there is a sandbox
    HOME to copy them into."""
    if files and choices.attached:
        raise ConfigurationError(
            "--file copies into the sandbox's HOME, and on an attached display that is your own "
            "HOME; put the files where you want them and name them in the instruction"
        )
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        raise ConfigurationError(f"files to copy into the sandbox do not exist: {missing}")


def _carry_out(
    instruction: str,
    choices: RunChoices,
    remote: _RemoteDesktops,
    files: list[Path],
    output: RunOutput,
) -> RunOutcome:
    """Open the run's desktops and parts, copy ``files`` into its HOME and run ``instruction``;
    everything opened here is closed before the outcome is returned."""
    with contextlib.ExitStack() as stack:
        environment = None
        if remote.url is not None:
            from pcagent.env.remote_client import connect

            environment = stack.enter_context(
                contextlib.closing(
                    connect(
                        remote.url, token_file=remote.token_file, certificate=remote.certificate
                    )
                )
            )
            output.say(f"working on the remote desktop at {escape(remote.url)}")
        else:
            announce(choices, output)
        if remote.further:
            environment = with_further_desktops(
                stack, choices, environment, remote.further, remote.certificate, output
            )
        parts = open_parts(stack, choices, environment, output)
        if files:
            _copy_into(parts.environment.home, files, output)
        return parts.session().start(instruction)


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
