"""The project's one configuration: a validated TOML file plus environment variables.

Why one place: every layer reads its settings from :class:`PcAgentConfig`, so defaults are written
once (here, as field defaults) and documented once. Nothing is read at import; callers call
:func:`load_config` and pass the result down.

File: ``$PCAGENT_CONFIG``, default ``~/.config/pcagent/config.toml``. A missing file means "all
defaults". Unknown keys are rejected so that a typo does not silently fall back to a default.

Sections: ``[models]`` (:class:`ModelsConfig`), ``[run]`` (:class:`RunConfig`), ``[safety]``
(:class:`SafetyConfig`), ``[desktop]`` (:class:`DesktopConfig`); every key and default is listed in
``docs/configuration.md``. Adding a section: define a ``ConfigSection`` model here and add it as a
field of :class:`PcAgentConfig` with a default factory. Nothing else changes.

Environment variables (they win over the file):

=====================  ==========================================================================
``PCAGENT_CONFIG``     path of the TOML file (default ``~/.config/pcagent/config.toml``)
``PCAGENT_DATA_DIR``   where installed models and run records live (default
                       ``~/.local/share/pcagent``)
``PCAGENT_MODEL``      name of the model profile used by every role without its own entry in
                       ``[models.roles]`` (overrides ``models.default``)
=====================  ==========================================================================
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pcagent.errors import ConfigurationError

CONFIG_ENV = "PCAGENT_CONFIG"
DATA_DIR_ENV = "PCAGENT_DATA_DIR"
MODEL_ENV = "PCAGENT_MODEL"

DEFAULT_CONFIG_PATH = "~/.config/pcagent/config.toml"
DEFAULT_DATA_DIR = "~/.local/share/pcagent"

#: The name of the profile that always exists: the installed local model.
LOCAL_PROFILE = "local"

BackendName = Literal["openai", "anthropic", "local"]


class ConfigSection(BaseModel):
    """Base of every section: unknown keys are errors, values are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelProfile(ConfigSection):
    """One named model (``[models.profiles.NAME]``): which backend, which model, its limits.
    Keys that do not apply to a backend are ignored by it."""

    backend: BackendName = "local"
    #: Model name sent to the server (``gpt-4o-mini``, ``claude-sonnet-4-5``...). Remote only.
    model: str = ""
    #: Server address for OpenAI-compatible servers (vLLM, Ollama, llama.cpp...). Empty: the SDK's
    #: default (which honours ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL``).
    base_url: str = ""
    #: Name of the environment variable holding the API key. Empty: ``OPENAI_API_KEY`` for openai,
    #: ``ANTHROPIC_API_KEY`` for anthropic. The key itself never goes in the file.
    api_key_env: str = ""
    #: Local backend: the installed pack to use (``pcagent models list``); empty: the best one.
    pack: str = ""
    #: Local backend: a GGUF file to use instead of a pack.
    gguf_path: str = ""
    #: Local backend: CPU threads for generation and prompt processing.
    threads: int = Field(default=2, ge=1, le=256)
    #: Local backend: context window per agent role (tokens).
    context_tokens: int = Field(default=4096, ge=256)
    #: Local backend: how many agent roles keep their own prompt cache at once.
    cache_slots: int = Field(default=4, ge=1, le=32)
    #: Local backend: keep each role's prompt cache on disk between runs (``prompt-cache`` in
    #: the data folder), so a new run's first call of a role evaluates only what changed.
    prompt_cache: bool = True
    #: Local backend: MiB of earlier prompts' states llama.cpp keeps in memory to reuse. None: a
    #: quarter of this machine's memory, at most 8,192 (llama.cpp's own default); 0: none.
    cache_ram_mib: int | None = Field(default=None, ge=0)
    #: How the schema reaches the model. ``auto``: the strongest the backend has (constrained
    #: decoding for local and OpenAI-compatible, forced tool call for Anthropic), falling back to
    #: the prompt when an OpenAI-compatible server rejects JSON-schema response formats.
    structured_output: Literal["auto", "prompt"] = "auto"
    #: Whether the model accepts images. False: images are replaced by their text alternative.
    vision: bool = False
    #: Longest image side sent to the model (pixels); larger screenshots are downscaled.
    max_image_side: int = Field(default=1568, ge=64)
    #: Most pixels in one image sent to the model.
    max_image_pixels: int = Field(default=1_150_000, ge=4096)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_output_tokens: int = Field(default=1024, ge=1)
    #: Seconds one request may take before it counts as failed (and is retried).
    timeout_s: float = Field(default=120.0, gt=0)
    #: Dollars per million prompt / completion tokens, for cost accounting. 0: unknown.
    prompt_cost_per_mtok: float = Field(default=0.0, ge=0.0)
    completion_cost_per_mtok: float = Field(default=0.0, ge=0.0)


class ModelsConfig(ConfigSection):
    """``[models]``: which model each agent role uses, and how hard to try."""

    #: Profile for roles not listed in ``roles``. ``local`` is built in.
    default: str = LOCAL_PROFILE
    #: Agent role → profile name, e.g. ``manager = "gpt"``.
    roles: dict[str, str] = Field(default_factory=dict)
    profiles: dict[str, ModelProfile] = Field(default_factory=dict)
    #: How many times output that fails validation is re-asked (with the error) before the call
    #: returns a typed failure.
    validation_retries: int = Field(default=2, ge=0, le=10)
    #: How many times a transient transport error (timeout, 429, 5xx, refused connection) is
    #: retried, with exponential backoff starting at ``retry_backoff_s``.
    transport_retries: int = Field(default=3, ge=0, le=10)
    retry_backoff_s: float = Field(default=1.0, ge=0.0)

    @model_validator(mode="after")
    def _names_exist(self) -> ModelsConfig:
        known = set(self.profiles) | {LOCAL_PROFILE}
        for where, name in [("models.default", self.default)] + [
            (f"models.roles.{role}", name) for role, name in self.roles.items()
        ]:
            if name not in known:
                raise ValueError(
                    f"{where} = {name!r} names no profile; define [models.profiles.{name}] "
                    f"or use one of {sorted(known)}"
                )
        return self

    def profile(self, name: str) -> ModelProfile:
        """The profile called ``name``; ``local`` exists even when the file does not define it."""
        if name in self.profiles:
            return self.profiles[name]
        if name == LOCAL_PROFILE:
            return ModelProfile(backend="local")
        raise ConfigurationError(f"no model profile {name!r}; define [models.profiles.{name}]")

    def profile_name_for_role(self, role: str) -> str:
        """The profile an agent role uses: its own entry in ``roles``, else ``default``."""
        return self.roles.get(role, self.default)


InteractionMode = Literal["auto", "passive", "proactive"]


class RunConfig(ConfigSection):
    """``[run]``: limits and habits of one agent run (``pcagent run``)."""

    #: Most actions one run may execute before it stops as failed.
    max_steps: int = Field(default=40, ge=1, le=10_000)
    #: Consecutive steps that Reflection judged failed (or that raised) before the subtask fails.
    max_consecutive_failures: int = Field(default=6, ge=1, le=100)
    #: Failures in a row after which Progress re-assesses the subtask (Decision -> Progress).
    escalate_to_progress_after: int = Field(default=2, ge=1, le=100)
    #: Failures in a row after which the Manager re-plans the remaining subtasks.
    escalate_to_manager_after: int = Field(default=4, ge=1, le=100)
    #: The same action this many times in a row without a change counts as a loop.
    loop_repeats: int = Field(default=3, ge=2, le=50)
    #: Most model tokens (prompt + completion) one run may spend; 0: no budget.
    token_budget: int = Field(default=0, ge=0)
    #: Most seconds one run's steps may take (checked before each step); 0: no limit.
    time_budget: float = Field(default=0, ge=0)
    #: How often the Manager may re-plan in one run.
    max_replans: int = Field(default=2, ge=0, le=20)
    #: Re-plan at once when a program step's skill fails, rather than let the Decision agent
    #: try it through the screen (the local 1.5B model mostly clicked about until the step cap).
    replan_on_skill_failure: bool = True
    #: Have a model read which files, folders and web sites the instruction names (one call),
    #: and doubt a program where no step works on one of the files, that writes a new file in
    #: HOME itself while a named folder goes unused, or never goes to a named site: the Manager
    #: is asked again, and a program kept with it ends "unverified" at best, never "finished".
    check_named_files: bool = True
    #: Have a model read which applications the instruction asks for, with its words for each
    #: (one call per instruction), and doubt a program in which no step uses one of them, as
    #: for ``check_named_files``. Not on runs across several desktops.
    check_named_apps: bool = True
    #: Have a model read whether the instruction asks to be told a value (one call), and doubt
    #: a program where no step tells the person, as for ``check_named_files``. Off: the local
    #: 1.5B model's reading doubted right programs too often (docs/agents.md).
    check_asked_answer: bool = False
    #: Ask a model alone which meaning the instruction asks for of each choice a program's
    #: skill call makes (a sort's first end), the paragraphs of each formatting and the
    #: formattings of a call's paragraphs, and set the program's values to its answers.
    read_choices: bool = True
    #: Have a model read what the instruction asks each application the program works in to
    #: leave done (two calls each), and doubt a program where no step does it, as for
    #: ``check_named_files``. Off until measured on runs (docs/agents.md).
    check_left_out_effects: bool = False
    #: Where a program opens a web address neither the instruction nor an earlier step gives,
    #: have a model say what to search the web for instead (one call per such step).
    search_guessed_addresses: bool = True
    #: Programs the Manager is asked for, each re-ask naming the last one's problems and doubts,
    #: before the instruction becomes one GUI task (problems) or the last program is kept with
    #: its doubts (the run cannot end "finished" on them); a small model fixes one per ask.
    program_attempts: int = Field(default=3, ge=1, le=10)
    #: Where the asks run out, ask the Manager's model for one step alone where the kept
    #: program's doubts say which (an application asked for and unused, a value found and
    #: unused) or where no program was usable (its first faulty step): one call per such step.
    single_step_asks: bool = True
    #: Ask the Manager again for a screen step where skills work (agents/screen_steps.py).
    screen_steps_doubted: bool = True
    #: ``auto``: no human; ``passive``: a role may ask; ``proactive``: it approves each step.
    mode: InteractionMode = "auto"
    #: Marks shown to the Decision agent (the most relevant to the subtask); 0: all.
    listing_limit: int = Field(default=60, ge=0)
    #: Ask the Reflection model also where a deterministic check already decided a step's
    #: verdict, and record its verdict beside the check's (which stands). A model call more per
    #: such step; for measuring how often the model would have judged wrongly.
    reflection_second_opinion: bool = False
    #: Offer a subtask's Decision agent its application's own actions (and answer, done, fail,
    #: wait) alone until a step of the subtask fails; then mouse and keyboard too. A small
    #: model offered both clicked a button labelled "Add World Clock" to set an alarm.
    app_actions_first: bool = True
    #: A page graph file (``pcagent experience build``): Decision is told what earlier runs did
    #: from pages like the current one, the Manager gets plans of similar tasks. "": none.
    experience: str = ""
    #: Add OCR text marks to every observation (slower; for apps without accessible text).
    with_ocr: bool = False
    #: Save every step's HOME files (content-addressed) so a rewind can restore them.
    snapshot_home: bool = True
    #: Files bigger than this (bytes) are kept in HOME snapshots by size and hash only: their
    #: loss is told and refuses the run's done, but cannot be undone.
    snapshot_max_file_bytes: int = Field(default=50_000_000, ge=1)
    #: Before a run whose every step checked its effect ends "finished", a model (the ``judge``
    #: role) compares the instruction with the steps done; where it finds a request undone or
    #: done otherwise, the run ends "unverified". One model call per such run. Off by default:
    #: the local qwen2.5-coder-1.5b judged every recorded run complete, wrong ones included
    #: (docs/agents.md, "The Judge"); worth it with a stronger model for the ``judge`` role.
    judge_outcome: bool = False


class SafetyConfig(ConfigSection):
    """``[safety]``: which actions count as sensitive, and which of those ``auto`` mode allows."""

    #: Names of sensitive-action categories that run without asking, even in ``auto`` mode
    #: (``send_mail``, ``delete_files``, ``overwrite_files``, ``discard_changes``,
    #: ``close_window``, or your own).
    allow: list[str] = Field(default_factory=list)
    #: Extra sensitive labels (case-insensitive regular expressions matched against the label
    #: of the mark an action clicks, in the folded form of :mod:`pcagent.runtime.safety.label_folding`:
    #: look-alike letters, invisible characters and apostrophes do not count), category ``custom``.
    extra_labels: list[str] = Field(default_factory=list)
    #: Extra sensitive key chords, e.g. ``"ctrl+shift+delete"``, category ``custom``.
    extra_hotkeys: list[str] = Field(default_factory=list)


class DesktopConfig(ConfigSection):
    """``[desktop]``: the desktop a run works on: a fresh sandbox (the default) or, with
    ``display``, the person's own X display.

    The sandbox fields mirror :class:`pcagent.env.sandbox.SandboxConfig` with the same defaults
    (the run assembly converts one into the other); the benchmark always uses fresh sandboxes and
    ignores ``display``.
    """

    #: Screen width of a sandbox, in pixels.
    width: int = Field(default=1280, ge=320, le=7680)
    #: Screen height of a sandbox, in pixels.
    height: int = Field(default=800, ge=240, le=4320)
    #: Longest wait, in seconds, for the screen to stop changing after an action.
    settle_timeout: float = Field(default=6.0, ge=0)
    #: The screen counts as settled after this many quiet seconds.
    settle_quiet: float = Field(default=0.25, gt=0)
    #: Seconds to wait for each of the sandbox's services (X server, buses, window manager).
    start_timeout: float = Field(default=30.0, gt=0)
    #: Folder copied into a sandbox's fresh HOME at start and at every reset (``~`` expands).
    #: None: the built-in template.
    home_template: Path | None = None
    #: Keep a sandbox's folder (HOME, logs, state file) after it closes, to look at afterwards.
    keep_files: bool = False
    #: When pcagent runs as root, run a sandbox's session and applications as the unprivileged
    #: user ``pcagent-desktop`` (``scripts/install-system.sh`` creates it). Without root: no effect.
    unprivileged_apps: bool = True
    #: Attach to this X display (e.g. ``":0"``, the person's own desktop) instead of starting a
    #: sandbox. Runs there default to ``passive`` mode and never snapshot HOME unless asked.
    display: str | None = Field(default=None, min_length=1)


class PcAgentConfig(ConfigSection):
    """The whole configuration. ``data_dir`` comes from the environment, not the file."""

    models: ModelsConfig = Field(default_factory=ModelsConfig)
    run: RunConfig = Field(default_factory=RunConfig)
    safety: SafetyConfig = Field(default_factory=SafetyConfig)
    desktop: DesktopConfig = Field(default_factory=DesktopConfig)
    #: Where installed models (``models/``) and run records live. ``$PCAGENT_DATA_DIR``.
    data_dir: Path = Field(default_factory=lambda: Path(DEFAULT_DATA_DIR).expanduser())
    #: The file this was read from (None: defaults only).
    source: Path | None = None

    def updated(self, section: str, **changes: Any) -> PcAgentConfig:
        """This configuration with some keys of one section changed, validated like the file:
        ``config.updated("run", mode="passive")``. Used for command-line options.

        Raises :class:`ConfigurationError` naming the key and the problem.
        """
        current = getattr(self, section, None)
        if not isinstance(current, ConfigSection):
            raise ValueError(f"{section!r} is not a section of the configuration")
        try:
            replaced = type(current).model_validate({**current.model_dump(), **changes})
        except ValidationError as error:
            raise ConfigurationError(
                f"invalid setting: {validation_problems(error, section)}"
            ) from None
        return self.model_copy(update={section: replaced})

    @property
    def models_dir(self) -> Path:
        """Where ``pcagent models install`` puts model files."""
        return self.data_dir / "models"

    @property
    def prompt_cache_dir(self) -> Path:
        """Where local models keep each role's prompt cache between runs."""
        return self.data_dir / "prompt-cache"

    @property
    def runs_dir(self) -> Path:
        """Where run records live (``runs.sqlite`` and one folder per run)."""
        return self.data_dir / "runs"


def validation_problems(error: ValidationError, section: str = "") -> str:
    """A pydantic error as one line a user can act on: ``run.mode: Input should be ...; ...``.
    ``section`` names the section the error's locations are in, when it was validated alone."""
    problems = []
    for item in error.errors():
        where = ([section] if section else []) + [str(part) for part in item["loc"]]
        problems.append(f"{'.'.join(where) or '(top)'}: {item['msg']}")
    return "; ".join(problems)


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The configuration file's path: ``$PCAGENT_CONFIG`` or the default."""
    environ = os.environ if environ is None else environ
    return Path(environ.get(CONFIG_ENV) or DEFAULT_CONFIG_PATH).expanduser()


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The data directory: ``$PCAGENT_DATA_DIR`` or the default. Not created here."""
    environ = os.environ if environ is None else environ
    return Path(environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR).expanduser()


def load_config(
    path: Path | str | None = None, environ: Mapping[str, str] | None = None
) -> PcAgentConfig:
    """Read and validate the configuration.

    ``path`` overrides ``$PCAGENT_CONFIG``; ``environ`` (default ``os.environ``) is a parameter so
    tests need not touch the process environment. A missing file at the *default* path means all
    defaults; a missing file that was asked for explicitly is an error.

    Raises :class:`ConfigurationError` with the file name and the offending key.
    """
    environ = os.environ if environ is None else environ
    explicit = path is not None or bool(environ.get(CONFIG_ENV))
    file = Path(path).expanduser() if path is not None else config_path(environ)
    raw: dict[str, object] = {}
    source: Path | None = None
    if file.is_file():
        try:
            raw = tomllib.loads(file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise ConfigurationError(f"{file}: not valid TOML: {error}") from error
        except RecursionError:
            raise ConfigurationError(
                f"{file}: its values are nested too deeply to read; a pcagent configuration "
                "needs only a few levels (sections and lists of plain values)"
            ) from None
        source = file
    elif explicit:
        raise ConfigurationError(
            f"configuration file {file} does not exist (set by {CONFIG_ENV} or --config); "
            "create it or unset the variable"
        )
    for forbidden in ("data_dir", "source"):
        if forbidden in raw:
            raise ConfigurationError(
                f"{file}: '{forbidden}' cannot be set in the file; use {DATA_DIR_ENV}"
            )
    model_override = environ.get(MODEL_ENV)
    if model_override:
        models = dict(raw.get("models", {}) or {})  # type: ignore[call-overload]
        models["default"] = model_override
        raw["models"] = models
    try:
        return PcAgentConfig.model_validate(
            {**raw, "data_dir": data_dir(environ), "source": source}
        )
    except ValidationError as error:
        problems = validation_problems(error)
        where = source or "configuration"
        hint = f" (or {MODEL_ENV})" if model_override else ""
        raise ConfigurationError(f"{where}{hint}: {problems}") from error
