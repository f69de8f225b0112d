"""The run loop: plan, then perceive -> decide -> guard -> execute -> reflect -> progress, recorded.

One :class:`RunSession` drives the agents over one environment. Every step is written to the run
record (SQLite + files) before the next begins, together with the agents' checkpoint and a HOME
snapshot, so a killed run resumes from its last completed step and a run can be rewound to any
step. The loop stops at the step cap, the token budget, a loop it cannot escape, too many failures
in a row, or when the human says stop.

Escalation after repeated failures: Reflection's verdict reaches Decision after every step; after
``escalate_to_progress_after`` failures in a row Progress is told to re-assess the subtask; after
``escalate_to_manager_after`` (or a detected loop, or a ``fail`` action) the Manager re-plans the
remaining subtasks, at most ``max_replans`` times; ``max_consecutive_failures`` ends the run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from pcagent import actions as act
from pcagent.agents.decision import Decision, DecisionAgent, DecisionInput
from pcagent.agents.hub import CommunicationHub
from pcagent.agents.manager import Manager, single_subtask_plan
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.progress import ProgressAgent, ProgressInput
from pcagent.agents.reflection import Reflection, ReflectionAgent, ReflectionInput
from pcagent.agents.roles import GENERALIST, Role, RolePool, default_pool
from pcagent.agents.scheduler import Scheduler
from pcagent.agents.screen_diff import screen_diff
from pcagent.config import PcAgentConfig
from pcagent.env.observation import ActionResult, WindowInfo
from pcagent.env.protocol import Environment
from pcagent.errors import (
    ActionError,
    ActionRefusedError,
    AgentError,
    DesktopError,
    PcAgentError,
    PerceptionError,
    RunStateError,
)
from pcagent.models.messages import ImagePart
from pcagent.models.structured import ChatModel, StructuredResult
from pcagent.perception.listing import baseline_listing
from pcagent.perception.marks import Mark
from pcagent.perception.module import ActivePerception, Perception
from pcagent.perception.text_selection import TextSelector
from pcagent.runtime.checkpoint import Ablation, RunCheckpoint
from pcagent.runtime.desktop_state import (
    app_of_window,
    app_window_present,
    open_applications,
    reopen_applications,
    restore_desktop,
)
from pcagent.runtime.home_snapshot import HomeSnapshots
from pcagent.runtime.human import Human, NoHuman
from pcagent.runtime.records import ModelCallRecord, RunEvent, RunStore, StepRecord
from pcagent.runtime.safety import ActionContext, SafetyGuard

#: Entries of "recent steps" shown to the Decision agent.
HISTORY_LINES = 6


class AgentModels(Protocol):
    """Gives each agent its model (``pcagent.models.ModelRouter`` is one)."""

    def for_role(self, role: str) -> ChatModel: ...


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended."""

    run_id: str
    status: str
    summary: str
    steps: int
    tokens: int


@dataclass
class _StepWork:
    """What one iteration of the loop collects for its record."""

    number: int
    started: float
    subtask_id: str = ""
    role: str = ""
    thought: str = ""
    action: act.Action | None = None
    result: dict[str, Any] | None = None
    reflection: dict[str, Any] | None = None
    listing: str = ""
    tokens: int = 0
    error: str | None = None
    screenshot: Image.Image | None = None
    set_of_mark: Image.Image | None = None


def _action_text(action: act.Action) -> str:
    fields = action.model_dump(exclude={"kind"}, exclude_defaults=False)
    arguments = ", ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None)
    return f"{action.kind}({arguments})"


def _window_text(window: WindowInfo | None) -> str:
    """The focused window for a prompt, naming its logical application: small models keep
    re-opening an application they do not recognise in a bare window title."""
    if window is None:
        return ""
    app = app_of_window(window)
    return f"{window.title} (the {app} application, open)" if app else window.title


def _mark_at(marks: list[Mark], point: tuple[int, int]) -> Mark | None:
    """The smallest mark whose box holds ``point`` (the thing a click lands on)."""
    holding = [m for m in marks if m.box.contains(*point)]
    return min(holding, key=lambda m: m.box.width * m.box.height) if holding else None


def initial_desktop(store: RunStore, run_id: str) -> tuple[str | None, list[dict[str, Any]]]:
    """The HOME snapshot and applications of a run before its first action (its plan event)."""
    for event in store.events(run_id):
        if event.kind == "plan":
            return event.payload.get("home_snapshot"), list(event.payload.get("apps", []))
    raise RunStateError(f"run {run_id} has no recorded start state (it never got past planning)")


@dataclass
class RunSession:
    """Runs instructions on ``environment`` with ``models``, recording into ``store``.

    ``on_step`` is called with every recorded step (the CLI prints them); ``log`` gets one-line
    notes about planning, escalations and restores.
    """

    environment: Environment
    models: AgentModels
    store: RunStore
    config: PcAgentConfig
    human: Human = field(default_factory=NoHuman)
    pool: RolePool = field(default_factory=default_pool)
    ablation: Ablation = "none"
    on_step: Callable[[StepRecord], None] | None = None
    log: Callable[[str], None] = lambda _message: None
    _run_id: str = field(default="", init=False)
    _step: int = field(default=0, init=False)
    _step_tokens: int = field(default=0, init=False)
    _call_step: int = field(default=0, init=False)
    _checkpoint: RunCheckpoint | None = field(default=None, init=False)
    _snapshots: HomeSnapshots | None = field(default=None, init=False)
    _last_apps: list[dict[str, Any]] = field(default_factory=list, init=False)
    _guard: SafetyGuard = field(init=False)

    def __post_init__(self) -> None:
        # Built here so a bad [safety] entry fails before the run starts, not in its middle.
        self._guard = SafetyGuard(self.config.safety, self.config.run.mode, self.human)

    # --- entry points ---------------------------------------------------------------------------

    def start(self, instruction: str, settings: dict[str, Any] | None = None) -> RunOutcome:
        """Plan and run a new instruction."""
        if not instruction.strip():
            raise AgentError("the instruction is empty; say what the run should do")
        record = self.store.create_run(instruction, self._settings(settings))
        self._run_id = record.run_id
        self._step = 0
        checkpoint = RunCheckpoint(instruction=instruction)
        self._checkpoint = checkpoint
        self._call_step = 0
        initial = self._desktop_now()
        self._plan(checkpoint)
        self.store.add_event(
            RunEvent(
                run_id=self._run_id,
                step=0,
                kind="plan",
                payload={
                    "subtasks": [s.model_dump() for s in checkpoint.subtasks],
                    "fallback": checkpoint.plan_fallback,
                    "state": checkpoint.model_dump(mode="json"),
                    **initial,
                },
                created_at=time.time(),
            )
        )
        return self._loop(checkpoint)

    def resume(self, run_id: str) -> RunOutcome:
        """Continue a recorded run from its last completed step (after a crash or a stop).

        The desktop is restored to the state recorded after that step (HOME files, applications
        on their documents) before the loop goes on.
        """
        record = self.store.get_run(run_id)
        if record.status == "finished":
            raise RunStateError(f"run {record.run_id} already finished; nothing to resume")
        self._run_id = record.run_id
        self._end_stale_sandbox(record.settings)
        last = self.store.last_step(record.run_id)
        if last is None:
            checkpoint = self._plan_checkpoint(record.run_id, record.instruction)
            self._step = 0
            self._restore_desktop(*initial_desktop(self.store, record.run_id), 0)
        else:
            checkpoint = RunCheckpoint.model_validate(last.state)
            self._step = last.step
            self._restore_desktop(last.home_snapshot, last.apps, last.step)
        checkpoint.outcome = ""
        self._checkpoint = checkpoint
        self.store.update_settings(record.run_id, {**record.settings, **self._settings(None)})
        self.store.set_status(record.run_id, "running")
        self._event("resume", {"from_step": self._step})
        self.log(f"resuming run {record.run_id} after step {self._step}")
        return self._loop(checkpoint)

    def rewind(
        self, run_id: str, step: int, *, role: str | None = None, guidance: str = ""
    ) -> RunOutcome:
        """Go back to the state after ``step`` of a recorded run and continue from there in a new
        run (the original stays as it was), optionally under another role and with guidance.

        Restored: the agents' checkpoint (plan, hub, progress, role, counters), HOME files and the
        applications on their documents. Not restored: unsaved edits, scroll positions, dialogs.
        """
        parent = self.store.get_run(run_id)
        if step == 0:
            checkpoint = self._plan_checkpoint(parent.run_id, parent.instruction)
            snapshot_id, apps = initial_desktop(self.store, parent.run_id)
        else:
            source = self.store.step(parent.run_id, step)
            checkpoint = RunCheckpoint.model_validate(source.state)
            snapshot_id, apps = source.home_snapshot, source.apps
        if role is not None:
            if role not in self.pool and role != GENERALIST.name:
                raise RunStateError(f"no role {role!r}; roles: {', '.join(self.pool.names())}")
            if checkpoint.current is None:
                raise RunStateError(
                    f"no subtask was running after step {step}; --role needs one to hand over"
                )
            checkpoint.role = role
        if guidance:
            checkpoint.guidance = guidance
        checkpoint.outcome = ""
        checkpoint.consecutive_failures = 0
        settings = {**parent.settings, **self._settings(None), "rewound_from": parent.run_id}
        child = self.store.create_run(
            parent.instruction, settings, parent_run=parent.run_id, parent_step=step
        )
        self._run_id = child.run_id
        self._copy_steps(parent.run_id, step)
        self._step = step
        self._checkpoint = checkpoint
        self._restore_desktop(snapshot_id, apps, step)
        self._event(
            "rewind", {"parent": parent.run_id, "step": step, "role": role, "guidance": guidance}
        )
        self.log(f"rewound {parent.run_id} to step {step} as run {child.run_id}")
        return self._loop(checkpoint)

    # --- planning ---------------------------------------------------------------------------------

    def _settings(self, extra: dict[str, Any] | None) -> dict[str, Any]:
        settings: dict[str, Any] = {
            "mode": self.config.run.mode,
            "ablation": self.ablation,
            "max_steps": self.config.run.max_steps,
            "token_budget": self.config.run.token_budget,
        }
        state_file = getattr(getattr(self.environment, "state", None), "root", None)
        if state_file is not None:
            settings["sandbox_state"] = str(Path(state_file) / "state.json")
        return {**settings, **(extra or {})}

    def _plan_checkpoint(self, run_id: str, instruction: str) -> RunCheckpoint:
        """The checkpoint after planning, from the ``plan`` event (or a new plan)."""
        for event in self.store.events(run_id):
            if event.kind == "plan" and "state" in event.payload:
                return RunCheckpoint.model_validate(event.payload["state"])
        checkpoint = RunCheckpoint(instruction=instruction)
        self._plan(checkpoint)
        return checkpoint

    def _plan(self, checkpoint: RunCheckpoint) -> None:
        if self.ablation in ("no_manager", "single_agent"):
            plan = single_subtask_plan(checkpoint.instruction)
            fallback = False
        else:
            outcome = self._manager().plan(checkpoint.instruction, step=0)
            plan, fallback = outcome.plan, outcome.fallback
            if fallback:
                self.log(f"the Manager's plan was unusable ({outcome.problem}); one subtask")
        checkpoint.subtasks = list(plan.subtasks)
        checkpoint.status = {s.id: "pending" for s in plan.subtasks}
        checkpoint.plan_fallback = fallback
        self.log(
            "plan: " + "; ".join(f"{s.id} [{s.app or '?'}] {s.description}" for s in plan.subtasks)
        )

    # --- agents -------------------------------------------------------------------------------

    def _sink(self, agent: str, result: StructuredResult[Any]) -> None:
        tokens = result.usage.total_tokens
        self._step_tokens += tokens
        if self._checkpoint is not None:
            self._checkpoint.tokens += tokens
        self.store.add_call(
            ModelCallRecord(
                run_id=self._run_id,
                step=self._call_step,
                agent=agent,
                attempts=[
                    {
                        "request": attempt.request.to_record(),
                        "completion": attempt.completion.to_record(),
                        "failure": attempt.failure.message if attempt.failure else None,
                    }
                    for attempt in result.attempts
                ],
                ok=result.ok,
                prompt_tokens=result.usage.prompt_tokens,
                completion_tokens=result.usage.completion_tokens,
                latency_s=result.usage.latency_s,
                created_at=time.time(),
            )
        )

    def _manager(self) -> Manager:
        return Manager(self.models.for_role("manager"), self._sink)

    def _role(self, name: str) -> Role:
        return GENERALIST if name == GENERALIST.name else self.pool.get(name)

    # --- the loop -------------------------------------------------------------------------------

    def _loop(self, checkpoint: RunCheckpoint) -> RunOutcome:
        run = self.config.run
        try:
            while not checkpoint.outcome:
                if self._step >= run.max_steps:
                    self._finish(checkpoint, "failed", f"stopped at the step cap ({run.max_steps})")
                    break
                if run.token_budget and checkpoint.tokens >= run.token_budget:
                    self._finish(
                        checkpoint,
                        "failed",
                        f"spent the token budget ({checkpoint.tokens} of {run.token_budget})",
                    )
                    break
                subtask = self._current_subtask(checkpoint)
                if subtask is None:
                    break
                self._step_once(checkpoint, subtask)
        except KeyboardInterrupt:
            self._finish(checkpoint, "stopped", "interrupted by the user")
            self.store.set_status(self._run_id, "interrupted", checkpoint.summary)
            raise
        status = {"finished": "finished", "failed": "failed", "stopped": "stopped"}.get(
            checkpoint.outcome, "failed"
        )
        self.store.set_status(self._run_id, status, checkpoint.summary)  # type: ignore[arg-type]
        return RunOutcome(self._run_id, status, checkpoint.summary, self._step, checkpoint.tokens)

    def _finish(self, checkpoint: RunCheckpoint, outcome: str, summary: str) -> None:
        checkpoint.outcome = outcome  # type: ignore[assignment]
        checkpoint.summary = summary
        self._event("finish", {"outcome": outcome, "summary": summary})
        self.log(f"run {outcome}: {summary}")

    def _current_subtask(self, checkpoint: RunCheckpoint) -> SubtaskSpec | None:
        """The running subtask, or the next ready one (started here); None when the run ended."""
        if checkpoint.current is not None:
            return checkpoint.subtask(checkpoint.current)
        ready = checkpoint.ready()
        if ready:
            checkpoint.start_subtask(ready[0].id)
            self.log(f"subtask {ready[0].id}: {ready[0].description}")
            return ready[0]
        pending = [s.id for s in checkpoint.subtasks if checkpoint.status[s.id] == "pending"]
        if pending:
            self._finish(
                checkpoint,
                "failed",
                f"subtasks {pending} can never start (their inputs are missing)",
            )
        else:
            done = sum(1 for status in checkpoint.status.values() if status == "done")
            self._finish(checkpoint, "finished", f"all {done} subtasks done")
        return None

    def _perceive(self, subtask_text: str) -> Perception:
        run = self.config.run
        limit = run.listing_limit or None
        perceiver = ActivePerception(self.environment)
        return perceiver.perceive(subtask_text, limit, with_ocr=run.with_ocr)

    def _step_once(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> None:
        """One recorded step.

        The screen is perceived afresh at the start of every step (not reused from the end of the
        last one): a human, a crash or a slow dialog may have changed it in between.
        """
        self._step_tokens = 0
        self._call_step = self._step + 1
        work = _StepWork(number=self._step + 1, started=time.time(), subtask_id=subtask.id)
        hub = CommunicationHub(checkpoint.hub)
        subtask_text = hub.instantiate(subtask)
        if checkpoint.role is None:
            checkpoint.role = self._assign(checkpoint, subtask)
        role = self._role(checkpoint.role)
        work.role = role.name
        before = self._perceive(subtask_text)
        if self._reopen_crashed_app(checkpoint, subtask, before.observation.windows):
            before = self._perceive(subtask_text)
        listing = (
            baseline_listing(before.observation.elements)
            if self.ablation == "no_perception"
            else before.listing
        )
        work.listing = listing
        work.screenshot = before.observation.screenshot
        if self.ablation != "no_perception":
            work.set_of_mark = before.set_of_mark
        decision = self._decide(checkpoint, subtask, subtask_text, role, before, listing)
        work.thought = decision.reasoning
        after: Perception | None = None
        reflection: Reflection | None = None
        if decision.action is None:
            reason = decision.failure.message if decision.failure else "no reply"
            work.error = f"the Decision agent gave no valid action: {reason}"
            reflection = Reflection("no_change", work.error, False)
            after = before
        elif decision.not_mine:
            checkpoint.declined.append(role.name)
            checkpoint.role = None
            work.action = decision.action
            work.result = {"ok": False, "message": f"role {role.name} declined the subtask"}
            self._event("declined", {"role": role.name, "subtask": subtask.id})
            self._write(checkpoint, work, before.observation.windows)
            return
        else:
            work.action = decision.action
            result, refused = self._execute(checkpoint, subtask, role, decision.action, before)
            work.result = result
            if refused:
                reflection = Reflection("no_change", f"refused: {result['message']}", False)
                after = before
            else:
                after = self._perceive(subtask_text)
                reflection = self._reflect(subtask_text, decision, before, after)
        work.reflection = {
            "verdict": reflection.verdict,
            "reason": reflection.reason,
            "asked_model": reflection.asked_model,
        }
        self._advance(checkpoint, subtask, subtask_text, work, reflection)
        self._write(checkpoint, work, after.observation.windows)
        self._review(checkpoint, work)

    def _assign(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> str:
        if self.ablation == "single_agent":
            return GENERALIST.name
        scheduler = Scheduler(self.models.for_role("scheduler"), self._sink, pool=self.pool)
        assignment = scheduler.assign(subtask, checkpoint.declined, step=self._step + 1)
        self._event(
            "assign", {"subtask": subtask.id, "role": assignment.role, "reason": assignment.reason}
        )
        return assignment.role

    def _decide(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        subtask_text: str,
        role: Role,
        before: Perception,
        listing: str,
    ) -> Decision:
        model = self.models.for_role("decision")
        image = None
        if model.info.vision:
            picture = (
                before.observation.screenshot
                if self.ablation == "no_perception"
                else before.set_of_mark
            )
            image = ImagePart.from_image(picture, alt_text="(screenshot)")
        focused = before.observation.focused_window
        agent = DecisionAgent(
            model, self._sink, role=role, with_human=self.config.run.mode != "auto"
        )
        return agent.decide(
            DecisionInput(
                subtask=subtask_text,
                listing=listing,
                window=_window_text(focused),
                screen=before.observation.screen_size,
                outputs_needed=subtask.outputs,
                hub=checkpoint.hub,
                progress=checkpoint.progress,
                history=checkpoint.history[-HISTORY_LINES:],
                reflection=checkpoint.reflection,
                guidance=checkpoint.guidance,
                image=image,
                step=self._step + 1,
            )
        )

    def _execute(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        role: Role,
        action: act.Action,
        before: Perception,
    ) -> tuple[dict[str, Any], bool]:
        """Carry out one action behind the domain check and the safety guard.

        Returns the result for the record and whether the action was refused (not executed).
        """
        try:
            role.check(action)
            focused = before.observation.focused_window
            points = action.points()
            context = ActionContext(
                app=app_of_window(focused) if focused else "",
                window_title=focused.title if focused else "",
                target=_mark_at(before.marks, points[0]) if points else None,
                role=role.name,
            )
            verdict = self._guard.enforce(action, context)
            if verdict.sensitivity is not None:
                self._event("sensitive", verdict.model_dump(mode="json"))
        except ActionRefusedError as error:
            self._event("refused", {"action": action.model_dump(mode="json"), "reason": str(error)})
            return {"ok": False, "message": str(error), "error": type(error).__name__}, True
        try:
            if isinstance(action, act.SelectText):
                selector = TextSelector(self.environment, self.models.for_role("decision"))
                selection = selector.execute(action)
                return {
                    "ok": selection.matches,
                    "message": f"selected {selection.selected!r}",
                }, False
            if isinstance(action, act.AskHuman):
                reply = self.human.ask(action.question)
                checkpoint.guidance = reply
                self._event("asked_human", {"question": action.question, "reply": reply})
                return {
                    "ok": bool(reply),
                    "message": f"the user said: {reply or '(nothing)'}",
                }, False
            result: ActionResult = self.environment.execute(action)
        except (ActionError, DesktopError, PerceptionError) as error:
            return {"ok": False, "message": str(error), "error": type(error).__name__}, False
        if isinstance(action, act.OpenApp) and action.app not in checkpoint.apps_opened:
            checkpoint.apps_opened.append(action.app)
        return result.model_dump(mode="json"), False

    def _reflect(
        self, subtask_text: str, decision: Decision, before: Perception, after: Perception
    ) -> Reflection:
        assert decision.action is not None
        if self.ablation in ("no_reflection", "single_agent"):
            return Reflection("success", "reflection is switched off", False)
        diff = screen_diff(before.observation, after.observation, before.marks, after.marks)
        focused = after.observation.focused_window
        model = self.models.for_role("reflection")
        image = None
        if model.info.vision:
            image = ImagePart.from_image(after.set_of_mark, alt_text="(screenshot after)")
        agent = ReflectionAgent(model, self._sink)
        return agent.reflect(
            ReflectionInput(
                subtask=subtask_text,
                thought=decision.reasoning,
                action=decision.action,
                diff=diff,
                listing_after=after.listing,
                window_after=focused.title if focused else "",
                image_after=image,
                step=self._step + 1,
            )
        )

    # --- after the action: progress, completion, escalation -------------------------------------

    def _advance(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        subtask_text: str,
        work: _StepWork,
        reflection: Reflection,
    ) -> None:
        run = self.config.run
        action = work.action
        action_text = _action_text(action) if action is not None else "(no valid action)"
        if isinstance(action, act.Answer) and len(subtask.outputs) == 1:
            checkpoint.answers[subtask.outputs[0]] = action.text
        failed = reflection.failed or bool(work.result and not work.result.get("ok", True))
        if isinstance(action, act.Done | act.Answer | act.AskHuman) and not reflection.failed:
            failed = False
        checkpoint.consecutive_failures = checkpoint.consecutive_failures + 1 if failed else 0
        checkpoint.reflection = reflection.describe()
        checkpoint.history.append(f"{work.number}: {action_text} -> {reflection.verdict}")
        checkpoint.recent_actions = [*checkpoint.recent_actions, action_text][-run.loop_repeats :]
        escalate_progress = checkpoint.consecutive_failures == run.escalate_to_progress_after
        verdict_text = reflection.describe()
        if escalate_progress:
            verdict_text += (
                f" — the last {checkpoint.consecutive_failures} actions failed; re-assess the "
                "subtask and say what to try differently"
            )
            self._event("escalate_progress", {"failures": checkpoint.consecutive_failures})
        if self.ablation != "single_agent":
            report = ProgressAgent(self.models.for_role("progress"), self._sink).update(
                ProgressInput(
                    subtask=subtask_text,
                    outputs_needed=subtask.outputs,
                    previous=checkpoint.progress,
                    action=action_text,
                    verdict=verdict_text,
                    answers=checkpoint.answers,
                    step=work.number,
                )
            )
            checkpoint.progress = report.progress
            checkpoint.answers.update(report.outputs)
        if isinstance(action, act.Done):
            missing = [name for name in subtask.outputs if name not in checkpoint.answers]
            if missing:
                checkpoint.reflection = (
                    f"not done yet: report {', '.join(missing)} with an answer action first"
                )
                checkpoint.consecutive_failures += 1
            else:
                checkpoint.hub.update(checkpoint.answers)
                checkpoint.end_subtask("done")
                self.log(f"subtask {subtask.id} done")
                return
        looping = (
            len(checkpoint.recent_actions) >= run.loop_repeats
            and len(set(checkpoint.recent_actions)) == 1
            and reflection.verdict == "no_change"
        )
        gave_up = isinstance(action, act.Fail)
        if looping:
            self._event("loop", {"action": checkpoint.recent_actions[-1]})
        if gave_up or looping or checkpoint.consecutive_failures >= run.escalate_to_manager_after:
            reason = (
                f"the role gave up: {action.reason}"
                if isinstance(action, act.Fail)
                else "it repeats the same action without effect"
                if looping
                else f"{checkpoint.consecutive_failures} actions in a row failed"
            )
            if self._replan(checkpoint, subtask, reason):
                return
            if gave_up or checkpoint.consecutive_failures >= run.max_consecutive_failures:
                checkpoint.end_subtask("failed")
                self._finish(checkpoint, "failed", f"subtask {subtask.id} failed: {reason}")

    def _replan(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, reason: str) -> bool:
        """Ask the Manager for new remaining subtasks; False when re-planning is not possible."""
        if self.ablation in ("no_manager", "single_agent"):
            return False
        if checkpoint.replans >= self.config.run.max_replans:
            return False
        checkpoint.replans += 1
        finished = [s for s in checkpoint.subtasks if checkpoint.status[s.id] == "done"]
        outcome = self._manager().replan(
            checkpoint.instruction, finished, checkpoint.hub, subtask, reason, step=self._step + 1
        )
        checkpoint.end_subtask("failed")
        kept = [s for s in checkpoint.subtasks if checkpoint.status[s.id] != "pending"]
        taken = {s.id for s in kept}
        fresh = []
        for new in outcome.plan.subtasks:
            new_id = new.id
            while new_id in taken:
                new_id = f"{new_id}r"
            taken.add(new_id)
            fresh.append(new.model_copy(update={"id": new_id}))
        checkpoint.subtasks = kept + fresh
        for new in fresh:
            checkpoint.status[new.id] = "pending"
        self._event(
            "replan",
            {"failed": subtask.id, "reason": reason, "subtasks": [s.model_dump() for s in fresh]},
        )
        self.log(f"re-planned after {subtask.id} failed ({reason}): {[s.id for s in fresh]}")
        return True

    def _reopen_crashed_app(
        self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, windows: list[WindowInfo]
    ) -> bool:
        """Reopen the subtask's application when its window vanished without the agents closing
        it (a crash, a kill). Returns True when it reopened one."""
        app = subtask.app
        if not app or app not in checkpoint.apps_opened:
            return False
        if app_window_present(windows, app):
            return False
        documents = [e for e in self._last_apps if e.get("app") == app]
        home = self._home()
        try:
            if documents and home is not None and hasattr(self.environment, "open_app"):
                reopen_applications(self.environment.open_app, home, documents[:1])  # type: ignore[attr-defined]
            else:
                self.environment.execute(act.OpenApp(app=app))
        except PcAgentError as error:
            self._event("reopen_failed", {"app": app, "error": str(error)})
            return False
        checkpoint.reflection = (
            f"the {app} window had disappeared (the application closed or crashed); "
            "it was reopened — check its state before going on"
        )
        self._event("reopened_app", {"app": app, "documents": documents[:1]})
        self.log(f"{app} had vanished; reopened it")
        return True

    def _review(self, checkpoint: RunCheckpoint, work: _StepWork) -> None:
        """Proactive mode: the human approves every step, redirects, or stops the run."""
        if self.config.run.mode != "proactive" or checkpoint.outcome:
            return
        action = _action_text(work.action) if work.action is not None else "(no action)"
        verdict = work.reflection["verdict"] if work.reflection else "-"
        review = self.human.review(
            f"step {work.number} [{work.subtask_id} {work.role}] {action} -> {verdict}\n"
            f"progress: {checkpoint.progress}"
        )
        self._event("review", review.model_dump())
        if review.decision == "stop":
            self._finish(checkpoint, "stopped", f"stopped by the user after step {work.number}")
            self._rewrite_state(checkpoint, work.number)
        elif review.decision in ("guide", "reject"):
            prefix = "The user rejected the last step. " if review.decision == "reject" else ""
            checkpoint.guidance = prefix + review.guidance
            self._rewrite_state(checkpoint, work.number)

    # --- records ----------------------------------------------------------------------------------

    def _home(self) -> Path | None:
        home = getattr(self.environment, "home", None)
        return Path(home) if home is not None else None

    def _desktop_now(self) -> dict[str, Any]:
        """The HOME snapshot and open applications before the first action (what replay and a
        rewind to step 0 start from)."""
        home = self._home()
        if home is None:
            return {"home_snapshot": None, "apps": []}
        windows = self.environment.observe().windows
        snapshot = self._home_snapshots().capture(home) if self.config.run.snapshot_home else None
        return {"home_snapshot": snapshot, "apps": open_applications(windows, home)}

    def _write(self, checkpoint: RunCheckpoint, work: _StepWork, windows: list[WindowInfo]) -> None:
        self._step = work.number
        home = self._home()
        apps = open_applications(windows, home) if home is not None else []
        snapshot_id = None
        if home is not None and self.config.run.snapshot_home:
            snapshot_id = self._home_snapshots().capture(home)
        self._last_apps = apps
        record = StepRecord(
            run_id=self._run_id,
            step=work.number,
            subtask_id=work.subtask_id,
            role=work.role,
            thought=work.thought,
            action=work.action.model_dump(mode="json") if work.action is not None else None,
            result=work.result,
            reflection=work.reflection,
            progress=checkpoint.progress,
            hub=dict(checkpoint.hub),
            state=checkpoint.model_dump(mode="json"),
            listing=work.listing,
            apps=apps,
            home_snapshot=snapshot_id,
            started_at=work.started,
            duration_ms=(time.time() - work.started) * 1000,
            tokens=self._step_tokens,
            error=work.error,
        )
        self.store.write_step(record, screenshot=work.screenshot, set_of_mark=work.set_of_mark)
        if self.on_step is not None:
            self.on_step(record)

    def _rewrite_state(self, checkpoint: RunCheckpoint, number: int) -> None:
        """Store a checkpoint changed after its step was written (human guidance, a stop)."""
        record = self.store.step(self._run_id, number)
        self.store.write_step(
            record.model_copy(update={"state": checkpoint.model_dump(mode="json")})
        )

    def _home_snapshots(self) -> HomeSnapshots:
        if self._snapshots is None:
            from pcagent.runtime.replay import home_snapshots

            self._snapshots = home_snapshots(self.store, self.config.run.snapshot_max_file_bytes)
        return self._snapshots

    def _event(self, kind: str, payload: dict[str, Any]) -> None:
        self.store.add_event(
            RunEvent(
                run_id=self._run_id,
                step=self._step,
                kind=kind,
                payload=json.loads(json.dumps(payload, default=str)),
                created_at=time.time(),
            )
        )

    def _copy_steps(self, parent: str, upto: int) -> None:
        """Give a rewound run the parent's steps 1..upto (records and images)."""
        for record in self.store.steps(parent, upto=upto):
            folder = self.store.step_dir(parent, record.step)
            images = {}
            for name, key in (("screenshot.png", "screenshot"), ("som.png", "set_of_mark")):
                if (folder / name).is_file():
                    with Image.open(folder / name) as image:
                        images[key] = image.copy()
            self.store.write_step(record.model_copy(update={"run_id": self._run_id}), **images)

    # --- restoring the desktop --------------------------------------------------------------------

    def _restore_desktop(
        self, snapshot_id: str | None, apps: list[dict[str, Any]], step: int
    ) -> None:
        """Put the sandbox back as it was after ``step``: HOME files, then the applications."""
        done = restore_desktop(self.environment, self._home_snapshots(), snapshot_id, apps)
        self._last_apps = list(apps)
        self._event("restore", {"step": step, **done})
        self.log(f"restored the desktop of step {step}: files, then {done['apps'] or 'no apps'}")

    def _end_stale_sandbox(self, settings: dict[str, Any]) -> None:
        """A run killed with SIGKILL leaves its sandbox running; end it before resuming."""
        state_file = settings.get("sandbox_state")
        current = self._settings(None).get("sandbox_state")
        if not state_file or state_file == current or not Path(state_file).is_file():
            return
        from pcagent.env.sandbox import SandboxDesktop

        try:
            SandboxDesktop.load(Path(state_file)).close()
            self.log(f"ended the sandbox left behind by the killed run ({state_file})")
        except (DesktopError, OSError, ValueError):
            pass  # already gone
