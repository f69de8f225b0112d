"""Running the ``pcagent`` agent on one benchmark task: its session, with the checkers run after
every step, and what the benchmark keeps of the run (figures, record, the checkers' grade).

Kept apart from :mod:`pcagent.bench.task_run`, which resets the sandbox and runs any agent; this
is the part that knows the full system's sessions and run records.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pcagent import actions as act
from pcagent.bench.evaluator import Contexts, GraphEvaluator
from pcagent.bench.tasks import Task
from pcagent.config import PcAgentConfig
from pcagent.env.protocol import Environment
from pcagent.errors import PcAgentError
from pcagent.runtime.record.events import PlanEvent, ReplanEvent

if TYPE_CHECKING:
    from pcagent.assembly import RunParts
    from pcagent.runtime.loop.progress import Progress
    from pcagent.runtime.record.models import RunEvent, StepRecord

__all__ = ["CODE_CHOSEN", "PcagentRunRecord", "decision_counts", "grade_run", "run_pcagent"]


#: How the run marks a step whose action its own code chose rather than a model.
CODE_CHOSEN = "[run]"
#: How it marks a skill step's call as the program wrote it (the model's, unless code changed
#: the program's call: the plan's ``mended``).
PLANNED = "[plan]"


def decision_counts(steps: Sequence[StepRecord], events: Sequence[RunEvent] = ()) -> dict[str, int]:
    """How many steps' actions a model chose and how many the run's code chose: the steps it
    marks (opening a step's application) and the program's calls that code changed from
    every call the Manager's model wrote (``mended`` in the plans of ``events``)."""
    mended = {
        subtask.id
        for record in events
        if isinstance(record.event, PlanEvent | ReplanEvent)
        for subtask in record.event.subtasks
        if subtask.mended
    }
    acted = [step for step in steps if step.action is not None]
    by_code = sum(
        1
        for step in acted
        if step.thought.startswith(CODE_CHOSEN)
        or (step.thought.startswith(PLANNED) and step.subtask_id in mended)
    )
    return {"model_decisions": len(acted) - by_code, "code_decisions": by_code}


@dataclass
class PcagentRunRecord:
    """What the runner keeps of one pcagent run: its figures and its record."""

    steps: int
    tokens: int
    flagged: list[int]
    planned: tuple[str, ...] | None
    run_id: str
    status: str
    summary: str
    records: list[StepRecord]
    events: list[RunEvent]
    store_root: Path


def grade_run(store_root: Path, run_id: str, task: Task, success: bool) -> None:
    """Write the checkers' verdict into the run's record: the page graph learns only from runs
    that really succeeded, not from every run whose agents said done."""
    from pcagent.runtime.record.store import RunStore

    store = RunStore(store_root)
    try:
        store.update_settings(run_id, {"task_id": task.id, "graded_success": success})
    finally:
        store.close()


def run_pcagent(
    task: Task,
    environment: Environment,
    evaluator: GraphEvaluator,
    context: Contexts,
    answers: list[str],
    config: PcAgentConfig | None,
    models: Any,
    ablation: str,
    parts: RunParts | None,
    runs_dir: Path | None = None,
    progress: Progress | None = None,
) -> PcagentRunRecord:
    from pcagent.assembly import RunChoices, open_run
    from pcagent.runtime.loop.human import NoHuman
    from pcagent.runtime.record.events import PlanEvent

    flagged: list[int] = []

    def on_step(record: StepRecord) -> None:
        if isinstance(record.action, act.Answer):
            answers.append(record.action.text)
        elif record.result is not None and record.result.answer is not None:
            answers.append(record.result.answer)  # a skill told the person
        if record.reflection is not None and record.reflection.verdict != "success":
            flagged.append(record.step)
        evaluator.evaluate(context, record.step)

    with contextlib.ExitStack() as stack:
        if parts is None:
            if config is None:
                raise PcAgentError("the pcagent agent needs a configuration")
            choices = RunChoices.of(config, ablation=ablation, may_attach=False)
            parts = stack.enter_context(
                open_run(
                    choices,
                    human=NoHuman(),
                    environment=environment,  # type: ignore[arg-type]
                    models=models,
                    runs_dir=runs_dir,
                    progress=progress,
                )
            )
        session = parts.session(on_step=on_step, allow=task.permitted_effects())
        outcome = session.start(task.instruction, {"bench_task": task.id})
        planned = None
        events = parts.store.events(outcome.run_id)
        for record in events:
            if isinstance(record.event, PlanEvent):
                # The applications the plan visits, in order (a computation or a language
                # step visits none; the same application twice in a row is one visit).
                apps = [subtask.app for subtask in record.event.subtasks if subtask.app]
                planned = tuple(a for i, a in enumerate(apps) if i == 0 or apps[i - 1] != a)
        return PcagentRunRecord(
            steps=outcome.steps,
            tokens=outcome.tokens,
            flagged=flagged,
            planned=planned,
            run_id=outcome.run_id,
            status=outcome.status,
            summary=outcome.summary,
            records=parts.store.steps(outcome.run_id),
            events=events,
            store_root=parts.store.root,
        )
