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

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pcagent.bench.environments import RemoteDesktop, check_remote_desktops
from pcagent.bench.ray_actor import BenchActor
from pcagent.bench.ray_driver import Driver, Notice, RayActor
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

#: ``--ray local``: start a Ray instance on this machine for the run, and stop it after.
LOCAL = "local"
#: How long to wait, in seconds, for Ray to place a new actor before giving up.
PLACEMENT_TIMEOUT = 180.0


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


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
    from pcagent.runtime.loop.ablations import check_ablation

    check_ablation(ablation)
    if max_attempts < 1:
        raise ConfigurationError("max_attempts must be at least 1")
    per_actor = _served_per_actor(tasks, remotes)
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
        driver = Driver(
            ray,
            _actor_maker(ray, (tasks, agent, config, ablation), per_actor, resources, displays),
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


def _served_per_actor(
    tasks: Sequence[Task],
    remotes: Mapping[str, RemoteDesktop] | Sequence[Mapping[str, RemoteDesktop]] | None,
) -> list[dict[str, RemoteDesktop]]:
    """One set of served desktops per actor (a served desktop takes one task at a time), each
    checked against the tasks' further desktops."""
    per_actor = (
        [dict(remotes)] if isinstance(remotes, Mapping) else [dict(r) for r in remotes or []]
    )
    for served in per_actor:
        check_remote_desktops(tasks, served, 1)
    return per_actor


def _actor_maker(
    ray: Any,
    actor_arguments: tuple[Sequence[Task], AgentName, PcAgentConfig | None, str],
    per_actor: list[dict[str, RemoteDesktop]],
    resources: ActorResources,
    displays: int,
) -> Callable[[int], RayActor]:
    """A function that places actor number N (with its served desktops) and waits until Ray has
    started it, so a cluster too small says so instead of waiting for ever."""
    tasks, agent, config, ablation = actor_arguments
    remote_class = ray.remote(BenchActor).options(
        max_restarts=0, max_concurrency=1, **resources.options(displays)
    )

    def new_actor(number: int) -> RayActor:
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
        return RayActor(handle, pid, number)

    return new_actor


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
