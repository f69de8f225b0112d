"""The benchmark's measures, from per-task results (PC-Agent's and CRAB's).

- SR: share of tasks whose every sub-goal passed.
- SSR: share of subtasks whose every sub-goal passed.
- CR: completion ratio, passed sub-goals / all sub-goals (mean over tasks).
- EE = CR / actions and CE = CR / tokens, per task then averaged (CRAB's efficiency).
- Recovery rate: of the runs where Reflection flagged an error, the share whose completion still
  rose after that step.
- Manager accuracy: share of runs whose plan matches the task's subtasks (same number, same
  applications in the same order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean, median


@dataclass(frozen=True)
class TaskOutcome:
    """What one task run produced, as the metrics need it."""

    task_id: str
    success: bool
    completion_ratio: float
    subtasks_passed: int
    subtasks_total: int
    actions: int
    tokens: int
    seconds: float
    reset_seconds: float
    #: Steps at which Reflection judged an action wrong (empty for agents without Reflection).
    flagged_steps: tuple[int, ...] = ()
    #: (step, completion ratio) after each evaluated step.
    completion_history: tuple[tuple[int, float], ...] = ()
    #: The applications of the Manager's planned subtasks, in order (None: no plan).
    planned_apps: tuple[str, ...] | None = None
    task_apps: tuple[str, ...] = ()
    #: Why the agent failed (keys of :data:`pcagent.bench.failure_causes.CAUSES`); () on success
    #: and for agents without a run record.
    failure_causes: tuple[str, ...] = ()
    #: Steps whose action a model chose (the Decision agent, or the Manager's program) and
    #: steps whose action the run's own code chose (opening a subtask's application).
    model_decisions: int = 0
    code_decisions: int = 0

    @property
    def recovered(self) -> bool | None:
        """None when nothing was flagged; else whether completion rose after the first flag."""
        if not self.flagged_steps:
            return None
        first = self.flagged_steps[0]
        before = max((cr for step, cr in self.completion_history if step <= first), default=0.0)
        after = max((cr for step, cr in self.completion_history if step > first), default=0.0)
        return after > before

    @property
    def manager_correct(self) -> bool | None:
        if self.planned_apps is None:
            return None
        return tuple(self.planned_apps) == tuple(self.task_apps)


def summarize(outcomes: Sequence[TaskOutcome]) -> dict[str, float | int | None]:
    """The metrics over a set of task outcomes (None where a measure does not apply)."""
    if not outcomes:
        return {"tasks": 0}
    subtasks = sum(o.subtasks_total for o in outcomes)
    recoveries = [o.recovered for o in outcomes if o.recovered is not None]
    managed = [o.manager_correct for o in outcomes if o.manager_correct is not None]
    return {
        "tasks": len(outcomes),
        "SR": mean(o.success for o in outcomes),
        "SSR": sum(o.subtasks_passed for o in outcomes) / max(1, subtasks),
        "CR": mean(o.completion_ratio for o in outcomes),
        "EE": mean(o.completion_ratio / o.actions if o.actions else 0.0 for o in outcomes),
        "CE": mean(o.completion_ratio / o.tokens if o.tokens else 0.0 for o in outcomes),
        "recovery_rate": mean(recoveries) if recoveries else None,
        "manager_accuracy": mean(managed) if managed else None,
        "actions": sum(o.actions for o in outcomes),
        "tokens": sum(o.tokens for o in outcomes),
        "seconds": sum(o.seconds for o in outcomes),
        "reset_seconds_median": median(o.reset_seconds for o in outcomes),
        "model_decision_share": _share(
            sum(o.model_decisions for o in outcomes),
            sum(o.model_decisions + o.code_decisions for o in outcomes),
        ),
    }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None
