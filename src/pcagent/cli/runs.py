"""``pcagent run`` and ``pcagent runs list|show|resume|replay|rewind``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.config import PcAgentConfig, load_config, validation_problems
from pcagent.errors import ConfigurationError, PcAgentError

runs_app = typer.Typer(
    help="Inspect, resume, replay and rewind recorded runs.", no_args_is_help=True
)
console = Console()

ModeOption = Annotated[
    str | None, typer.Option("--mode", help="auto, passive or proactive (default: [run] mode).")
]
AblationOption = Annotated[
    str,
    typer.Option(
        "--ablation",
        help="none, no_perception, no_manager, no_reflection or single_agent.",
    ),
]
MaxStepsOption = Annotated[
    int | None, typer.Option("--max-steps", help="Step cap (default: [run] max_steps).")
]
ModelOption = Annotated[
    str | None, typer.Option("--model", help="Model profile for every agent (PCAGENT_MODEL).")
]


def config_with(mode: str | None, max_steps: int | None, model: str | None) -> PcAgentConfig:
    config = load_config()
    run = config.run.model_dump()
    if mode is not None:
        run["mode"] = mode
    if max_steps is not None:
        run["max_steps"] = max_steps
    models = config.models.model_dump()
    if model is not None:
        models["default"] = model
    try:
        return PcAgentConfig.model_validate({**config.model_dump(), "run": run, "models": models})
    except ValidationError as error:
        raise ConfigurationError(f"invalid option: {validation_problems(error)}") from None


def _fail(error: Exception) -> typer.Exit:
    console.print(f"[red]error:[/red] {escape(str(error))}")
    return typer.Exit(code=2)


def print_step(record: Any) -> None:
    action = record.action or {}
    kind = action.get("kind", "-")
    arguments = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "kind" and v is not None)
    verdict = (record.reflection or {}).get("verdict", "")
    colour = {"success": "green", "no_change": "yellow", "unexpected_change": "red"}.get(
        verdict, "white"
    )
    console.print(
        f"[bold]{record.step:>3}[/bold] "
        + escape(f"[{record.subtask_id} {record.role}] ")
        + escape(f"{kind}({arguments})")
        + f"  [{colour}]{verdict}[/{colour}]"
        + (f"  [red]{escape(record.error)}[/red]" if record.error else "")
    )


@contextmanager
def _session(config: PcAgentConfig, ablation: str, files: list[Path]) -> Iterator[Any]:
    """A fresh sandbox, the configured models, the run store and a session over them."""
    from pcagent.env import SandboxDesktop
    from pcagent.models import ModelRouter
    from pcagent.runtime.human import NoHuman, TerminalHuman
    from pcagent.runtime.records import RunStore
    from pcagent.runtime.session import RunSession

    if ablation not in ("none", "no_perception", "no_manager", "no_reflection", "single_agent"):
        raise PcAgentError(f"unknown ablation {ablation!r}")
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        raise PcAgentError(f"files to copy into the sandbox do not exist: {missing}")
    console.print("starting the sandbox desktop...")
    with (
        SandboxDesktop() as desktop,
        ModelRouter(config) as router,
        RunStore(config.runs_dir) as store,
    ):
        for path in files:
            target = desktop.home / path.name
            if path.is_dir():
                shutil.copytree(path, target, dirs_exist_ok=True)
            else:
                shutil.copy2(path, target)
            console.print(f"  copied {path} to {target}")
        human = NoHuman() if config.run.mode == "auto" else TerminalHuman(console=console)
        yield RunSession(
            desktop,
            router,
            store,
            config,
            human=human,
            ablation=ablation,  # type: ignore[arg-type]
            on_step=print_step,
            log=lambda message: console.print(f"[dim]{escape(message)}[/dim]"),
        )


def _report(outcome: Any, config: PcAgentConfig) -> None:
    colour = "green" if outcome.status == "finished" else "red"
    console.print(
        f"[{colour}]run {outcome.status}[/{colour}]: {escape(outcome.summary)} "
        f"({outcome.steps} steps, {outcome.tokens} tokens)"
    )
    console.print(
        f"record: {config.runs_dir / outcome.run_id}  (pcagent runs show {outcome.run_id})"
    )


def run_command(
    instruction: Annotated[str, typer.Argument(help="What to do, in plain words.")],
    mode: ModeOption = None,
    ablation: AblationOption = "none",
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
    files: Annotated[
        list[Path] | None,
        typer.Option("--file", "-f", help="Copy this file or folder into the sandbox HOME first."),
    ] = None,
) -> None:
    """Carry out INSTRUCTION in a fresh sandbox desktop with the configured model."""
    try:
        config = config_with(mode, max_steps, model)
        with _session(config, ablation, files or []) as session:
            outcome = session.start(instruction)
    except PcAgentError as error:
        raise _fail(error) from error
    _report(outcome, config)
    if outcome.status != "finished":
        raise typer.Exit(code=1)


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


@runs_app.command("list")
def list_runs(
    limit: Annotated[int, typer.Option(help="How many runs, newest first.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The most recent runs."""
    from pcagent.runtime.records import RunStore

    try:
        with RunStore(load_config().runs_dir) as store:
            runs = store.list_runs(limit)
    except PcAgentError as error:
        raise _fail(error) from error
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
def show_run(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A run's plan, steps and events."""
    from pcagent.runtime.records import RunStore

    try:
        with RunStore(load_config().runs_dir) as store:
            run = store.get_run(run_id)
            steps = store.steps(run.run_id)
            events = store.events(run.run_id)
            folder = store.run_dir(run.run_id)
    except PcAgentError as error:
        raise _fail(error) from error
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
    for event in events:
        if event.kind == "plan":
            for subtask in event.payload.get("subtasks", []):
                console.print(
                    f"  plan {subtask['id']} [{subtask.get('app') or '?'}] {subtask['description']}"
                )
    for step in steps:
        print_step(step)
        if step.thought:
            console.print(f"      [dim]thought: {escape(step.thought[:160])}[/dim]")
        if step.reflection and step.reflection.get("reason"):
            reason = escape(step.reflection["reason"][:160])
            console.print(f"      [dim]reflection: {reason}[/dim]")
    others = [e for e in events if e.kind not in ("plan",)]
    for event in others:
        console.print(
            f"  [dim]event after step {event.step}: {event.kind} {json.dumps(event.payload)[:160]}[/dim]"
        )
    console.print(f"summary: {escape(run.summary or '-')}   files: {folder}")


@runs_app.command("resume")
def resume_run(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    mode: ModeOption = None,
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
) -> None:
    """Continue a killed or stopped run from its last completed step, in a fresh sandbox
    restored to that step."""
    try:
        config = config_with(mode, max_steps, model)
        with _session(config, _recorded_ablation(config, run_id), []) as session:
            outcome = session.resume(run_id)
    except PcAgentError as error:
        raise _fail(error) from error
    _report(outcome, config)


@runs_app.command("rewind")
def rewind_run(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    to: Annotated[
        int, typer.Option("--to", help="Go back to the state after this step (0: start).")
    ],
    role: Annotated[
        str | None, typer.Option("--role", help="Hand the running subtask to this role.")
    ] = None,
    guidance: Annotated[str, typer.Option("--guidance", help="Advice for the agents.")] = "",
    mode: ModeOption = None,
    max_steps: MaxStepsOption = None,
    model: ModelOption = None,
) -> None:
    """Restore a run's state after step N (agents, HOME files, applications) and continue from
    there as a new run, with guidance."""
    try:
        config = config_with(mode, max_steps, model)
        with _session(config, _recorded_ablation(config, run_id), []) as session:
            outcome = session.rewind(run_id, to, role=role, guidance=guidance)
    except PcAgentError as error:
        raise _fail(error) from error
    _report(outcome, config)


@runs_app.command("replay")
def replay(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    upto: Annotated[int | None, typer.Option("--upto", help="Stop after this step.")] = None,
) -> None:
    """Re-execute a recorded run's actions (no model) in a fresh sandbox from its start state."""
    from pcagent.env import SandboxDesktop
    from pcagent.runtime.records import RunStore
    from pcagent.runtime.replay import replay_run

    def show(step: Any) -> None:
        mark = "[green]ok[/green]" if step.ok else "[red]failed[/red]"
        differs = "" if step.agrees else "  [yellow](differs from the run)[/yellow]"
        console.print(f"{step.step:>3} {step.action:<12} {mark} {escape(step.message)}{differs}")

    try:
        config = load_config()
        with RunStore(config.runs_dir) as store, SandboxDesktop() as desktop:
            replayed = replay_run(store, desktop, run_id, upto=upto, on_step=show)
    except PcAgentError as error:
        raise _fail(error) from error
    disagreements = sum(1 for step in replayed if not step.agrees)
    console.print(f"replayed {len(replayed)} steps; {disagreements} differ from the record")
    if disagreements:
        raise typer.Exit(code=1)


def _recorded_ablation(config: PcAgentConfig, run_id: str) -> str:
    from pcagent.runtime.records import RunStore

    with RunStore(config.runs_dir) as store:
        return str(store.get_run(run_id).settings.get("ablation", "none"))
