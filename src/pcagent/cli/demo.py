"""``pcagent demo``: one real task carried out by the agents, every step printed."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pcagent.cli.errors import reports_errors
from pcagent.cli.options import ModelOption, config_with
from pcagent.cli.runs import console, print_step


@reports_errors
def demo_command(
    max_steps: Annotated[int, typer.Option("--max-steps", help="Step cap of the run.")] = 14,
    model: ModelOption = None,
) -> None:
    """Compute 12 * 7 + 5 in the calculator with the agents and the configured model.

    Runs in a fresh sandbox, prints every step, and says where the record is."""
    from pcagent.demo import EXPECTED_RESULT, run_demo

    report = run_demo(
        config_with(model=model),
        log=lambda message: console.print(f"[dim]{escape(message)}[/dim]"),
        on_step=print_step,
        max_steps=max_steps,
    )
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
