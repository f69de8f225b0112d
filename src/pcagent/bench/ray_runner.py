"""Running benchmark tasks on Ray: each actor owns a worker (its sandbox, its offline web and mail
sink, its agents' parts with a model loaded once), the driver hands out tasks and collects results.

The driver keeps the benchmark store: every result is written as the task ends (through
``on_result``), and a run record made on an actor comes back as a zip (the same archive
``pcagent runs import`` reads) and is written into the driver's run records under its own id, so
nothing needs a filesystem shared between machines.

Faults: an actor that dies under a task (killed, its machine gone) is replaced and the task run
again on another actor, up to ``max_attempts`` starts in all; the result says how many it took.
A task that runs past ``task_timeout`` has its actor killed (the sandbox's watchdog closes the
desktop) and is recorded as failed with the cause ``time_limit``. An interrupted driver kills its
actors the same way; what had finished is in the store, and ``bench run --resume`` runs the rest.

Placement: each actor asks Ray for CPUs, memory and ``pcagent_display`` units (one per sandbox
it starts), so Ray never places two sandboxes where one fits. A local instance declares as many
display units as the actors asked for need; a cluster's nodes declare theirs with
``ray start --resources '{"pcagent_display": N}'``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pcagent.bench.environments import RemoteDesktop, check_remote_desktops
from pcagent.bench.evaluator import GraphEvaluator
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.ray_resources import (
    DEFAULT_ATTEMPTS,
    DEFAULT_TASK_TIMEOUT,
    DISPLAY_RESOURCE,
    ActorResources,
)
from pcagent.bench.task_run import AgentName, TaskRun
from pcagent.bench.tasks import Task
from pcagent.config import PcAgentConfig
from pcagent.errors import ConfigurationError
from pcagent.scratch import scratch_folder

#: ``--ray local``: start a Ray instance on this machine for the run, and stop it after.
LOCAL = "local"
#: How long to wait, in seconds, for Ray to place a new actor before giving up.
PLACEMENT_TIMEOUT = 180.0
#: How long, in seconds, idle actors get to close their desktops at the end.
CLOSE_TIMEOUT = 60.0

Notice = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class ActorReply:
    """What an actor sends back for one task: the result and, for a pcagent run, its record."""

    result: TaskRun
    record_zip: bytes | None = None


class BenchActor:
    """The body of one Ray actor (wrapped with ``ray.remote`` by the driver): a
    :class:`~pcagent.bench.worker.BenchWorker` opened on the first task and kept for the next."""

    def __init__(
        self,
        tasks: Sequence[Task],
        agent: AgentName,
        config: PcAgentConfig | None,
        ablation: str,
        remotes: Mapping[str, RemoteDesktop],
    ) -> None:
        self._tasks = list(tasks)
        self._agent = agent
        self._config = config
        self._ablation = ablation
        self._remotes = dict(remotes)
        # an actor killed outright leaves its folder (services' files, records already sent):
        # the next actor on that machine removes it
        self._folder = scratch_folder("ray-actor")
        self._worker: Any = None

    def pid(self) -> int:
        return os.getpid()

    def run(self, task: Task) -> ActorReply:
        from pcagent.bench.worker import BenchWorker

        if self._worker is None:
            self._worker = BenchWorker(
                self._tasks,
                self._agent,
                self._folder / "services",
                config=self._config,
                ablation=self._ablation,
                remotes=self._remotes,
                runs_dir=self._folder / "runs",
            ).open()
        result = self._worker.run(task)
        record = None
        if result.run_id is not None and self._worker.parts is not None:
            from pcagent.runtime.record_export import export_run

            with export_run(self._worker.parts.store, result.run_id) as archive:
                record = archive.read()
        return ActorReply(result, record)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        shutil.rmtree(self._folder, ignore_errors=True)


@dataclass
class _Job:
    index: int
    task: Task
    attempts: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class _Actor:
    handle: Any
    pid: int
    #: Which actor this is (a replacement takes the number, and the served desktops, of the one
    #: it replaces).
    number: int = 0


@dataclass
class _Busy:
    actor: _Actor
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


def run_tasks_on_ray(
    tasks: Sequence[Task],
    agent: AgentName,
    *,
    address: str = LOCAL,
    actors: int = 2,
    config: PcAgentConfig | None = None,
    ablation: str = "none",
    on_result: Callable[[TaskRun], None] | None = None,
    resources: ActorResources | None = None,
    max_attempts: int = DEFAULT_ATTEMPTS,
    task_timeout: float | None = DEFAULT_TASK_TIMEOUT,
    remotes: Mapping[str, RemoteDesktop] | Sequence[Mapping[str, RemoteDesktop]] | None = None,
    runs_dir: Path | None = None,
    notice: Notice = _stderr,
    on_start: Callable[[Task, int], None] | None = None,
) -> list[TaskRun]:
    """Run ``tasks`` on ``actors`` Ray actors; ``on_result`` is called in this thread as each
    task ends. Results come back in task order.

    ``address``: :data:`LOCAL` starts a Ray instance on this machine (stopped at the end);
    anything else is passed to ``ray.init`` (``auto``, ``HOST:PORT``, ``ray://HOST:10001``).
    Run records of the ``pcagent`` agent are written into ``runs_dir`` (default: the
    configuration's). ``remotes`` are served further desktops of cross-environment tasks: one
    mapping for one actor, or a list with one mapping per actor (no more actors than that run,
    and a replacement actor gets the desktops of the one it replaces). ``on_start`` is told of each task handed out, with the process id of the
    actor that runs it. Raises :class:`ConfigurationError` when Ray is not installed, when the
    cluster cannot hold one actor, or for tasks the agent cannot run.
    """
    from pcagent.runtime.ablations import check_ablation

    check_ablation(ablation)
    if max_attempts < 1:
        raise ConfigurationError("max_attempts must be at least 1")
    # One set of served desktops per actor (a served desktop takes one task at a time).
    per_actor = (
        [dict(remotes)] if isinstance(remotes, Mapping) else [dict(r) for r in remotes or []]
    )
    for served in per_actor:
        check_remote_desktops(tasks, served, 1)
    if not tasks:
        return []
    served_names = set(per_actor[0]) if per_actor else set()
    resources = resources or ActorResources()
    ray = _import_ray()
    # A cross-environment task takes one more sandbox per further desktop that is not served.
    from pcagent.bench.environments import further_environment_names

    displays = 1 + sum(1 for name in further_environment_names(tasks) if name not in served_names)
    wanted = max(1, min(actors, len(tasks)))
    if per_actor and len(per_actor) < wanted:
        notice(f"{len(per_actor)} sets of served desktops: {len(per_actor)} actors, not {wanted}")
        wanted = len(per_actor)
    started_here = False
    if not ray.is_initialized():
        _start_ray(ray, address, wanted * displays)
        started_here = True
    try:
        capacity = resources.fits(ray.cluster_resources(), displays)
        if capacity < 1:
            raise ConfigurationError(_no_room(ray.cluster_resources(), resources, displays))
        count = min(wanted, capacity)
        if count < wanted:
            notice(f"the Ray cluster holds {count} actors of this size, not {wanted}")
        remote_class = ray.remote(BenchActor).options(
            max_restarts=0, max_concurrency=1, **resources.options(displays)
        )

        def new_actor(number: int) -> _Actor:
            served = per_actor[number] if per_actor else {}
            handle = remote_class.remote(tasks, agent, config, ablation, served)
            try:
                pid = ray.get(handle.pid.remote(), timeout=PLACEMENT_TIMEOUT)
            except ray.exceptions.GetTimeoutError:
                ray.kill(handle)
                raise ConfigurationError(
                    f"no Ray node took a benchmark actor within {PLACEMENT_TIMEOUT:g} s; "
                    + _no_room(ray.available_resources(), resources, displays)
                ) from None
            return _Actor(handle, pid, number)

        driver = _Driver(
            ray,
            new_actor,
            count,
            agent,
            max_attempts,
            task_timeout,
            on_result,
            notice,
            runs_dir or (config.runs_dir if config is not None else None),
            on_start,
        )
        return driver.run(tasks)
    finally:
        if started_here:
            ray.shutdown()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:  # pragma: no cover - ray is a dependency
        raise ConfigurationError(f"Ray is not installed ({error}); run `make setup`") from error
    return ray


def _start_ray(ray: Any, address: str, displays: int) -> None:
    """Connect to ``address``, or start a local instance with ``displays`` display units."""
    import logging

    if address == LOCAL:
        ray.init(
            address="local",
            num_cpus=os.cpu_count() or 1,
            resources={DISPLAY_RESOURCE: displays},
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
            # Ray runs its workers at niceness 15; an actor's sandbox and model inherit it, and
            # any other job on the machine (even one at nice 10) then starves them, which the
            # thread runner's workers are not. A local run takes the driver's priority.
            _system_config={"worker_niceness": 0},
        )
        return
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as error:
        raise ConfigurationError(f"cannot reach the Ray cluster at {address}: {error}") from error


def _no_room(available: Mapping[str, float], resources: ActorResources, displays: int) -> str:
    return (
        f"the Ray cluster cannot hold one benchmark actor: each needs {resources.cpus} CPU, "
        f"{resources.memory_gb} GiB of memory and {displays} {DISPLAY_RESOURCE}; it has "
        f"{available.get('CPU', 0):g} CPU, {available.get('memory', 0) / 1024**3:.1f} GiB and "
        f"{available.get(DISPLAY_RESOURCE, 0):g} {DISPLAY_RESOURCE}. Start each node with "
        f"`ray start --resources '{{\"{DISPLAY_RESOURCE}\": N}}'` (N sandboxes it can host)."
    )


class _Driver:
    """Hands tasks to idle actors, collects replies, retries tasks of dead actors and ends tasks
    past their time limit."""

    def __init__(
        self,
        ray: Any,
        new_actor: Callable[[int], _Actor],
        count: int,
        agent: str,
        max_attempts: int,
        task_timeout: float | None,
        on_result: Callable[[TaskRun], None] | None,
        notice: Notice,
        store_root: Path | None,
        on_start: Callable[[Task, int], None] | None = None,
    ) -> None:
        self.ray = ray
        self.new_actor = new_actor
        self.count = count
        self.agent = agent
        self.max_attempts = max_attempts
        self.task_timeout = task_timeout
        self.on_result = on_result
        self.notice = notice
        self.store_root = store_root
        self.on_start = on_start
        self.results: dict[int, TaskRun] = {}
        self.pending: deque[_Job] = deque()
        self.busy: dict[Any, _Busy] = {}
        self.idle: list[_Actor] = []

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
            self._lost(busy, f"its worker died ({_first_line(error)})")
            return
        except self.ray.exceptions.RayTaskError as error:
            # The worker itself failed (its sandbox did not start...): start afresh elsewhere.
            with contextlib.suppress(Exception):
                self.ray.kill(busy.actor.handle)
            self._lost(busy, f"its worker failed: {_first_line(error.cause or error)}")
            return
        except self.ray.exceptions.RayError as error:  # lost objects, a node gone...
            with contextlib.suppress(Exception):
                self.ray.kill(busy.actor.handle)
            self._lost(busy, f"Ray lost its work ({_first_line(error)})")
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
        from pcagent.runtime.record_import import import_run
        from pcagent.runtime.records import RunStore

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


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
