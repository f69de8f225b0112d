"""The body of one benchmark actor on Ray: a worker (its sandbox, offline web and mail sink, and
the agents' parts with a model loaded once) opened on the first task and kept for the next.

Kept apart from the driver because this is the code that runs on the cluster's machines; it
sends each result back with the run record as a zip, so no filesystem is shared.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pcagent.bench.environments import RemoteDesktop
from pcagent.bench.task_run import AgentName, TaskRun
from pcagent.bench.tasks import Task
from pcagent.config import PcAgentConfig
from pcagent.scratch import scratch_folder

__all__ = ["ActorReply", "BenchActor"]


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
            from pcagent.runtime.record.export import export_run

            with export_run(self._worker.parts.store, result.run_id) as archive:
                record = archive.read()
        return ActorReply(result, record)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        shutil.rmtree(self._folder, ignore_errors=True)
