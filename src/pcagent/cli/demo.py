"""``pcagent demo``: one real task carried out by the agents, every step printed."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pcagent.cli.errors import reports_errors
from pcagent.cli.options import ModelOption, config_with
from pcagent.cli.run_output import (
    JsonOption,
    QuietOption,
    RunOutput,
    outcome_fields,
    output_mode,
)


@reports_errors
def demo_command(
    max_steps: Annotated[int, typer.Option("--max-steps", help="Step cap of the run.")] = 14,
    model: ModelOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Compute 12 * 7 + 5 in the calculator with the agents and the configured model.

    Runs in a fresh sandbox, prints every step, and says where the record is."""
    from pcagent.demo import EXPECTED_RESULT, run_demo

    output = RunOutput(output_mode(quiet, as_json))
    with output:
        report = run_demo(
            config_with(model=model),
            log=output.log,
            on_step=output.step,
            max_steps=max_steps,
            progress=output.progress,
        )
    outcome = report.outcome
    colour = "green" if report.correct else "yellow"
    output.result(
        [
            f"run {outcome.status} after {outcome.steps} steps and {outcome.tokens} tokens "
            f"({escape(report.model)}): {escape(outcome.summary)}",
            f"[{colour}]the calculator shows {report.calculator_display or '(nothing)'!r}; "
            f"expected {EXPECTED_RESULT}[/{colour}]",
            f"record: {report.record}",
            f"  pcagent runs show {outcome.run_id}    pcagent runs replay {outcome.run_id}",
        ],
        **outcome_fields(outcome, report.record),
        model=report.model,
        calculator_display=report.calculator_display,
        expected=EXPECTED_RESULT,
        correct=report.correct,
    )
