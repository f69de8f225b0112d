"""Why an agent failed a task, labelled from its run record and the evaluator's verdicts.

Reading a failed run's fifty steps by hand does not scale to a benchmark; these labels say at a
glance where the framework should help the model next. Each is computed from what the record
holds (steps, events, the plan) and what the evaluator saw (sub-goals and when they passed); a
task may have several causes, and a passed task has none.

Approximations, on purpose: "action on nothing" compares a click with the centres of the marks
listed to the Decision agent (no mark centre within :data:`NEAR_PIXELS`), since the record keeps
the listing, not the boxes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pcagent import actions as act
from pcagent.bench.evaluator import NodeState
from pcagent.bench.tasks import Task
from pcagent.errors import AgentError, DesktopError, error_names
from pcagent.runtime.record.models import RunEvent, StepRecord

#: How a task's error starts where pcagent's own code raised what it never should have.
INTERNAL_ERROR = "internal error: "

CAUSES: dict[str, str] = {
    "plan_wrong": "the plan's applications, or their order, differ from the task's subtasks",
    "wrong_app": "an action meant for one application was taken with another one in front",
    "action_on_nothing": "a click landed where the listing showed no mark",
    "false_done": "the run said done while sub-goals' checkers failed",
    "loop": "the same action was repeated without effect",
    "malformed_reply": "the Decision agent gave no valid action after re-asks",
    "reflection_contradicted": "Reflection judged a step wrong that the evaluator saw succeed",
    "step_cap": "the run hit its step cap or token budget",
    "environment_error": "the desktop or an application failed",
    "worker_lost": "the benchmark worker running the task died on every attempt",
    "time_limit": "the task ran past its time limit and was ended",
    "internal_error": "pcagent's own code failed (a bug; its traceback went to stderr)",
    "agent_error": "the agents stopped on an error of their own (a plan that cannot be carried "
    "out, an input value no subtask found)",
}
"""Every cause, with what it means (the report's legend)."""

#: A click this far (pixels, each axis) from every listed mark's centre counts as on nothing.
NEAR_PIXELS = 40
_CENTRE = re.compile(r"@(-?\d+),(-?\d+)$", re.MULTILINE)
_POINTING = (act.Click, act.DoubleClick, act.RightClick)


@dataclass(frozen=True)
class RunFacts:
    """What the labels are computed from: one task's agent run and its evaluation."""

    steps: Sequence[StepRecord]
    events: Sequence[RunEvent]
    nodes: Sequence[NodeState]
    status: str = ""
    summary: str = ""
    planned_apps: tuple[str, ...] | None = None
    error: str | None = None
    #: (step, completion ratio) after each evaluated step.
    completion: Sequence[tuple[int, float]] = field(default_factory=tuple)


def _squeezed(apps: Sequence[str]) -> list[str]:
    """Consecutive repeats folded: a plan that splits one application's work in two is fine."""
    return [app for i, app in enumerate(apps) if i == 0 or apps[i - 1] != app]


def _subtask_apps(step: StepRecord) -> dict[str, str]:
    if step.state is None:
        return {}
    return {s.id: s.app for s in step.state.subtasks}


def _on_nothing(step: StepRecord) -> bool:
    action = step.action
    if not isinstance(action, _POINTING):
        return False
    centres = [(int(x), int(y)) for x, y in _CENTRE.findall(step.listing)]
    if not centres:
        return False  # nothing listed (no perception): cannot tell
    return all(
        abs(x - action.x) > NEAR_PIXELS or abs(y - action.y) > NEAR_PIXELS for x, y in centres
    )


def _wrong_app(step: StepRecord) -> bool:
    action = step.action
    if action is None or action.runs_on not in ("desktop", "perception"):
        return False
    if isinstance(action, act.OpenApp | act.Wait):
        return False
    wanted = _subtask_apps(step).get(step.subtask_id, "")
    return bool(wanted and step.front_app and step.front_app != wanted)


def _contradicted(facts: RunFacts) -> bool:
    """A step Reflection judged wrong, after which the completion ratio rose at once."""
    ratio = dict(facts.completion)
    for step in facts.steps:
        if step.reflection is None or step.reflection.verdict == "success":
            continue
        before = max((cr for n, cr in facts.completion if n < step.step), default=0.0)
        if ratio.get(step.step, 0.0) > before:
            return True
    return False


def failure_causes(task: Task, facts: RunFacts) -> list[str]:
    """The causes (keys of :data:`CAUSES`) of a failed task run; [] when every sub-goal passed."""
    if facts.nodes and all(node.passed for node in facts.nodes) and facts.error is None:
        return []
    causes: list[str] = []
    if facts.planned_apps is not None and _squeezed(facts.planned_apps) != _squeezed(
        [s.app for s in task.subtasks]
    ):
        causes.append("plan_wrong")
    if any(_wrong_app(step) for step in facts.steps):
        causes.append("wrong_app")
    if any(_on_nothing(step) for step in facts.steps):
        causes.append("action_on_nothing")
    if facts.status == "finished":
        causes.append("false_done")
    if any(event.kind == "loop" for event in facts.events):
        causes.append("loop")
    if any(step.error and "gave no valid action" in step.error for step in facts.steps):
        causes.append("malformed_reply")
    if _contradicted(facts):
        causes.append("reflection_contradicted")
    if "step cap" in facts.summary or "token budget" in facts.summary:
        causes.append("step_cap")
    if "time limit" in facts.summary:
        causes.append("time_limit")
    step_errors = {step.result.error for step in facts.steps if step.result is not None}
    step_errors |= {step.error.split(":", 1)[0] for step in facts.steps if step.error}
    run_error = (facts.error or "").split(":", 1)[0]
    agent_errors = error_names(AgentError)
    if (
        run_error in agent_errors
        or step_errors & agent_errors
        or _named(facts.summary, agent_errors)
    ):
        causes.append("agent_error")
    if (facts.error or "").startswith(INTERNAL_ERROR):
        causes.append("internal_error")
    elif (facts.error is not None and run_error not in agent_errors) or step_errors & error_names(
        DesktopError
    ):
        causes.append("environment_error")
    return causes


def _named(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` names one of the error classes (a run's summary quotes its error)."""
    return any(re.search(rf"\b{name}\b", text) for name in names)
