"""The ``pcagent`` command."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pcagent.cli_bench import bench_app
from pcagent.cli_desktop import desktop_app
from pcagent.cli_runs import run_command, runs_app
from pcagent.errors import PcAgentError
from pcagent.models.cli import models_app

app = typer.Typer(
    help="pcagent: automates long, multi-application desktop tasks through the GUI.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(desktop_app, name="desktop")
app.add_typer(models_app, name="models")
app.add_typer(runs_app, name="runs")
app.add_typer(bench_app, name="bench")
app.command("run")(run_command)
console = Console()


@app.command("demo")
def demo(
    max_steps: Annotated[int, typer.Option("--max-steps", help="Step cap of the run.")] = 14,
    model: Annotated[
        str | None, typer.Option("--model", help="Model profile (default: the local model).")
    ] = None,
) -> None:
    """Carry out a real task (compute 12 * 7 + 5 in the calculator) with the agents and the
    configured model, printing every step; says where the record is."""
    from pcagent.cli_runs import config_with, print_step
    from pcagent.demo import EXPECTED_RESULT, run_demo

    try:
        config = config_with(None, None, model)
        report = run_demo(
            config,
            log=lambda message: console.print(f"[dim]{escape(message)}[/dim]"),
            on_step=print_step,
            max_steps=max_steps,
        )
    except PcAgentError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(code=2) from error
    outcome = report.outcome
    colour = "green" if report.correct else "yellow"
    console.print(
        f"run {outcome.status} after {outcome.steps} steps and {outcome.tokens} tokens "
        f"({report.model}): {escape(outcome.summary)}"
    )
    console.print(
        f"[{colour}]the calculator shows {report.calculator_display or '(nothing)'!r}; "
        f"expected {EXPECTED_RESULT}[/{colour}]"
    )
    console.print(f"record: {report.record}")
    console.print(f"  pcagent runs show {outcome.run_id}    pcagent runs replay {outcome.run_id}")


if __name__ == "__main__":
    app()
