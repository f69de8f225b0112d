"""Options several commands share, and the configuration they produce."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, get_args

import typer

from pcagent.config import InteractionMode, PcAgentConfig, load_config
from pcagent.errors import ConfigurationError
from pcagent.runtime.ablations import ABLATIONS

#: The interaction modes, as an option's value name: [auto|passive|proactive].
MODE_CHOICES = "[" + "|".join(get_args(InteractionMode)) + "]"
ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        metavar=MODE_CHOICES,
        help="auto: no human; passive: a role may ask you; proactive: you approve every step "
        "(default: run.mode; passive with --display).",
    ),
]
#: The same for a run continued in a fresh sandbox, which never attaches to a display.
ContinuedModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        metavar=MODE_CHOICES,
        help="auto: no human; passive: a role may ask you; proactive: you approve every step "
        "(default: run.mode).",
    ),
]
AblationOption = Annotated[
    str,
    typer.Option(
        "--ablation",
        metavar="ABLATION",
        help=f"A part of pcagent to switch off, to measure what it brings: {', '.join(ABLATIONS)}.",
    ),
]
MaxStepsOption = Annotated[
    int | None, typer.Option("--max-steps", help="Step cap (default: run.max_steps).")
]
ExperienceOption = Annotated[
    Path | None,
    typer.Option(
        "--experience",
        help="A page graph (made by pcagent experience build) to guide the agents (default: "
        "run.experience).",
    ),
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model", metavar="PROFILE", help="Model profile for every agent (PCAGENT_MODEL)."
    ),
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
