"""When a subtask is done: on its ``done``, on a skill that checked its effect, or on a step
that repeated a success with nothing left to do.

:class:`~pcagent.runtime.loop.subtasks.SubtaskBook` asks these questions after every step; keeping
them together puts every way a subtask can end as done, and why a ``done`` is refused, in one
place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.progress import ProgressReport
from pcagent.runtime.loop.done_check import done_problem
from pcagent.runtime.loop.step_outcome import (
    READ_KEPT,
    checks_an_effect,
    keep_findings,
    repeats_work,
    reported_and_repeating,
)
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import AutoDoneEvent, DoneRefusedEvent
from pcagent.runtime.record.models import StepResult
from pcagent.runtime.record.recorder import StepRecorder, StepWork
from pcagent.step_context import StepLine, action_text


@dataclass
class SubtaskCompletion:
    """Ends subtasks as done in the checkpoint, recording why (or why a ``done`` was refused)."""

    recorder: StepRecorder
    log: Callable[[str], None]

    def finished_by_repeat(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        report: ProgressReport | None,
        work: StepWork,
        repeated: int | None,
        failed: bool,
        step: int,
    ) -> bool:
        """End the subtask as done when its step repeated a success with nothing left to do: a
        small model that has what the subtask asked for often repeats its last good action, or
        clicks about, instead of saying done; the values are in, or the application checked the
        effect, so the subtask is. True when it ended it."""
        redone = _redone(checkpoint, subtask, report, work, repeated)
        if not (
            redone or reported_and_repeating(subtask, checkpoint, repeated, failed, work.action)
        ):
            return False
        if redone:
            reason = f"step {repeated}'s checked effect repeated; nothing is left to do"
        else:
            reason = f"all of {', '.join(subtask.outputs)} reported; step {repeated} repeated"
        self.recorder.event(step, AutoDoneEvent(subtask=subtask.id, reason=reason))
        checkpoint.verified[subtask.id] = redone and not _account_disagrees(report)
        keep_findings(checkpoint, subtask)
        checkpoint.end_subtask("done")
        self.log(f"subtask {subtask.id} done: {reason}")
        return True

    def accept_done(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        report: ProgressReport | None,
        work: StepWork,
        step: int,
    ) -> bool:
        """End the subtask on its ``done`` when nothing is missing (True), or tell the Decision
        agent why not (False) and record the step as a refused done, not a finished success."""
        problem = done_problem_of(checkpoint, subtask, report)
        if problem is None:
            checked = bool(checkpoint.verified_effect)
            overruled = checked and _account_disagrees(report)
            checkpoint.verified[subtask.id] = checked and not overruled
            keep_findings(checkpoint, subtask)
            checkpoint.end_subtask("done")
            unverified = ", unverified: its account says not complete" if overruled else ""
            self.log(f"subtask {subtask.id} done{unverified}")
            return True
        checkpoint.reflection = f"not done yet: {problem}"
        carried_out = work.result or StepResult(ok=True)
        work.result = carried_out.model_copy(
            update={
                "ok": False,
                "refused": True,
                "finished": False,
                "message": f"done refused: {problem}",
            }
        )
        self.recorder.event(step, DoneRefusedEvent(subtask=subtask.id, reason=problem))
        self.log(f"done refused for {subtask.id}: {problem}")
        return False

    def skill_done(
        self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, work: StepWork, step: int
    ) -> None:
        """A skill step whose skill checked its effect: its value goes to the later steps."""
        result = work.result
        if result is None:
            raise ValueError("a skill step ends done only on its skill's result")
        checkpoint.values[subtask.id] = result.value
        checkpoint.hub[subtask.id] = (result.output or "")[:READ_KEPT]
        checkpoint.verified[subtask.id] = True
        checkpoint.history.append(
            StepLine(
                number=work.number, action=work.action, verdict="success", output=result.output
            )
        )
        checkpoint.end_subtask("done")
        self.log(f"subtask {subtask.id} done: {result.message}")


def _account_disagrees(report: ProgressReport | None) -> bool:
    """Whether the Progress account says the subtask is not complete. A checked effect just
    before ``done`` still ends the subtask (the small model's account is often wrong, and
    refusing would send it round again), but it shows that one effect, not that the subtask
    did what it asked: a folder made is not the files moved into it. Against the account, the
    subtask is done *unverified*, so the run cannot end "finished" on it."""
    return report is not None and report.completed is False


def _redone(
    checkpoint: RunCheckpoint,
    subtask: SubtaskSpec,
    report: ProgressReport | None,
    work: StepWork,
    repeated: int | None,
) -> bool:
    """Whether a subtask without values to report just repeated an application action
    whose effect the application had checked (an alarm set, a file saved), and a ``done``
    would be accepted: the model tried to add the same alarm again, failed, and gave up."""
    action = work.action
    if repeated is None or subtask.outputs or action is None or action.belongs_to is None:
        return False
    if not checks_an_effect(action):  # the same file opened twice is no effect checked
        return False
    if not repeats_work(checkpoint, action, repeated):
        return False
    # ``repeated`` is a step that succeeded with this very action (its history line).
    return _done_after(checkpoint, subtask, report, work)


def _done_after(
    checkpoint: RunCheckpoint,
    subtask: SubtaskSpec,
    report: ProgressReport | None,
    work: StepWork,
) -> bool:
    """Whether a ``done`` would be accepted right after this step's checked action."""
    action = work.action
    held = checkpoint.verified_effect
    checkpoint.verified_effect = action_text(action)
    try:
        return done_problem_of(checkpoint, subtask, report) is None
    finally:
        checkpoint.verified_effect = held


def done_problem_of(
    checkpoint: RunCheckpoint,
    subtask: SubtaskSpec,
    report: ProgressReport | None,
) -> str | None:
    """Why the subtask's ``done`` is not accepted (:mod:`done_check`); None to accept."""
    missing = [name for name in subtask.outputs if name not in checkpoint.answers]
    completed = report.completed if report is not None else None
    return done_problem(missing, completed, verified_effect=checkpoint.verified_effect)
