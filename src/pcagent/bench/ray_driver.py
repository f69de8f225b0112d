"""The driver side of a benchmark run on Ray: hands tasks to idle actors, collects their
replies, runs the task of a dead actor again elsewhere and ends tasks past their time limit.

Kept apart from :mod:`pcagent.bench.ray_runner`, which starts or joins Ray and places the
actors; this module only schedules work on actors it is given.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pcagent.bench.evaluator import GraphEvaluator
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.ray_actor import ActorReply
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import Task
from pcagent.text import first_line

__all__ = ["CLOSE_TIMEOUT", "Driver", "Notice", "RayActor", "unfinished_result"]

#: How long, in seconds, idle actors get to close their desktops at the end.
CLOSE_TIMEOUT = 60.0

Notice = Callable[[str], None]


@dataclass
class _Job:
    index: int
    task: Task
    attempts: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class RayActor:
    handle: Any
    pid: int
    #: Which actor this is (a replacement takes the number, and the served desktops, of the one
    #: it replaces).
    number: int = 0


@dataclass
class _Busy:
    actor: RayActor
    job: _Job
    started: float


def unfinished_result(
    task: Task, agent: str, reason: str, cause: str, seconds: float, attempts: int
) -> TaskRun:
    """The result of a task that produced none of its own: its worker died on every attempt, or
    it ran past its time limit. Every sub-goal counts as failed (and every subtask that has
    one, as :meth:`GraphEvaluator.subtask_success` counts them)."""
    evaluator = GraphEvaluator(task)
    outcome = TaskOutcome(
        task_id=task.id,
        success=False,
        completion_ratio=0.0,
        subtasks_passed=0,
        subtasks_total=len(evaluator.subtask_success()),
        actions=0,
        tokens=0,
        seconds=seconds,
        reset_seconds=0.0,
        task_apps=tuple(s.app for s in task.subtasks),
        failure_causes=(cause,),
    )
    nodes = list(evaluator.states.values())
    return TaskRun(task, agent, outcome, nodes, error=reason, attempts=attempts)


@dataclass(eq=False)
class Driver:
    """Hands tasks to idle actors, collects replies, retries tasks of dead actors and ends tasks
    past their time limit."""

    ray: Any
    new_actor: Callable[[int], RayActor]
    count: int
    agent: str
    max_attempts: int
    task_timeout: float | None
    on_result: Callable[[TaskRun], None] | None
    notice: Notice
    store_root: Path | None
    on_start: Callable[[Task, int], None] | None = None
    results: dict[int, TaskRun] = field(default_factory=dict, init=False)
    pending: deque[_Job] = field(default_factory=deque, init=False)
    busy: dict[Any, _Busy] = field(default_factory=dict, init=False)
    idle: list[RayActor] = field(default_factory=list, init=False)

    def run(self, tasks: Sequence[Task]) -> list[TaskRun]:
        self.pending.extend(_Job(index, task) for index, task in enumerate(tasks))
        self.idle = [self.new_actor(number) for number in range(self.count)]
        try:
            while self.pending or self.busy:
                self._hand_out()
                ready, _ = self.ray.wait(list(self.busy), num_returns=1, timeout=1.0)
                for reference in ready:
                    self._collect(reference)
                self._end_overdue()
        finally:
            self._close_actors()
        return [self.results[i] for i in sorted(self.results)]

    def _close_actors(self) -> None:
        """Idle actors close their desktops themselves; busy ones (interrupted) are killed, and
        their sandboxes' watchdogs close those."""
        closing = [actor.handle.close.remote() for actor in self.idle]
        with contextlib.suppress(Exception):
            self.ray.get(closing, timeout=CLOSE_TIMEOUT)
        for actor in [*self.idle, *(busy.actor for busy in self.busy.values())]:
            with contextlib.suppress(Exception):
                self.ray.kill(actor.handle)

    def _hand_out(self) -> None:
        while self.pending and self.idle:
            job = self.pending.popleft()
            job.attempts += 1
            actor = self.idle.pop()
            reference = actor.handle.run.remote(job.task)
            self.busy[reference] = _Busy(actor, job, time.monotonic())
            if self.on_start is not None:
                self.on_start(job.task, actor.pid)

    def _collect(self, reference: Any) -> None:
        busy = self.busy.pop(reference)
        job = busy.job
        try:
            reply: ActorReply = self.ray.get(reference)
        except self.ray.exceptions.RayActorError as error:
            self._lost(busy, f"its worker died ({first_line(error)})")
            return
        except self.ray.exceptions.RayTaskError as error:
            # The worker itself failed (its sandbox did not start...): start afresh elsewhere.
            with contextlib.suppress(Exception):
                self.ray.kill(busy.actor.handle)
            self._lost(busy, f"its worker failed: {first_line(error.cause or error)}")
            return
        except self.ray.exceptions.RayError as error:  # lost objects, a node gone...
            with contextlib.suppress(Exception):
                self.ray.kill(busy.actor.handle)
            self._lost(busy, f"Ray lost its work ({first_line(error)})")
            return
        self.idle.append(busy.actor)
        result = reply.result
        result.attempts = job.attempts
        if reply.record_zip is not None:
            self._import_record(reply.record_zip, result)
        self._finish(job, result)

    def _lost(self, busy: _Busy, reason: str) -> None:
        job = busy.job
        job.errors.append(reason)
        self.idle.append(self.new_actor(busy.actor.number))
        seconds = time.monotonic() - busy.started
        if job.attempts < self.max_attempts:
            self.notice(f"{job.task.id}: {reason}; running it again on another worker")
            self.pending.appendleft(job)
            return
        self.notice(f"{job.task.id}: {reason}; no attempts left ({job.attempts})")
        result = unfinished_result(
            job.task, self.agent, "; ".join(job.errors), "worker_lost", seconds, job.attempts
        )
        self._finish(job, result)

    def _end_overdue(self) -> None:
        if self.task_timeout is None:
            return
        now = time.monotonic()
        for reference, busy in list(self.busy.items()):
            if now - busy.started <= self.task_timeout:
                continue
            del self.busy[reference]
            with contextlib.suppress(Exception):
                self.ray.kill(busy.actor.handle)
            self.idle.append(self.new_actor(busy.actor.number))
            job = busy.job
            reason = f"ended after its time limit of {self.task_timeout:g} s"
            self.notice(f"{job.task.id}: {reason}")
            result = unfinished_result(
                job.task, self.agent, reason, "time_limit", now - busy.started, job.attempts
            )
            self._finish(job, result)

    def _finish(self, job: _Job, result: TaskRun) -> None:
        self.results[job.index] = result
        if self.on_result is not None:
            self.on_result(result)

    def _import_record(self, archive: bytes, result: TaskRun) -> None:
        """Write the actor's run record into the driver's run records, under its own id."""
        if self.store_root is None:
            return
        from pcagent.errors import RecordError
        from pcagent.runtime.record.importer import import_run
        from pcagent.runtime.record.store import RunStore

        with tempfile.NamedTemporaryFile(suffix=".zip") as file:
            file.write(archive)
            file.flush()
            store = RunStore(self.store_root)
            try:
                import_run(store, Path(file.name))
            except RecordError as error:
                self.notice(f"{result.task.id}: its run record was not kept: {error}")
                result.run_id = None
            finally:
                store.close()
