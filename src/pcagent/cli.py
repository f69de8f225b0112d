"""The ``pcagent`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

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
app.command("run")(run_command)
console = Console()


@app.command("demo")
def demo(
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Folder for the screenshot and element list.")
    ] = Path("out/demo"),
) -> None:
    """Start a sandbox, drive the text editor and the calculator with real actions, save what it saw."""
    from pcagent.demo import run_demo

    try:
        report = run_demo(output, log=console.print)
    except PcAgentError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(code=2) from error
    console.print(f"[green]demo finished[/green]: calculator shows {report.calculator_result!r}")
    for label, path in report.files.items():
        console.print(f"  {label}: {path}")


if __name__ == "__main__":
    app()
