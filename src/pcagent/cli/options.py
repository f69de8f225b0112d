"""Options several commands share, and the configuration they produce."""

from __future__ import annotations

from typing import Annotated

import typer

from pcagent.config import PcAgentConfig, load_config
from pcagent.runtime.ablations import ABLATIONS

ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        help="auto, passive or proactive (default: run.mode; passive with --display).",
    ),
]
AblationOption = Annotated[
    str, typer.Option("--ablation", help=f"Parts to switch off: {', '.join(ABLATIONS)}.")
]
MaxStepsOption = Annotated[
    int | None, typer.Option("--max-steps", help="Step cap (default: run.max_steps).")
]
ModelOption = Annotated[
    str | None, typer.Option("--model", help="Model profile for every agent (PCAGENT_MODEL).")
]


def config_with(max_steps: int | None = None, model: str | None = None) -> PcAgentConfig:
    """The configuration file with the step cap and the model of the command line applied.

    Raises :class:`~pcagent.errors.ConfigurationError` for a bad file, an unknown model profile
    or a step cap out of range.
    """
    config = load_config()
    if model is not None:
        config = config.updated("models", default=model)
    if max_steps is not None:
        config = config.updated("run", max_steps=max_steps)
    return config
