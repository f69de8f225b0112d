"""Options several commands share, and the configuration they produce."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pcagent.config import PcAgentConfig, load_config
from pcagent.errors import ConfigurationError
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
ExperienceOption = Annotated[
    Path | None,
    typer.Option(
        "--experience",
        help="A page graph (`pcagent experience build`) to guide the agents (default: "
        "run.experience).",
    ),
]
ModelOption = Annotated[
    str | None, typer.Option("--model", help="Model profile for every agent (PCAGENT_MODEL).")
]


def config_with(
    max_steps: int | None = None, model: str | None = None, experience: Path | None = None
) -> PcAgentConfig:
    """The configuration file with the step cap, the model and the page graph of the command
    line applied.

    Raises :class:`~pcagent.errors.ConfigurationError` for a bad file, an unknown model profile,
    a step cap out of range or a page graph that is not there.
    """
    config = load_config()
    if experience is not None:
        if not experience.expanduser().is_file():
            raise ConfigurationError(
                f"--experience {experience}: no such file; build a page graph with "
                "`pcagent experience build`"
            )
        config = config.updated("run", experience=str(experience.expanduser().resolve()))
    if model is not None:
        config = config.updated("models", default=model)
    if max_steps is not None:
        config = config.updated("run", max_steps=max_steps)
    return config
