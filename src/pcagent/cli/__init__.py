"""The ``pcagent`` command: ``run``, ``runs``, ``desktop``, ``bench``, ``models``, ``experience``,
``demo``, ``serve``, ``view``.

Each group lives in its own module (:mod:`.runs`, :mod:`.desktop`, :mod:`.bench`,
:mod:`.models`, :mod:`.experience`, :mod:`.demo`, :mod:`.serve`, :mod:`.view`); every command
reports project errors the same way (:mod:`.errors`). Runs are put together by
:mod:`pcagent.assembly`, never here.
"""

from __future__ import annotations

import sys

import typer

from pcagent.cli.bench import bench_app
from pcagent.cli.demo import demo_command
from pcagent.cli.desktop import desktop_app
from pcagent.cli.experience import experience_app
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.cli.models import models_app
from pcagent.cli.run_command import run_command
from pcagent.cli.runs import runs_app
from pcagent.cli.serve import serve_command
from pcagent.cli.view import view_command
from pcagent.interrupts import install_terminate_as_interrupt

app = typer.Typer(
    cls=ConventionalGroup,
    help="pcagent: automates long, multi-application desktop tasks through the GUI.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(desktop_app, name="desktop")
app.add_typer(models_app, name="models")
app.add_typer(runs_app, name="runs")
app.add_typer(bench_app, name="bench")
app.add_typer(experience_app, name="experience")
app.command(
    "run", short_help="Carry out an instruction in a fresh sandbox desktop (or a given one)."
)(run_command)
app.command("demo")(demo_command)
app.command(
    "view", short_help="A local web viewer of recorded runs, benchmark results and page graphs."
)(view_command)
app.command("serve")(serve_command)


@app.callback()
def _every_command() -> None:
    """pcagent: automates long, multi-application desktop tasks through the GUI."""
    # A SIGTERM or SIGHUP stops any command like Ctrl+C, so the sandboxes it started are
    # closed and its run is recorded as interrupted (whichever entry point started it).
    install_terminate_as_interrupt()


def main() -> None:
    """The console script's entry point."""
    sys.argv[1:] = bare_ray_means_local(sys.argv[1:])
    app()


def bare_ray_means_local(arguments: list[str]) -> list[str]:
    """``bench run --ray`` with no address (the last argument, or followed by another option)
    means a local Ray instance: the option takes a value, so ``local`` is put in."""
    given = list(arguments)
    for index, argument in enumerate(given):
        if argument == "--ray" and (index + 1 == len(given) or given[index + 1].startswith("-")):
            return [*given[: index + 1], "local", *bare_ray_means_local(given[index + 1 :])]
    return given


__all__ = ["app", "main"]
