"""Keeping the books of a run's subtasks: which runs next, under which role, how far it got, when
it is done, when it is re-planned or fails, and how the run ends.

The decisions themselves are the :class:`EscalationPolicy`'s (pure); this class applies them to
the checkpoint and records what happened, so the step loop stays a readable sequence of stages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pcagent import actions as act
from pcagent.agents.manager import Replanning
from pcagent.agents.outcome_judge import step_lines
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.progress import ProgressInput, ProgressReport
from pcagent.config import InteractionMode
from pcagent.env.observation import WindowInfo
from pcagent.errors import PcAgentError
from pcagent.runtime.loop.desktop_state import DesktopAccess
from pcagent.runtime.loop.human import Human
from pcagent.runtime.loop.parts import LoopParts
from pcagent.runtime.loop.policy import Counters, EscalationPolicy, StepFacts
from pcagent.runtime.loop.replan_merge import carried_and_retried, carried_over, renumbered
from pcagent.runtime.loop.step_outcome import (
    counters_of,
    finish_hint,
    first_stalled,
    kept,
    note_effect,
    store_counters,
    take_answer,
    without_inputs,
)
from pcagent.runtime.loop.subtask_completion import SubtaskCompletion
from pcagent.runtime.record.checkpoint import Outcome, RunCheckpoint
from pcagent.runtime.record.events import (
    AssignEvent,
    EscalateProgressEvent,
    FinishEvent,
    LoopEvent,
    ReopenedAppEvent,
    ReopenFailedEvent,
    ReplanEvent,
    ReviewEvent,
)
from pcagent.runtime.record.models import ReflectionRecord
from pcagent.runtime.record.recorder import StepRecorder, StepWork
from pcagent.step_context import StepContext, StepLine, action_text, repeated_success


@dataclass
class SubtaskBook:
    parts: LoopParts
    policy: EscalationPolicy
    recorder: StepRecorder
    desktop: DesktopAccess
    human: Human
    mode: InteractionMode
    log: Callable[[str], None]
    completion: SubtaskCompletion = field(init=False)

    def __post_init__(self) -> None:
        self.completion = SubtaskCompletion(self.recorder, self.log)

    # --- planning and starting ------------------------------------------------------------------

    def plan(self, checkpoint: RunCheckpoint) -> str:
        """The first plan of a run, into ``checkpoint``; why the Manager's programs were
        unusable when it fell back to one subtask ("" otherwise)."""
        outcome = self.parts.planner.plan(checkpoint.instruction)
        if outcome.fallback:
            self.log(f"the Manager's plan was unusable ({outcome.problem}); one subtask")
        checkpoint.subtasks = list(outcome.plan.subtasks)
        checkpoint.status = {s.id: "pending" for s in outcome.plan.subtasks}
        checkpoint.plan_fallback = outcome.fallback
        self.log(
            "plan: "
            + "; ".join(f"{s.id} [{s.app or '?'}] {s.description}" for s in outcome.plan.subtasks)
        )
        return outcome.problem if outcome.fallback else ""

    def next_subtask(self, checkpoint: RunCheckpoint, step: int) -> SubtaskSpec | None:
        """The running subtask, or the next ready one (started here); None when the run ended."""
        if checkpoint.current is not None:
            return checkpoint.subtask(checkpoint.current)
        ready = checkpoint.ready()
        if ready:
            checkpoint.start_subtask(ready[0].id)
            self.log(f"subtask {ready[0].id}: {ready[0].description}")
            return ready[0]
        pending = [s.id for s in checkpoint.subtasks if checkpoint.status[s.id] == "pending"]
        stalled = first_stalled(checkpoint)
        if stalled is not None:
            # What it waited for ended (done, or failed and re-planned) without the values it
            # named: it goes on with what the hub has rather than end the run undone.
            missing = [name for name in stalled.inputs if name not in checkpoint.hub]
            started = without_inputs(stalled, missing)
            checkpoint.subtasks = [
                started if s.id == stalled.id else s for s in checkpoint.subtasks
            ]
            checkpoint.start_subtask(started.id)
            self.log(f"subtask {started.id} starts without {missing}: {started.description}")
            return started
        if pending:
            why = f"subtasks {pending} can never start (their inputs are missing)"
            self.finish(checkpoint, "failed", why, step)
        elif checkpoint.lost_files:
            why = (
                f"done refused: {', '.join(checkpoint.lost_files)} were lost and could not be put "
                "back (bigger than [run] snapshot_max_file_bytes)"
            )
            self.finish(checkpoint, "failed", why, step)
        else:
            done = [s for s, status in checkpoint.status.items() if status == "done"]
            unchecked = [s for s in done if not checkpoint.verified.get(s, False)]
            doubted = [s for s in checkpoint.subtasks if s.doubt and s.id in done]
            if doubted:
                # Each step checked its own effect, but one ran on arguments evidence doubts
                # (an address nobody gave): the effect checked is not the one asked for.
                self.finish(
                    checkpoint,
                    "unverified",
                    f"all {len(done)} subtasks done, but the plan was kept with doubts: "
                    + "; ".join(f"{s.id}: {s.doubt}" for s in doubted),
                    step,
                )
            elif unchecked:
                self.finish(
                    checkpoint,
                    "unverified",
                    f"all {len(done)} subtasks done, but no check of the effect of "
                    f"{', '.join(unchecked)} passed",
                    step,
                )
            else:
                self._judged_finish(checkpoint, done, step)
        return None

    def _judged_finish(self, checkpoint: RunCheckpoint, done: Sequence[str], step: int) -> None:
        """ "finished" when the Judge finds the instruction done by the steps (each of which
        checked its own effect); "unverified" with what it found missing otherwise."""
        lines = step_lines(checkpoint.subtasks, checkpoint.values, done)
        verdict = self.parts.judge.judge(checkpoint.instruction, lines, step)
        if verdict.complete:
            self.finish(checkpoint, "finished", f"all {len(done)} subtasks done, checked", step)
            return
        self.finish(
            checkpoint,
            "unverified",
            f"all {len(done)} subtasks done and checked, but a reading of the instruction "
            f"against them says: {verdict.missing}",
            step,
        )

    def assign(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, number: int) -> str:
        role, reason = self.parts.assigner.assign(subtask, checkpoint.declined, number)
        self.recorder.event(number - 1, AssignEvent(subtask=subtask.id, role=role, reason=reason))
        checkpoint.role = role
        return role

    def finish(self, checkpoint: RunCheckpoint, outcome: Outcome, summary: str, step: int) -> None:
        checkpoint.outcome = outcome
        checkpoint.summary = summary
        self.recorder.event(step, FinishEvent(outcome=outcome, summary=summary))
        self.log(f"run {outcome}: {summary}")

    # --- after a step ---------------------------------------------------------------------------

    def advance(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        context: StepContext,
        work: StepWork,
        reflection: ReflectionRecord,
        step: int,
    ) -> None:
        """Apply what the step came to: counters, Progress, completion, escalation."""
        action, result = work.action, work.result
        empty = take_answer(checkpoint, subtask, context, action)
        if (
            isinstance(action, act.UseSkill)
            and subtask.skill == action.skill
            and result is not None
            and result.ok
            and result.verified
        ):
            self.completion.skill_done(checkpoint, subtask, work, step)
            return
        note_effect(checkpoint, subtask, action, result)
        failed = reflection.failed or bool(result is not None and not result.ok)
        if isinstance(action, act.Done | act.Answer | act.AskHuman) and not reflection.failed:
            failed = empty is not None
        own_skill = isinstance(action, act.UseSkill) and subtask.skill == action.skill
        facts = StepFacts(
            action=action_text(action),
            failed=failed,
            no_change=reflection.verdict == "no_change",
            gave_up=action.reason if isinstance(action, act.Fail) else None,
            # A skill, like an application action or a text typed, does its whole effect at
            # once (each time it runs).
            whole_effect=action is not None
            and (action.belongs_to is not None or isinstance(action, act.UseSkill | act.TypeText)),
            skill_failed=result.message if own_skill and result and not result.ok else None,
            untouched=result is not None and result.untouched,
        )
        counters = self.policy.count(counters_of(checkpoint), facts)
        store_counters(checkpoint, counters)
        verdict = f"{reflection.verdict}: {reflection.reason}"
        if empty is not None:
            verdict = (
                f"not an answer: {empty}; answer with the value itself, as the screen shows it"
            )
        repeated = repeated_success(checkpoint.history, action)
        checkpoint.reflection = verdict
        output = result.output if result is not None else None
        checkpoint.history.append(
            StepLine(number=work.number, action=action, verdict=reflection.verdict, output=output)
        )
        if self.policy.reassess(counters):
            verdict += (
                f" — the last {counters.consecutive_failures} actions failed; re-assess the "
                "subtask and say what to try differently"
            )
            self.recorder.event(step, EscalateProgressEvent(failures=counters.consecutive_failures))
        report = self._update_progress(checkpoint, subtask, context, facts.action, verdict, work)
        if not failed and not isinstance(action, act.Done):
            hint = finish_hint(repeated, report)
            if hint:
                checkpoint.reflection += f" — {hint}"
        if self.completion.finished_by_repeat(
            checkpoint, subtask, report, work, repeated, failed, step
        ):
            return
        if isinstance(action, act.Done):
            if self.completion.accept_done(checkpoint, subtask, report, work, step):
                return
            counters = self.policy.unfinished(counters)
            store_counters(checkpoint, counters)
        self._escalate(checkpoint, subtask, counters, facts, step)

    def _escalate(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        counters: Counters,
        facts: StepFacts,
        step: int,
    ) -> None:
        """The policy's answer for a step that did not finish its subtask: go on, re-plan, or
        fail the run."""
        decision = self.policy.decide(counters, facts)
        if decision.looping:
            self.recorder.event(step, LoopEvent(action=facts.action))
        if decision.what == "replan":
            self._replan(checkpoint, subtask, decision.reason, step)
        elif decision.what == "fail":
            checkpoint.end_subtask("failed")
            self.finish(
                checkpoint, "failed", f"subtask {subtask.id} failed: {decision.reason}", step
            )

    def _update_progress(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        context: StepContext,
        action: str,
        verdict: str,
        work: StepWork,
    ) -> ProgressReport | None:
        """The Progress agent's new account. It is shown what the last reading action read
        while values are missing, and a value it reports stays only when the step's listing,
        that reading, the instruction, the step's action (an ``answer``) or the known values
        support it (it sees no screen); one that restates the task's words only when the screen
        or the reading does."""
        missing = [name for name in subtask.outputs if name not in checkpoint.answers]
        read = kept(checkpoint.last_output) if missing else ""
        known = [*checkpoint.hub.values(), *checkpoint.answers.values()]
        # The step's own action is evidence too: an ``answer`` with several values is the
        # Decision agent's (it sees the screen), and Progress splits it into the named outputs.
        evidence = "\n".join([work.listing, checkpoint.last_output, action, *known])
        report = self.parts.progress.update(
            ProgressInput.for_step(
                context,
                action=action,
                verdict=verdict,
                answers=checkpoint.answers,
                read=read,
                evidence=evidence,
                shown=f"{work.listing}\n{checkpoint.last_output}",
            )
        )
        if report is not None:
            checkpoint.progress = report.progress
            checkpoint.answers.update(report.outputs)
        return report

    def _replan(
        self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, reason: str, step: int
    ) -> None:
        """New remaining subtasks from the planner; finished ones are kept, ids kept unique.

        Pending subtasks the new plan leaves out are carried over: all of them when the planner
        fell back to retrying the failed subtask, and otherwise those in an application no new
        subtask works in, and after a corrected call of the failed skill those of no application
        whose skill no new step calls (a small model re-plans only what failed and forgets the
        rest; the run then "finished" without the rest of the instruction:
        :func:`~pcagent.runtime.loop.replan_merge.carried_and_retried`). New ids that repeat old ones are
        renumbered with their references; a carried subtask waits for the new steps instead of
        those that will not run (:mod:`replan_merge`)."""
        store_counters(checkpoint, self.policy.replanned(counters_of(checkpoint)))
        finished = [s for s in checkpoint.subtasks if checkpoint.status[s.id] == "done"]
        before = [s for s in checkpoint.subtasks if checkpoint.status[s.id] == "failed" and s.skill]
        told = subtask.model_copy(update={"failed_before": before})
        replanning = Replanning(checkpoint.instruction, finished, checkpoint.hub, told, reason)
        outcome = self.parts.planner.replan(replanning, step + 1)
        checkpoint.end_subtask("failed")
        if outcome.nothing_left:
            self.log(f"nothing left to try after {subtask.id} failed ({reason})")
            self.finish(
                checkpoint,
                "failed",
                f"subtask {subtask.id} failed: {reason}; {outcome.nothing_left}",
                step,
            )
            return
        kept = [s for s in checkpoint.subtasks if checkpoint.status[s.id] != "pending"]
        pending = [s for s in checkpoint.subtasks if checkpoint.status[s.id] == "pending"]
        fresh = renumbered(outcome.plan.subtasks, {s.id for s in checkpoint.subtasks})
        carry, retried = carried_and_retried(pending, fresh, subtask, outcome.fallback)
        gone = {subtask.id} | {s.id for s in pending if s not in carry}
        carried = carried_over(carry, gone, [f.id for f in fresh], retried)
        checkpoint.subtasks = kept + fresh + carried
        for new in fresh:
            checkpoint.status[new.id] = "pending"
        self.recorder.event(
            step, ReplanEvent(failed=subtask.id, reason=reason, subtasks=fresh + carried)
        )
        self.log(
            f"re-planned after {subtask.id} failed ({reason}): {[s.id for s in fresh + carried]}"
        )

    # --- recovery and the human -----------------------------------------------------------------

    def reopen_crashed_app(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        windows: Sequence[WindowInfo],
        step: int,
    ) -> bool:
        """Reopen the subtask's application when its window vanished without the agents closing
        it (a crash, a kill), on its last recorded document. True when it reopened one."""
        app = subtask.app
        if not app or app not in checkpoint.apps_opened or self.desktop.control is None:
            return False
        if self.desktop.app_window_present(windows, app):
            return False
        documents = [entry for entry in self.recorder.last_apps if entry.app == app][:1]
        try:
            if documents:
                self.desktop.reopen(documents)
            else:
                self.desktop.control.open_app(app)
        except PcAgentError as error:
            self.recorder.event(step, ReopenFailedEvent(app=app, error=str(error)))
            return False
        checkpoint.reflection = (
            f"the {app} window had disappeared (the application closed or crashed); "
            "it was reopened — check its state before going on"
        )
        self.recorder.event(step, ReopenedAppEvent(app=app, documents=documents))
        self.log(f"{app} had vanished; reopened it")
        return True

    def review(self, checkpoint: RunCheckpoint, work: StepWork, recorder: StepRecorder) -> None:
        """Proactive mode: the human approves every step, redirects, or stops the run."""
        if self.mode != "proactive" or checkpoint.outcome:
            return
        verdict = work.reflection.verdict if work.reflection else "-"
        review = self.human.review(
            f"step {work.number} [{work.subtask_id} {work.role}] {action_text(work.action)} -> "
            f"{verdict}\nprogress: {checkpoint.progress}"
        )
        recorder.event(work.number, ReviewEvent(review=review))
        if review.decision == "stop":
            self.finish(
                checkpoint, "stopped", f"stopped by the user after step {work.number}", work.number
            )
            recorder.rewrite_state(work.number, checkpoint)
        elif review.decision in ("guide", "reject"):
            prefix = "The user rejected the last step. " if review.decision == "reject" else ""
            checkpoint.guidance = prefix + review.guidance
            recorder.rewrite_state(work.number, checkpoint)
