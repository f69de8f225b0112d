"""What the commands that start a run share: ``pcagent run``, ``runs resume`` and ``runs rewind``.

They name further desktops the same way (--also, --also-token, --certificate), open a run's parts
with those desktops beside its own, and report its outcome with the same words and exit status;
keeping that here means the three commands cannot drift apart.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer
from rich.console import Console
from rich.markup import escape

from pcagent.cli.options import (
    CONFIGURED_MODEL,
    ContinuedModeOption,
    MaxStepsOption,
    ModelChoice,
    config_with,
    takes_group,
    with_served_model,
)
from pcagent.cli.run_output import JsonOption, QuietOption, RunOutput, outcome_fields, output_mode
from pcagent.config import PcAgentConfig
from pcagent.errors import ConfigurationError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pcagent.assembly import RunChoices, RunParts
    from pcagent.models.served import ServedModel
    from pcagent.runtime.loop.session import RunOutcome
    from pcagent.runtime.record.models import RunRecord

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


class ContinuedChoice(NamedTuple):
    """What a resumed or rewound run is continued with, as the command line gave it: the
    interaction mode, the step cap, and the model (a profile, or a model on a server)."""

    mode: str | None
    max_steps: int | None
    model: str | None
    served: ServedModel | None


@dataclass(frozen=True)
class ContinueOptions:
    """The options ``runs resume`` and ``runs rewind`` both take, as the command line gave them
    (each field is one option, or the model options: see :func:`takes_continue_options`);
    :func:`continue_run` checks them."""

    mode: ContinuedModeOption = None
    max_steps: MaxStepsOption = None
    model: ModelChoice = CONFIGURED_MODEL
    also: AlsoOption = None
    also_token: AlsoTokenOption = None
    certificate: CertificateOption = None
    quiet: QuietOption = False
    as_json: JsonOption = False


#: Gives ``runs resume`` and ``runs rewind`` the options of :class:`ContinueOptions`, in its
#: order, in place of their ``options`` parameter (the model options in place of ``model`` by
#: :func:`~pcagent.cli.options.takes_model_choice`, applied after it).
takes_continue_options = takes_group("options", ContinueOptions)


def log_notice(message: str) -> None:
    """A notice from putting the run together, dimmed so the steps stand out."""
    console.print(f"[dim]{escape(message)}[/dim]")


def announce(choices: RunChoices, output: RunOutput) -> None:
    """Say which desktop the run works on before it starts, and what an attached one risks."""
    if choices.attached:
        snapshots = "snapshotted" if choices.config.run.snapshot_home else "not snapshotted"
        output.say(
            f"attached to display {escape(str(choices.display))} in {choices.mode} mode: "
            f"HOME is {snapshots}"
            + (", sensitive actions wait for your yes here" if choices.mode != "auto" else "")
        )
    else:
        output.say(f"starting the sandbox desktop ({choices.mode} mode)...")


def report_outcome(outcome: RunOutcome, config: PcAgentConfig, output: RunOutput) -> None:
    """The run's outcome and where its record is; exit status 1 unless it finished."""
    colour = {"finished": "green", "unverified": "yellow"}.get(outcome.status, "red")
    record = config.runs_dir / outcome.run_id
    output.result(
        [
            f"[{colour}]run {outcome.status}[/{colour}]: {escape(outcome.summary)} "
            f"({outcome.steps} steps, {outcome.tokens} tokens)",
            f"record: {record}  (pcagent runs show {outcome.run_id})",
        ],
        **outcome_fields(outcome, record),
    )
    if outcome.status != "finished":
        raise typer.Exit(code=1)


def recorded_run(config: PcAgentConfig, run_id: str) -> RunRecord:
    """The run ``run_id`` names; :class:`~pcagent.errors.RunNotFoundError` (listing recent
    runs) when there is none."""
    from pcagent.runtime.record.store import RunStore

    with RunStore(config.runs_dir) as store:
        return store.get_run(run_id)


def continuing(
    run_id: str,
    choice: ContinuedChoice,
    output: RunOutput,
) -> tuple[RunRecord, RunChoices]:
    """The recorded run to continue, and the choices to continue it with: its own ablation, in
    a fresh sandbox (a recorded HOME is never restored into the person's own). The run is looked
    up before a --model-url server is asked anything, so a wrong id costs no request."""
    from pcagent.assembly import RunChoices

    config = config_with(choice.max_steps, choice.model)
    record = recorded_run(config, run_id)
    if choice.served is not None:
        config = with_served_model(config, choice.served, output.log)
    ablation = str(record.settings.get("ablation", "none"))
    choices = RunChoices.of(config, ablation=ablation, mode=choice.mode, may_attach=False)
    announce(choices, output)
    return record, choices


def continue_run(
    run_id: str, options: ContinueOptions, go_on: Callable[[RunParts, str], RunOutcome]
) -> None:
    """Continue the recorded run ``run_id`` in a fresh sandbox (with the further desktops of
    ``options`` beside it): ``go_on`` gets the run's parts and its full id and carries it on
    (resume and rewind differ only there); the outcome is reported as ``pcagent run`` reports
    one."""
    output = RunOutput(output_mode(options.quiet, options.as_json))
    model = options.model
    choice = ContinuedChoice(options.mode, options.max_steps, model.profile, model.served())
    further = further_desktops(options.also or [], options.also_token or [])
    record, choices = continuing(run_id, choice, output)
    with output, continued_run(choices, further, options.certificate, output) as parts:
        outcome = go_on(parts, record.run_id)
    report_outcome(outcome, choices.config, output)


def further_desktops(also: list[str], tokens: list[str]) -> dict[str, tuple[str, Path]]:
    """--also NAME=URL with --also-token NAME=PATH, checked before anything starts."""
    from pcagent.bench.environments import parse_assignments, remote_desktops

    desktops = remote_desktops(
        parse_assignments(also, "--also"), parse_assignments(tokens, "--also-token")
    )
    if "main" in desktops:
        raise ConfigurationError("main is the run's own desktop; give the others other names")
    return {name: (desktop.url, desktop.token_file) for name, desktop in desktops.items()}


def with_further_desktops(
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


@contextlib.contextmanager
def continued_run(
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
            environment = with_further_desktops(stack, choices, None, further, certificate, output)
        yield open_parts(stack, choices, environment, output)


def open_parts(
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
