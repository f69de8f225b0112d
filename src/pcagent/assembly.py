"""Putting a run together: the desktop, the models, the run record and a session over them.

Why one place: the command line (``run``, ``runs resume|rewind|replay``), the demo and the
benchmark all need the same pieces built the same way, with the same checks done before anything
starts. The steps are:

1. :meth:`RunChoices.of` checks what was asked (ablation, interaction mode, the display to attach
   to) and settles the configuration the run will use; nothing starts yet, so a typo costs nothing.
2. :func:`open_run` opens the pieces: a fresh sandbox desktop (or the person's own display), the
   :class:`~pcagent.models.ModelRouter` and the :class:`~pcagent.runtime.record.store.RunStore`; it
   closes what it opened when the ``with`` block ends.
3. :meth:`RunParts.session` makes a :class:`~pcagent.runtime.loop.session.RunSession` over them, as
   often as needed: the benchmark keeps one desktop and one router per worker and makes a
   session per task.

This module sits above ``env``, ``models`` and ``runtime`` and joins them; the configuration file
(:mod:`pcagent.config`) knows none of them, so the ``[desktop]`` section is converted into the
sandbox's own settings here (:func:`sandbox_config`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from pcagent.config import DesktopConfig, InteractionMode, PcAgentConfig
from pcagent.env.sandbox import SandboxDesktop
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.errors import ConfigurationError, RunStateError, SandboxClosedError
from pcagent.models import ModelRouter
from pcagent.runtime.loop.ablations import Ablation, check_ablation
from pcagent.runtime.loop.human import Human, NoHuman, TerminalHuman
from pcagent.runtime.loop.parts import AgentModels, ExperienceSource
from pcagent.runtime.loop.progress import Progress, sandbox_start
from pcagent.runtime.loop.session import RunOutcome, RunSession
from pcagent.runtime.record.models import RunRecord, StepRecord
from pcagent.runtime.record.store import RunStore

Log = Callable[[str], None]
StepCallback = Callable[[StepRecord], None]

#: The mode a run on the person's own display gets unless it is asked for another: sensitive
#: actions (sending mail, deleting files...) are confirmed by the person at the terminal.
ATTACHED_MODE: InteractionMode = "passive"


def _no_log(_message: str) -> None:
    """The default ``log``: notes are dropped."""


def sandbox_config(desktop: DesktopConfig, *, browser_flags: Sequence[str] = ()) -> SandboxConfig:
    """The sandbox settings of the ``[desktop]`` section: each of its settings but ``display``
    (which says whether to start a sandbox at all) is the sandbox's own, by the same name.
    ``browser_flags`` come from the caller (the benchmark's offline websites), not from the
    file."""
    settings = desktop.model_dump(exclude={"display"})
    if desktop.home_template is not None:
        settings["home_template"] = desktop.home_template.expanduser()
    return SandboxConfig(**settings, browser_flags=list(browser_flags))


def default_human(mode: InteractionMode, **terminal: Any) -> Human:
    """Nobody in ``auto`` mode; the person at the terminal otherwise (``terminal`` goes to
    :class:`~pcagent.runtime.loop.human.TerminalHuman`, e.g. ``console=``)."""
    return NoHuman() if mode == "auto" else TerminalHuman(**terminal)


@dataclass(frozen=True)
class RunChoices:
    """What a run was asked to be, checked, before anything starts.

    ``config`` is the configuration the run uses: the file's, with the options applied and, on
    the person's own display, the attach defaults (``passive`` mode, no HOME snapshots).
    ``display`` is the X display to attach to; None means a fresh sandbox.
    """

    config: PcAgentConfig
    ablation: Ablation
    display: str | None = None

    @property
    def attached(self) -> bool:
        """Whether the run works on an existing display rather than a sandbox of its own."""
        return self.display is not None

    @property
    def mode(self) -> InteractionMode:
        return self.config.run.mode

    @classmethod
    def of(
        cls,
        config: PcAgentConfig,
        *,
        ablation: str = "none",
        display: str | None = None,
        mode: str | None = None,
        snapshot_home: bool | None = None,
        may_attach: bool = True,
    ) -> RunChoices:
        """Check the choices and settle the run's configuration.

        ``display`` (else ``[desktop] display``) attaches to that X display. There the mode is
        ``passive`` unless ``mode`` names one (a ``proactive`` file setting is kept: it asks even
        more), and HOME is not snapshotted unless ``snapshot_home`` is True, because a snapshot
        copies the person's files into the run record and a rewind would write them back.
        ``may_attach=False`` (resume, rewind, replay: they restore recorded HOME files) ignores
        the file's display, and refuses an explicit one.

        Raises :class:`ConfigurationError` for an unknown ablation or mode, naming the valid ones.
        """
        checked = check_ablation(ablation)
        if display is not None and not display.strip():
            raise ConfigurationError("--display is empty; give an X display such as :0")
        if display is not None and not may_attach:
            raise ConfigurationError(
                "this command restores recorded HOME files, so it always runs in a fresh sandbox; "
                "leave out --display"
            )
        attach_to = (display or config.desktop.display) if may_attach else None
        run: dict[str, Any] = {}
        if mode is not None:
            run["mode"] = mode
        elif attach_to is not None and config.run.mode != "proactive":
            run["mode"] = ATTACHED_MODE
        if snapshot_home is not None:
            run["snapshot_home"] = snapshot_home
        elif attach_to is not None:
            run["snapshot_home"] = False
        return cls(config.updated("run", **run) if run else config, checked, attach_to)


@contextlib.contextmanager
def open_environment(
    choices: RunChoices,
    *,
    browser_flags: Sequence[str] = (),
    log: Log = _no_log,
    progress: Progress | None = None,
) -> Iterator[SandboxDesktop]:
    """A fresh sandbox started from ``[desktop]``, or the display ``choices`` attach to; closed
    (the sandbox ended, or the applications opened on the attached display closed) on exit.
    ``progress`` is told of the sandbox's start as a wait."""
    settings = sandbox_config(choices.config.desktop, browser_flags=browser_flags)
    if choices.display is not None:
        desktop = SandboxDesktop.attach(choices.display, settings)
        log(f"attached to display {choices.display}")
    else:
        with (progress or Progress()).waiting(sandbox_start()):
            desktop = SandboxDesktop(settings).start()
        log(f"sandbox desktop on display {desktop.display}")
    with desktop:
        yield desktop


@dataclass(frozen=True)
class RecordedEnvironment:
    """The desktop a recorded run used, as its settings name it."""

    state_file: Path
    attached: bool = False
    display: str = ""


def _first_desktop(described: object) -> Mapping[str, Any]:
    """An environment's ``describe()``, or its first desktop's for a set of desktops."""
    if not isinstance(described, Mapping):
        return {}
    members = described.get("environments")
    if isinstance(members, Mapping) and members:
        first = next(iter(members.values()))
        return first if isinstance(first, Mapping) else {}
    return described


def recorded_environment(settings: Mapping[str, Any]) -> RecordedEnvironment | None:
    """Where the state of a recorded run's desktop is kept, or None when it says nothing.

    Runs record ``settings["environment"]`` (the environment's ``describe()``: the sandbox's
    folder is ``root``, its state ``root/state.json``); older runs recorded the state file's path
    as ``settings["sandbox_state"]``. For a run across desktops it is the first desktop's: the
    run's own, the one snapshotted and restored.
    """
    described = _first_desktop(settings.get("environment"))
    if described.get("root"):
        return RecordedEnvironment(
            Path(str(described["root"])) / "state.json",
            attached=bool(described.get("attached", False)),
            display=str(described.get("display", "")),
        )
    if settings.get("sandbox_state"):
        return RecordedEnvironment(Path(str(settings["sandbox_state"])))
    return None


@dataclass(eq=False)
class RunParts:
    """An open desktop, the models and the run record, from which sessions are made.

    Made by :func:`open_run`; valid inside its ``with`` block.
    """

    choices: RunChoices
    environment: SandboxDesktop
    models: AgentModels
    store: RunStore
    _: KW_ONLY
    human: Human
    on_step: StepCallback | None = None
    log: Log = _no_log
    #: Told of the model calls of every session made here, as waits.
    progress: Progress = field(default_factory=Progress)
    _experience: ExperienceSource | None = field(default=None, init=False, repr=False)

    def experience(self) -> ExperienceSource | None:
        """The run's page graph and plan memory (``[run] experience``), opened once for every
        session made here; None when none is chosen or the ablation leaves it out."""
        run = self.config.run
        if not run.experience or self.choices.ablation == "no_experience":
            return None
        if self._experience is None:
            from pcagent.experience.loading import open_experience

            opened = open_experience(Path(run.experience), self.config.models_dir)
            self.log(
                f"experience: {run.experience} ({len(opened.graph.nodes)} pages, "
                f"{len(opened.graph.sources)} runs)"
            )
            self._experience = opened
        return self._experience

    @property
    def config(self) -> PcAgentConfig:
        return self.choices.config

    def session(
        self, *, on_step: StepCallback | None = None, allow: Sequence[str] = ()
    ) -> RunSession:
        """A session over these parts; ``on_step`` replaces the one given to :func:`open_run`
        (the benchmark evaluates each task's steps with its own); ``allow`` adds safety
        categories to ``[safety] allow`` for this session (what a task's instruction asks
        for)."""
        config = self.config
        if allow:
            safety = config.safety.model_copy(
                update={"allow": list(dict.fromkeys([*config.safety.allow, *allow]))}
            )
            config = config.model_copy(update={"safety": safety})
        return RunSession(
            environment=self.environment,
            models=self.models,
            store=self.store,
            config=config,
            human=self.human,
            ablation=self.choices.ablation,
            on_step=on_step if on_step is not None else self.on_step,
            log=self.log,
            progress=self.progress,
            experience=self.experience(),
        )

    def resume(self, run_id: str) -> RunOutcome:
        """Continue a recorded run on this desktop, after ending the sandbox it left behind when
        it was killed (a run killed with SIGKILL cannot end its own)."""
        record = self.store.get_run(run_id)
        self.end_left_behind(record)
        return self.session().resume(record.run_id)

    def end_left_behind(self, record: RunRecord) -> None:
        """End the sandbox ``record``'s run used, unless it is this one or already gone.

        A display the run was attached to is left alone: its recorded application processes may
        long since be someone else's. Raises :class:`RunStateError` when the sandbox's state file
        exists but cannot be read.
        """
        recorded = recorded_environment(record.settings)
        if recorded is None:
            return
        current = _first_desktop(self.environment.describe()).get("root")
        if current is not None and recorded.state_file == Path(str(current)) / "state.json":
            return
        if recorded.attached:
            self.log(
                f"run {record.run_id} was attached to display {recorded.display}; "
                "applications it opened there are left as they are"
            )
            return
        try:
            left = SandboxDesktop.load(recorded.state_file)
        except FileNotFoundError:
            self.log(f"the sandbox of run {record.run_id} is gone already ({recorded.state_file})")
            return
        except SandboxClosedError:
            self.log(f"the sandbox of run {record.run_id} is no longer running")
            return
        except (OSError, ValueError) as error:
            raise RunStateError(
                f"cannot read {recorded.state_file}, the state of the sandbox run "
                f"{record.run_id} left behind ({error}); delete the file and end the sandbox's "
                "processes by hand (they carry PCAGENT_SANDBOX_ID in their environment), then "
                "resume again"
            ) from error
        display = left.display
        left.close()
        self.log(f"ended the sandbox run {record.run_id} left behind (display {display})")


@contextlib.contextmanager
def open_run(
    choices: RunChoices,
    *,
    human: Human | None = None,
    on_step: StepCallback | None = None,
    log: Log = _no_log,
    environment: SandboxDesktop | None = None,
    models: AgentModels | None = None,
    browser_flags: Sequence[str] = (),
    runs_dir: Path | None = None,
    progress: Progress | None = None,
) -> Iterator[RunParts]:
    """Open the desktop, the models and the run store for ``choices``; close them on exit.

    ``environment`` and ``models`` are used as given (and left open) when passed: the benchmark
    starts its sandboxes itself and keeps one router per worker. ``human`` defaults to
    :func:`default_human` for the run's mode. ``runs_dir`` replaces the configuration's run
    records folder (a benchmark worker on another machine records into a folder of its own and
    sends each run back). ``progress`` is told of the sandbox's start and of every model call
    as waits.
    """
    with contextlib.ExitStack() as stack:
        if environment is None:
            environment = stack.enter_context(
                open_environment(choices, browser_flags=browser_flags, log=log, progress=progress)
            )
        if models is None:
            models = stack.enter_context(ModelRouter(choices.config))
        store = stack.enter_context(RunStore(runs_dir or choices.config.runs_dir))
        yield RunParts(
            choices,
            environment,
            models,
            store,
            human=human if human is not None else default_human(choices.mode),
            on_step=on_step,
            log=log,
            progress=progress or Progress(),
        )
