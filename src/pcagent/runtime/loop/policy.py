"""When to retry, re-assess, re-plan or give up: a pure policy over counters and verdicts.

The step loop reports what each step came to (:class:`StepFacts`); the policy updates the failure
counters and answers what happens next (:class:`Next`). It never calls a model or touches a
desktop, so every escalation rule is unit-tested on its own (tests/runtime/test_policy.py).

The rules, from the run configuration (``[run]``):
- a step *fails* when Reflection says it did not succeed or the action did not run; an ``answer``,
  ``done`` or ``ask_human`` Reflection did not fault does not count as a failure;
- after ``escalate_to_progress_after`` failures in a row, Progress is told to re-assess;
- after ``escalate_to_manager_after`` failures in a row, a detected loop (the same action
  ``loop_repeats`` times with no change on the screen, or failed each time, or twice failed when
  the second was refused before it ran), a ``fail`` action or (with
  ``replan_on_skill_failure``) a subtask's own skill call that failed, the Manager re-plans the
  remaining work, at most ``max_replans`` times;
- when it cannot re-plan, a ``fail`` action, a detected loop or ``max_consecutive_failures``
  failures end the run (a loop left to go on repeated one action to the step cap: the same
  page opened five times in a row, 2026-11-28);
- the step cap and the token budget end the run before a step starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pcagent.config import RunConfig


@dataclass(frozen=True)
class Counters:
    """What the policy remembers between steps (kept in the run's checkpoint)."""

    consecutive_failures: int = 0
    replans: int = 0
    recent_actions: tuple[str, ...] = ()


@dataclass(frozen=True)
class StepFacts:
    """What one step came to, as the policy needs it.

    ``action`` is the action's text (equal texts are the same action); ``no_change`` is True when
    Reflection saw no change on the screen; ``gave_up`` is the reason of a ``fail`` action;
    ``whole_effect`` is True for an action that does its whole effect each time it runs: an
    application action, a skill call, a text typed (the same again is no progress);
    ``skill_failed`` is why the subtask's own skill call failed, when it did; ``untouched`` is
    True when the action was refused before it ran (invalid here, or stopped by the guard), so
    the desktop is as it was.
    """

    action: str
    failed: bool
    no_change: bool
    gave_up: str | None = None
    whole_effect: bool = False
    skill_failed: str | None = None
    untouched: bool = False


@dataclass(frozen=True)
class Next:
    """The policy's answer after a step.

    - ``go_on``: keep going with the same subtask;
    - ``replan``: ask the Manager for new remaining subtasks (``reason`` says why);
    - ``fail``: the subtask and the run fail (``reason`` says why).
    ``looping`` says a loop was detected (for the record).
    """

    what: Literal["go_on", "replan", "fail"]
    reason: str = ""
    looping: bool = False


@dataclass(frozen=True)
class EscalationPolicy:
    """The rules above for one run's configuration. ``can_replan`` is False when the planner has
    no Manager to ask (the ablations without one)."""

    run: RunConfig
    can_replan: bool = True

    def stop_before_step(self, steps_done: int, tokens: int, seconds: float = 0.0) -> str | None:
        """Why the run must end before another step (``seconds``: how long its steps have
        taken so far), or None."""
        if steps_done >= self.run.max_steps:
            return f"stopped at the step cap ({self.run.max_steps})"
        if self.run.token_budget and tokens >= self.run.token_budget:
            return f"spent the token budget ({tokens} of {self.run.token_budget})"
        if self.run.time_budget and seconds >= self.run.time_budget:
            return f"ran past the time limit ({seconds:.0f} s of {self.run.time_budget:.0f} s)"
        return None

    def count(self, counters: Counters, facts: StepFacts) -> Counters:
        """The counters after a step."""
        failures = counters.consecutive_failures + 1 if facts.failed else 0
        recent = (*counters.recent_actions, facts.action)[-self.run.loop_repeats :]
        return Counters(failures, counters.replans, recent)

    def reassess(self, counters: Counters) -> bool:
        """Whether Progress should re-assess the subtask now (counters already updated)."""
        return counters.consecutive_failures == self.run.escalate_to_progress_after

    def looping(self, counters: Counters, facts: StepFacts) -> bool:
        """The same action ``loop_repeats`` times in a row with no change, or failed each time,
        or the same application action, skill call or typing so often whatever it did: each
        does its whole effect at once, so inserting the same paragraph again and again is no
        progress (the Decision agent typed a paper's title into a new document five times in a
        row, each "typed 25 characters", to the step cap: a rewording of pc10, 2026-12-06);
        and a click on a menu that opens and closes it changes the screen each time
        (the Decision agent clicked "File" in the text editor four times in a row, each judged
        an unexpected change, on a rewording of pc18, 2026-12-03).

        An action refused before it ran, right after the same action failed, is a loop at once:
        nothing changed, so a third try meets the same refusal (the Decision agent filled a
        field the page lacks three times in a row on a rewording of pc06, 2026-12-06)."""
        recent = counters.recent_actions
        same = len(recent) >= self.run.loop_repeats and len(set(recent)) == 1
        failed_each = counters.consecutive_failures >= self.run.loop_repeats
        if same and (facts.no_change or facts.whole_effect or failed_each):
            return True
        refused_again = len(recent) >= 2 and recent[-1] == recent[-2]
        return refused_again and facts.untouched and counters.consecutive_failures >= 2

    def decide(self, counters: Counters, facts: StepFacts) -> Next:
        """What happens after a step that did not finish its subtask (counters already updated)."""
        looping = self.looping(counters, facts)
        failures = counters.consecutive_failures
        if facts.gave_up is not None:
            reason = f"the role gave up: {facts.gave_up}"
        elif facts.skill_failed is not None and self.run.replan_on_skill_failure:
            reason = f"its skill failed: {facts.skill_failed}"
        elif looping:
            reason = "it repeats the same action without effect"
        elif failures >= self.run.escalate_to_manager_after:
            reason = f"{failures} actions in a row failed"
        else:
            return Next("go_on")
        if self.can_replan and counters.replans < self.run.max_replans:
            return Next("replan", reason, looping=looping)
        # A loop with no re-plan left only repeats itself until the step cap: it ends the run.
        if facts.gave_up is not None or looping or failures >= self.run.max_consecutive_failures:
            return Next("fail", reason, looping=looping)
        return Next("go_on", looping=looping)

    def unfinished(self, counters: Counters) -> Counters:
        """A ``done`` that left outputs unreported counts as one more failure."""
        return Counters(
            counters.consecutive_failures + 1, counters.replans, counters.recent_actions
        )

    def replanned(self, counters: Counters) -> Counters:
        return Counters(
            counters.consecutive_failures, counters.replans + 1, counters.recent_actions
        )
