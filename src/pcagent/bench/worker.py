"""One benchmark worker: its sandbox (and further desktops), the offline services its tasks need,
and the agents' parts, opened once and used for task after task.

The thread runner (:func:`pcagent.bench.runner.run_tasks`) keeps one per thread; a Ray actor
(:mod:`pcagent.bench.ray_runner`) keeps one per actor process. Its sandboxes are guarded: were
the process that owns them killed outright, a watchdog closes them (see
:mod:`pcagent.env.sandbox_guard`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pcagent.bench.environments import RemoteDesktop, TaskEnvironment, open_further_environments
from pcagent.bench.task_run import (
    AgentName,
    Services,
    TaskRun,
    run_task,
    sandbox_config_for,
    services_for,
)
from pcagent.bench.tasks import Task
from pcagent.config import PcAgentConfig
from pcagent.env.sandbox import SandboxDesktop
from pcagent.runtime.loop.progress import Progress, sandbox_start

if TYPE_CHECKING:
    from pcagent.assembly import RunParts
    from pcagent.runtime.record.store import RunStore


@dataclass(eq=False)
class BenchWorker:
    """Everything one worker needs to run ``tasks`` one after another with ``agent``.

    ``start_lock`` serialises sandbox starts among workers of one process (two starting at once
    can pick the same free display); ``on_sandbox`` is told of every sandbox started (the thread
    runner closes them itself on a second Ctrl+C). ``runs_dir`` replaces the configuration's run
    records folder for the ``pcagent`` agent. ``progress`` is told of its sandbox starts and
    of the model calls of its runs as waits.
    """

    tasks: Sequence[Task]
    agent: AgentName
    folder: Path
    _: KW_ONLY
    config: PcAgentConfig | None = None
    models: Any = None
    ablation: str = "none"
    recorder: RunStore | None = None
    remotes: Mapping[str, RemoteDesktop] = field(default_factory=dict)
    start_lock: threading.Lock = field(default_factory=threading.Lock)
    on_sandbox: Callable[[SandboxDesktop], None] | None = None
    runs_dir: Path | None = None
    progress: Progress = field(default_factory=Progress)
    # what open() starts, closed again by close()
    services: Services = field(default_factory=Services, init=False)
    desktop: SandboxDesktop | None = field(default=None, init=False)
    further: dict[str, TaskEnvironment] = field(default_factory=dict, init=False)
    parts: RunParts | None = field(default=None, init=False)
    _stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, init=False)

    def __enter__(self) -> BenchWorker:
        return self.open()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def open(self) -> BenchWorker:
        """Start the services, the sandbox, the further desktops and the agents' parts; on any
        failure what was started is closed again."""
        stack = self._stack
        try:
            self.services = stack.enter_context(services_for(self.tasks, self.folder))
            self.desktop = stack.enter_context(self._start_sandbox())
            self.further = open_further_environments(
                self.tasks, self.remotes, self._start_sandbox, stack
            )
            if self.agent == "pcagent" and self.config is not None:
                from pcagent.assembly import RunChoices, open_run
                from pcagent.runtime.loop.human import NoHuman

                # One router and one run store per worker: a local model is loaded once, not
                # once per task; each task gets its own session.
                choices = RunChoices.of(self.config, ablation=self.ablation, may_attach=False)
                self.parts = stack.enter_context(
                    open_run(
                        choices,
                        human=NoHuman(),
                        environment=self.desktop,
                        models=self.models,
                        runs_dir=self.runs_dir,
                        progress=self.progress,
                    )
                )
        except BaseException:
            self.close()
            raise
        return self

    def _start_sandbox(self) -> SandboxDesktop:
        settings = self.config.desktop if self.config is not None else None
        with self.start_lock:
            sandbox = SandboxDesktop(sandbox_config_for(self.services, settings))
            with self.progress.waiting(sandbox_start()):
                sandbox.start()
        if self.on_sandbox is not None:
            self.on_sandbox(sandbox)
        return sandbox

    def run(self, task: Task) -> TaskRun:
        """Run one task on this worker's desktops (reset first) and evaluate it."""
        if self.desktop is None:
            raise RuntimeError("open the worker before running tasks on it")
        return run_task(
            task,
            self.agent,
            self.desktop,
            self.services,
            config=self.config,
            models=self.models,
            ablation=self.ablation,
            parts=self.parts,
            record_to=self.recorder,
            further=self.further,
        )

    def close(self) -> None:
        """Close the parts, the desktops and the services (in that order); safe to repeat."""
        stack, self._stack = self._stack, contextlib.ExitStack()
        stack.close()
        self.desktop = None
        self.parts = None
        self.further = {}
