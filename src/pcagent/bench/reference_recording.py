"""Reference solutions recorded as runs, so the page graph can learn from them.

A recorded reference run looks like an agent's run in the run record: a plan (the task's own
subtasks), and for every action the screen the action was taken on (screenshot, the listing an
agent would have been shown, the window in front), the action and its result. A last step with no
action keeps the screen the solution ended on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.bench.tasks import Task
from pcagent.env.observation import ActionResult, Observation
from pcagent.env.sandbox import SandboxDesktop
from pcagent.perception.module import ActivePerception, Perception
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import PlanEvent
from pcagent.runtime.record.models import RunEvent, StepRecord, StepResult
from pcagent.runtime.record.store import RunStore


def _action_app(action: act.Action) -> str:
    if isinstance(action, act.OpenApp):
        return action.app
    return action.belongs_to or ""


@dataclass
class RecordingEnvironment:
    """The desktop, with every executed action recorded as a step of ``run_id``.

    Only what a reference solution uses (``observe`` and ``execute``) is offered.
    """

    desktop: SandboxDesktop
    store: RunStore
    run_id: str
    subtasks: list[SubtaskSpec]
    steps: int = 0
    _current: int = field(default=0, init=False)

    def observe(self) -> Observation:
        return self.desktop.observe()

    def execute(self, action: act.Action) -> ActionResult:
        seen = ActivePerception(self.desktop).perceive()
        self._follow(_action_app(action) or self._app(seen))
        result = self.desktop.execute(action)
        self._write(seen, action, StepResult.of(result))
        return result

    def finish(self) -> None:
        """Record the screen the solution ended on (a step without an action)."""
        self._write(ActivePerception(self.desktop).perceive(), None, None)

    def _app(self, seen: Perception) -> str:
        focused = seen.observation.focused_window
        return self.desktop.app_of_window(focused) if focused is not None else ""

    def _follow(self, app: str) -> None:
        """Move on to the next subtask of ``app`` (a solution does its subtasks in order)."""
        for index in range(self._current, len(self.subtasks)):
            if self.subtasks[index].app == app:
                self._current = index
                return

    def _write(
        self, seen: Perception, action: act.Action | None, result: StepResult | None
    ) -> None:
        self.steps += 1
        focused = seen.observation.focused_window
        self.store.write_step(
            StepRecord(
                run_id=self.run_id,
                step=self.steps,
                subtask_id=self.subtasks[self._current].id if self.subtasks else "",
                role="reference",
                action=action,
                result=result,
                listing=seen.listing,
                front_app=self._app(seen),
                window=focused.title if focused is not None else "",
            ),
            screenshot=seen.observation.screenshot,
        )


def start_recording(store: RunStore, task: Task, desktop: SandboxDesktop) -> RecordingEnvironment:
    """A new run for ``task``'s reference solution, its plan the task's subtasks."""
    run = store.create_run(task.instruction, {"agent": "reference", "task_id": task.id})
    plan = [
        SubtaskSpec(id=subtask.id, description=subtask.description, app=subtask.app)
        for subtask in task.subtasks
    ]
    checkpoint = RunCheckpoint(instruction=task.instruction, subtasks=plan)
    store.add_event(
        RunEvent(run_id=run.run_id, step=0, event=PlanEvent(subtasks=plan, state=checkpoint))
    )
    return RecordingEnvironment(desktop, store, run.run_id, plan)


def finish_recording(recording: RecordingEnvironment, success: bool, error: str | None) -> None:
    """Close the run: its last screen, its grade, and its status."""
    recording.finish()
    recording.store.update_settings(
        recording.run_id,
        {"agent": "reference", "graded_success": success},
    )
    status = "finished" if success else "failed"
    recording.store.set_status(recording.run_id, status, error or "")
