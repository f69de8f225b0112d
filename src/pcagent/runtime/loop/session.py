"""Runs: start one, resume a killed one, rewind one to any step. All three build the same
:class:`~pcagent.runtime.loop.loop.StepLoop` and differ only in the state they start it from.

Every step is written to the run record (SQLite + files) before the next begins, together with
the agents' checkpoint and, when the run keeps them, a HOME snapshot: a killed run resumes from
its last completed step, and a run can be rewound to any step. The loop stops at the step cap,
the token budget, a loop it cannot escape, too many failures in a row, or when the human says
stop (see :mod:`pcagent.runtime.loop.policy`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pcagent.agents.roles import Role, RolePool, default_pool, generalist
from pcagent.code_version import code_version
from pcagent.config import PcAgentConfig
from pcagent.env.ownership import give_to_owner
from pcagent.env.protocol import Desktops, Environment
from pcagent.errors import RunStateError
from pcagent.runtime.loop.ablations import Ablation, check_ablation
from pcagent.runtime.loop.desktop_state import DesktopAccess
from pcagent.runtime.loop.dispatch import ActionDispatcher
from pcagent.runtime.loop.human import Human, NoHuman
from pcagent.runtime.loop.limits import check_instruction
from pcagent.runtime.loop.loop import StepLoop
from pcagent.runtime.loop.parts import AgentModels, ExperienceSource, LoopParts, build_parts
from pcagent.runtime.loop.policy import EscalationPolicy
from pcagent.runtime.loop.progress import Progress
from pcagent.runtime.loop.run_ending import RunOutcome, failed_on_error, record_role_models
from pcagent.runtime.loop.subtasks import SubtaskBook
from pcagent.runtime.loop.watched_models import WatchedModels, reported_role
from pcagent.runtime.record.checkpoint import RunCheckpoint, check_desktops
from pcagent.runtime.record.events import PlanEvent, RestoreEvent, ResumeEvent, RewindEvent
from pcagent.runtime.record.models import RoleModel, RunRecord, StepRecord
from pcagent.runtime.record.recorder import StepRecorder, home_snapshots, initial_desktop
from pcagent.runtime.record.store import RunStore
from pcagent.runtime.safety.effects import FileEffectGuard
from pcagent.runtime.safety.guard import SafetyGuard
from pcagent.runtime.safety.mail_effects import HeldMailGuard
from pcagent.runtime.safety.unsaved_restore import restore_unsaved
from pcagent.skills import SkillCatalog, default_catalog


@dataclass
class RunSession:
    """Runs instructions on ``environment`` with ``models``, recording into ``store``.

    ``pool`` is the role pool (None: the built-in roles for the environment's applications).
    ``on_step`` is called with every recorded step (the CLI prints them); ``log`` gets one-line
    notes about planning, escalations and restores; ``progress`` is told of every model call
    as a wait (the CLI shows what it waits for, and for how long).
    """

    environment: Environment
    models: AgentModels
    store: RunStore
    config: PcAgentConfig
    human: Human = field(default_factory=NoHuman)
    pool: RolePool | None = None
    ablation: Ablation = "none"
    on_step: Callable[[StepRecord], None] | None = None
    log: Callable[[str], None] = lambda _message: None
    progress: Progress = field(default_factory=Progress)
    #: The page graph and plan memory to guide the agents, opened by whoever assembles the run
    #: (:meth:`pcagent.assembly.RunParts.experience`); None: no guidance.
    experience: ExperienceSource | None = None

    def __post_init__(self) -> None:
        # Everything that can be wrong with the set-up fails here, before a run is recorded.
        self.ablation = check_ablation(self.ablation)
        run = self.config.run
        # Every agent asks through these: each call is a wait, each role's model is recorded.
        self._models = WatchedModels(self.models, self.progress, self._note_model)
        self._desktop = DesktopAccess.of(self.environment)
        apps = self._desktop.applications()
        app_names = [app.name for app in apps]
        # The application actions the desktop offers, unless the ablation keeps to the GUI.
        app_kinds = self._desktop.app_action_kinds() if self.ablation != "gui_only" else frozenset()
        if self.pool is None:
            self.pool = default_pool(app_names, app_kinds)
        self._generalist = generalist(app_names, app_kinds)
        # Skills act through the application actions: none where the desktop offers none.
        skills = (
            default_catalog().for_apps(app_names)
            if app_kinds and self.ablation not in ("gui_only", "no_skills")
            else SkillCatalog(())
        )
        self._guard = SafetyGuard(
            self.config.safety,
            run.mode,
            self.human,
            editors=frozenset(app.name for app in apps if app.edits_documents),
        )
        snapshots = home_snapshots(self.store, run.snapshot_max_file_bytes)
        self._recorder = StepRecorder(
            self.store,
            self._desktop,
            snapshots if self._desktop.home is not None and run.snapshot_home else None,
            on_step=self.on_step,
        )
        self._snapshots = snapshots
        parts = build_parts(
            self.ablation,
            environment=self.environment,
            models=self._models,
            sink=self._recorder.sink,
            run=run,
            pool=self.pool,
            apps={app.name: app.description for app in apps},
            generalist=self._generalist.name,
            experience=self.experience,
            skills=skills,
        )
        self._book = SubtaskBook(
            parts,
            EscalationPolicy(run, can_replan=parts.planner.can_replan),
            self._recorder,
            self._desktop,
            self.human,
            run.mode,
            self.log,
        )
        self._loop = self._step_loop(parts, skills)

    def _step_loop(self, parts: LoopParts, skills: SkillCatalog) -> StepLoop:
        """The loop over these parts, with the guards of files and held mail where the desktop
        lets them watch."""
        run = self.config.run
        effects = None
        if self._recorder.snapshots is not None and self._desktop.home is not None:
            effects = FileEffectGuard(
                self._recorder.snapshots,
                self._desktop.home,
                self.config.safety,
                run.mode,
                self.human,
            )
        return StepLoop(
            parts=parts,
            models=self._models,
            dispatcher=ActionDispatcher(
                self.environment,
                self.human,
                reported_role(self._models, "decision", self._recorder.sink),
                skills=skills,
                language_model=reported_role(self._models, "composer", self._recorder.sink),
            ),
            skills=skills,
            guard=self._guard,
            roles=self._role,
            book=self._book,
            recorder=self._recorder,
            desktop=self._desktop,
            human=self.human,
            run_config=run,
            log=self.log,
            effects=effects,
            mail=(
                HeldMailGuard(self._desktop.outgoing, self.config.safety, run.mode, self.human)
                if self._desktop.outgoing is not None
                else None
            ),
        )

    # --- entry points ---------------------------------------------------------------------------

    def start(self, instruction: str, settings: dict[str, Any] | None = None) -> RunOutcome:
        """Plan and run a new instruction."""
        check_instruction(instruction)
        record = self.store.create_run(instruction, {**self._settings(), **(settings or {})})
        checkpoint = RunCheckpoint(instruction=instruction)
        self._begin(record.run_id, checkpoint, steps_done=0, call_step=0)
        with self._failed_on_error(checkpoint):
            return self._plan_and_run(checkpoint)

    def _plan_and_run(self, checkpoint: RunCheckpoint) -> RunOutcome:
        """A new run, once recorded: the desktop before the first action, the plan, the steps."""
        windows = self.environment.observe().windows
        snapshot_id, apps = self._recorder.desktop_now(windows)
        self._recorder.last_snapshot = snapshot_id
        self._recorder.last_apps = apps
        self._recorder.last_unsaved = self._desktop.unsaved_documents()
        self._say_what_is_protected()
        problem = self._book.plan(checkpoint)
        plan = PlanEvent(
            subtasks=checkpoint.subtasks,
            fallback=checkpoint.plan_fallback,
            problem=problem[:2000],
            state=checkpoint.model_copy(deep=True),
            home_snapshot=snapshot_id,
            apps=apps,
        )
        self._recorder.event(0, plan)
        return self._run(checkpoint)

    def resume(self, run_id: str) -> RunOutcome:
        """Continue a recorded run from its last completed step (after a crash or a stop), with
        the desktop restored to the state recorded after that step (HOME files, applications on
        their documents). Ending a sandbox the killed run left behind is the caller's job."""
        record = self.store.get_run(run_id)
        if record.status in ("finished", "unverified"):
            raise RunStateError(f"run {record.run_id} already {record.status}; nothing to resume")
        last = self.store.last_step(record.run_id)
        seen_on = ""  # the desktop whose windows the step recorded
        if last is None or last.state is None:
            checkpoint = self._plan_checkpoint(record.run_id, record.instruction)
            steps_done, (snapshot_id, apps) = 0, initial_desktop(self.store, record.run_id)
        else:
            checkpoint = last.state.model_copy(deep=True)
            steps_done, snapshot_id, apps = last.step, last.home_snapshot, last.apps
            seen_on = last.environment
        check_desktops(checkpoint, self.environment)
        checkpoint.outcome = ""
        self._begin(record.run_id, checkpoint, steps_done=steps_done, call_step=steps_done)
        self.store.update_settings(record.run_id, {**record.settings, **self._settings()})
        self.store.set_status(record.run_id, "running")
        with self._failed_on_error(checkpoint):
            self._restore(snapshot_id, apps, steps_done, seen_on)
            self._recorder.event(steps_done, ResumeEvent(from_step=steps_done))
            self.log(f"resuming run {record.run_id} after step {steps_done}")
            return self._run(checkpoint)

    def rewind(
        self, run_id: str, step: int, *, role: str | None = None, guidance: str = ""
    ) -> RunOutcome:
        """Go back to the state after ``step`` of a recorded run and continue from there in a new
        run (the original stays as it was), optionally under another role and with guidance.

        Restored: the agents' checkpoint (plan, hub, progress, role, counters), HOME files and the
        applications on their documents; unsaved edits of that step come back as files in HOME
        ("NAME (unsaved at step K).SUFFIX"). Not restored: scroll positions, dialogs.
        """
        parent = self.store.get_run(run_id)
        seen_on = ""  # the desktop whose windows the step recorded
        if step == 0:
            checkpoint = self._plan_checkpoint(parent.run_id, parent.instruction)
            snapshot_id, apps = initial_desktop(self.store, parent.run_id)
        else:
            source = self.store.step(parent.run_id, step)
            if source.state is None:
                raise RunStateError(f"step {step} of run {parent.run_id} has no saved state")
            checkpoint = source.state.model_copy(deep=True)
            snapshot_id, apps, seen_on = source.home_snapshot, source.apps, source.environment
        if role is not None:
            if role not in self.pool and role != self._generalist.name:  # type: ignore[operator]
                raise RunStateError(f"no role {role!r}; roles: {', '.join(self.pool.names())}")  # type: ignore[union-attr]
            if checkpoint.current is None:
                raise RunStateError(
                    f"no subtask was running after step {step}; --role needs one to hand over"
                )
            checkpoint.role = role
        if guidance:
            checkpoint.guidance = guidance
        check_desktops(checkpoint, self.environment)
        checkpoint.outcome = ""
        checkpoint.consecutive_failures = 0
        settings = {**parent.settings, **self._settings(), "rewound_from": parent.run_id}
        child = self.store.create_run(
            parent.instruction, settings, parent_run=parent.run_id, parent_step=step
        )
        self._begin(child.run_id, checkpoint, steps_done=step, call_step=step)
        with self._failed_on_error(checkpoint):
            return self._continue_rewound(
                parent, step, checkpoint, (snapshot_id, apps, seen_on), role, guidance
            )

    def _continue_rewound(
        self,
        parent: RunRecord,
        step: int,
        checkpoint: RunCheckpoint,
        desktop: tuple[str | None, list[Any], str],
        role: str | None,
        guidance: str,
    ) -> RunOutcome:
        """The rewound run, once recorded: the parent's steps, the desktop put back (``desktop``:
        the step's HOME snapshot, applications and desktop name), then on."""
        snapshot_id, apps, seen_on = desktop
        self._recorder.copy_steps(parent.run_id, step)
        self._restore(snapshot_id, apps, step, seen_on)
        if step and self._desktop.home is not None and self.store.step(parent.run_id, step).unsaved:
            # Unsaved edits cannot be put back into the applications; their contents come back
            # as files beside the restored ones, and the agents are told where.
            written = restore_unsaved(self.store, parent.run_id, self._desktop.home, step)
            for path in written:
                give_to_owner(path, self._desktop.home)
            names = ", ".join(path.name for path in written)
            checkpoint.guidance = " ".join(
                [checkpoint.guidance, f"Unsaved work of step {step} is in HOME as: {names}."]
            ).strip()
            self.log(f"unsaved work of step {step} written to HOME: {names}")
        rewind = RewindEvent(parent=parent.run_id, step=step, role=role, guidance=guidance)
        self._recorder.event(step, rewind)
        self.log(f"rewound {parent.run_id} to step {step} as run {self._recorder.run_id}")
        return self._run(checkpoint)

    # --- shared -----------------------------------------------------------------------------------

    def _role(self, name: str) -> Role:
        return self._generalist if name == self._generalist.name else self.pool.get(name)  # type: ignore[union-attr]

    def _say_what_is_protected(self) -> None:
        if self._loop.effects is None:
            self.log(
                "effect checks on files are off: HOME is not snapshotted here (only the "
                "keystroke guard stands between the agents and your files)"
            )

    def _settings(self) -> dict[str, Any]:
        run = self.config.run
        settings: dict[str, Any] = {
            "code": code_version(),  # which pcagent made this record (a commit in a checkout)
            "mode": run.mode,
            "ablation": self.ablation,
            "max_steps": run.max_steps,
            "token_budget": run.token_budget,
            "time_budget": run.time_budget,
            "snapshot_home": self._recorder.snapshots is not None,
            "effect_checks": {
                "files": self._recorder.snapshots is not None,
                "mail": self._desktop.outgoing is not None,
            },
        }
        described = self._desktop.describe()
        if described:
            settings["environment"] = described
        return settings

    def _begin(
        self, run_id: str, checkpoint: RunCheckpoint, *, steps_done: int, call_step: int
    ) -> None:
        self._recorder.run_id = run_id
        self._recorder.checkpoint = checkpoint
        self._recorder.call_step = call_step
        self._loop.steps_done = steps_done
        self._models.used.clear()  # the models this run asks, from now on
        record_role_models(self._recorder, {})

    def _plan_checkpoint(self, run_id: str, instruction: str) -> RunCheckpoint:
        """The checkpoint after planning, from the ``plan`` event (or a new plan)."""
        for record in self.store.events(run_id):
            if isinstance(record.event, PlanEvent):
                return record.event.state.model_copy(deep=True)
        checkpoint = RunCheckpoint(instruction=instruction)
        self._book.plan(checkpoint)
        return checkpoint

    def _restore(
        self, snapshot_id: str | None, apps: list[Any], step: int, seen_on: str = ""
    ) -> None:
        """Put the desktop back as it was after ``step``: HOME files, then the applications.

        Across desktops only the first is put back (its HOME is the one snapshotted; the others
        are driven as they are), and its applications only when the step recorded its windows
        (``seen_on``, the step's desktop), not another desktop's."""
        desktop = self._desktop
        environment = self.environment
        if isinstance(environment, Desktops):
            desktop = DesktopAccess.of(environment.use(""))
            if seen_on and seen_on != environment.primary:
                apps = []
        written, removed, opened = desktop.restore(self._snapshots, snapshot_id, apps)
        self._recorder.last_apps = list(apps)
        self._recorder.last_snapshot = snapshot_id
        self._recorder.last_unsaved = []  # unsaved edits are not restored (see restore-unsaved)
        self._recorder.event(
            step,
            RestoreEvent(step=step, files_written=written, files_removed=removed, apps=opened),
        )
        self.log(f"restored the desktop of step {step}: files, then {opened or 'no apps'}")

    def _note_model(self, role: str, model: RoleModel) -> None:
        """A role asked its model for the first time: the run's settings record it."""
        if self._recorder.run_id:
            record_role_models(self._recorder, self._models.used)

    def _failed_on_error(
        self, checkpoint: RunCheckpoint
    ) -> contextlib.AbstractContextManager[None]:
        return failed_on_error(self._recorder, checkpoint, lambda: self._loop.steps_done, self.log)

    def _run(self, checkpoint: RunCheckpoint) -> RunOutcome:
        run_id = self._recorder.run_id
        try:
            self._loop.run(checkpoint)
        except KeyboardInterrupt:
            self.store.set_status(run_id, "interrupted", checkpoint.summary)
            raise
        status = checkpoint.outcome or "failed"
        self.store.set_status(run_id, status, checkpoint.summary)
        steps = self._loop.steps_done
        return RunOutcome(run_id, status, checkpoint.summary, steps, checkpoint.tokens)
