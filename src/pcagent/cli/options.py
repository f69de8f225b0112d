"""Options several commands share, and the configuration they produce."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar, get_args

import typer

from pcagent.config import InteractionMode, PcAgentConfig, load_config
from pcagent.errors import ConfigurationError
from pcagent.runtime.loop.ablations import ABLATIONS

if TYPE_CHECKING:
    from pcagent.models.served import ServedModel

#: The interaction modes, as an option's value name: [auto|passive|proactive].
MODE_CHOICES = "[" + "|".join(get_args(InteractionMode)) + "]"


def _mode_option(default: str) -> Any:
    """--mode, its help ending with what the mode is when the option is not given."""
    return typer.Option(
        "--mode",
        metavar=MODE_CHOICES,
        help=f"auto: no human; passive: a role may ask you; proactive: you approve every step "
        f"(default: {default}).",
    )


ModeOption = Annotated[str | None, _mode_option("run.mode; passive with --display")]
#: The same for a run continued in a fresh sandbox, which never attaches to a display.
ContinuedModeOption = Annotated[str | None, _mode_option("run.mode")]
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


ModelUrlOption = Annotated[
    str | None,
    typer.Option(
        "--model-url",
        metavar="URL",
        help="Use the model --model-name on this OpenAI-compatible server for every agent "
        "(e.g. http://127.0.0.1:8080/v1 for llama.cpp, vLLM or Ollama).",
    ),
]
ModelNameOption = Annotated[
    str | None,
    typer.Option(
        "--model-name", metavar="NAME", help="The model's name on the --model-url server."
    ),
]
VisionOption = Annotated[
    bool | None,
    typer.Option(
        "--vision/--no-vision",
        help="Whether the --model-url model sees screenshots (default: what the server says "
        "of it; text only when it says nothing).",
    ),
]
ApiKeyEnvOption = Annotated[
    str | None,
    typer.Option(
        "--api-key-env",
        metavar="VAR",
        help="The environment variable holding the --model-url server's API key (default: "
        "OPENAI_API_KEY when set; a local server needs none).",
    ),
]


@dataclass(frozen=True)
class ModelChoice:
    """The model the command line names: a profile (--model), or a model on an
    OpenAI-compatible server (--model-url and --model-name, with --vision and --api-key-env).
    The values stay as given until :meth:`served` checks them, so each command checks them
    where it always did."""

    profile: str | None = None
    url: str | None = None
    name: str | None = None
    vision: bool | None = None
    api_key_env: str | None = None

    def served(self) -> ServedModel | None:
        """See :func:`served_model`."""
        return served_model(self.profile, self.url, self.name, self.vision, self.api_key_env)


#: No model named on the command line: the configured one.
CONFIGURED_MODEL = ModelChoice()

R = TypeVar("R")
Q = ParamSpec("Q")

#: One option a decorator below shows typer: its parameter name, its annotation (type and
#: ``typer.Option``) and its default.
OptionSpec = tuple[str, Any, Any]


def takes_in_place(
    name: str, options: Sequence[OptionSpec], pack: Callable[..., Any]
) -> Callable[[Callable[Q, R]], Callable[..., R]]:
    """Give a command ``options`` in place of its parameter ``name``, and hand it, as ``name``,
    the one value ``pack`` makes of their values (given in the order of ``options``).

    typer reads a command's options from its signature, so the wrapper shows typer the options
    where ``name`` stands, with the same names, help and defaults as if the command listed
    them; a group of options that several commands take is declared once."""

    def options_of(command: Callable[Q, R]) -> Callable[..., R]:
        signature = inspect.signature(command, eval_str=True, locals={"ModelChoice": ModelChoice})
        shown_options = [
            inspect.Parameter(
                option, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=value
            )
            for option, kind, value in options
        ]
        parameters: list[inspect.Parameter] = []
        for parameter in signature.parameters.values():
            if parameter.name == name:
                parameters.extend(shown_options)
            else:
                parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
        shown = signature.replace(parameters=parameters)

        @functools.wraps(command)
        def with_options(**given: Any) -> R:
            packed = pack(*(given.pop(option) for option, _, _ in options))
            return command(**{name: packed}, **given)  # type: ignore[arg-type]

        with_options.__signature__ = shown  # type: ignore[attr-defined]
        with_options.__annotations__ = {
            parameter.name: parameter.annotation for parameter in parameters
        } | {"return": signature.return_annotation}
        return with_options

    return options_of


def takes_group(name: str, group: type[Any]) -> Callable[[Callable[Q, R]], Callable[..., R]]:
    """:func:`takes_in_place` for a group of options declared as a dataclass: each field is an
    option, its annotation the option's and its default the option's default."""
    hints = typing.get_type_hints(group, include_extras=True)
    options = [(one.name, hints[one.name], one.default) for one in dataclasses.fields(group)]
    return takes_in_place(name, options, group)


def takes_model_choice(
    profile_option: Any = ModelOption,
) -> Callable[[Callable[Q, R]], Callable[..., R]]:
    """Give a command the model options (``profile_option`` for --model) in place of its
    ``model: ModelChoice`` parameter, and hand it the one :class:`ModelChoice` they make."""
    return takes_in_place(
        "model",
        [
            ("model", profile_option, None),
            ("model_url", ModelUrlOption, None),
            ("model_name", ModelNameOption, None),
            ("vision", VisionOption, None),
            ("api_key_env", ApiKeyEnvOption, None),
        ],
        ModelChoice,
    )


def served_model(
    model: str | None,
    url: str | None,
    name: str | None,
    vision: bool | None,
    api_key_env: str | None,
) -> ServedModel | None:
    """The model named with --model-url and --model-name, checked before anything starts;
    None when neither is given. :class:`ConfigurationError` for a half-given or clashing pair."""
    from pcagent.models.served import ServedModel, checked_url

    if url is None and name is None:
        pairs = (("--vision", vision), ("--api-key-env", api_key_env))
        given = [flag for flag, value in pairs if value is not None]
        if given:
            raise ConfigurationError(
                f"{' and '.join(given)} go with --model-url URL --model-name NAME"
            )
        return None
    if url is None or name is None:
        raise ConfigurationError(
            "--model-url and --model-name go together: the server's address and the model's "
            "name there"
        )
    if model is not None:
        raise ConfigurationError(
            "--model names a profile and --model-url a server; give one of them"
        )
    return ServedModel(
        url=checked_url(url), name=name, vision=vision, api_key_env=api_key_env or ""
    )


def config_with(
    max_steps: int | None = None,
    model: str | None = None,
    experience: Path | None = None,
    served: ServedModel | None = None,
    notice: Callable[[str], None] = print,
) -> PcAgentConfig:
    """The configuration file with the step cap, the model (a profile, or ``served``: a model
    on a server, asked now whether it sees images, ``notice`` told when the server decides)
    and the page graph of the command line applied.

    Raises :class:`~pcagent.errors.ConfigurationError` for a bad file, an unknown model profile,
    a step cap out of range or a page graph that is not there, and
    :class:`~pcagent.errors.ModelUnavailableError` when nothing answers at the served model's
    address.
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
    if served is not None:
        config = with_served_model(config, served, notice)
    if max_steps is not None:
        config = config.updated("run", max_steps=max_steps)
    return config


def with_served_model(
    config: PcAgentConfig, served: ServedModel, notice: Callable[[str], None]
) -> PcAgentConfig:
    """``config`` with every role on ``served`` (the file's per-role choices set aside)."""
    from pcagent.models.served import COMMAND_LINE_PROFILE, profile_for

    profile, choice = profile_for(served)
    if choice.note:
        notice(choice.note)
    profiles = {**config.models.profiles, COMMAND_LINE_PROFILE: profile}
    return config.updated("models", profiles=profiles, default=COMMAND_LINE_PROFILE, roles={})
