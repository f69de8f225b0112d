"""Running benchmark tasks on this machine: ``parallel`` sandboxes side by side, each in a thread
working through its share of the tasks with a :class:`~pcagent.bench.worker.BenchWorker`.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pcagent.bench.environments import RemoteDesktop, check_remote_desktops
from pcagent.bench.task_run import AgentName, TaskRun
from pcagent.bench.tasks import Task
from pcagent.bench.worker import BenchWorker
from pcagent.config import PcAgentConfig
from pcagent.env.sandbox import SandboxDesktop
from pcagent.errors import PcAgentError
from pcagent.runtime.loop.progress import Progress, benchmark_task
from pcagent.scratch import scratch_directory

if TYPE_CHECKING:
    from pcagent.runtime.record.store import RunStore

#: One sandbox start at a time: two starting at once can pick the same free display.
_START_LOCK = threading.Lock()


def run_tasks(
    tasks: Sequence[Task],
    agent: AgentName,
    *,
    parallel: int = 1,
    config: PcAgentConfig | None = None,
    models: Any = None,
    ablation: str = "none",
    scratch: Any = None,
    on_result: Callable[[TaskRun], None] | None = None,
    record_to: Path | None = None,
    remotes: Mapping[str, RemoteDesktop] | None = None,
    progress: Progress | None = None,
) -> list[TaskRun]:
    """Run ``tasks`` in ``parallel`` sandboxes; ``on_result`` is called as each task ends (from
    worker threads, one at a time). Results come back in task order. ``progress`` is told of
    each task, each sandbox start and each model call as waits.

    Cross-environment tasks get, in each worker, one more desktop per further environment:
    the remote desktop ``remotes`` gives for its name (then ``parallel`` must be 1), else a
    second local sandbox. The ``pcagent`` agent is refused for them before anything starts.

    Sandboxes use the ``[desktop]`` settings of ``config`` (never its ``display``: tasks rewrite
    HOME). Raises :class:`~pcagent.errors.ConfigurationError` for an unknown ablation before any
    sandbox starts. ``record_to`` (reference agents only) is a run-record folder the reference
    solutions are recorded into.
    """
    from pcagent.runtime.loop.ablations import check_ablation

    check_ablation(ablation)
    remotes = dict(remotes or {})
    check_remote_desktops(tasks, remotes, parallel)
    with contextlib.ExitStack() as cleanup:
        if scratch is None:  # the services' files, removed when the run ends
            scratch = cleanup.enter_context(scratch_directory("bench"))
        recorder = None
        if record_to is not None:
            from pcagent.runtime.record.store import RunStore

            if agent not in ("reference", "reference-api"):
                raise PcAgentError("only reference solutions are recorded with record_to")
            recorder = RunStore(record_to)
            cleanup.callback(recorder.close)
        return _run_in(
            tasks,
            agent,
            Path(scratch),
            parallel,
            config,
            models,
            ablation,
            on_result,
            recorder,
            remotes,
            progress or Progress(),
        )


def _run_in(
    tasks: Sequence[Task],
    agent: AgentName,
    folder: Any,
    parallel: int,
    config: PcAgentConfig | None,
    models: Any,
    ablation: str,
    on_result: Callable[[TaskRun], None] | None,
    recorder: RunStore | None = None,
    remotes: Mapping[str, RemoteDesktop] | None = None,
    progress: Progress | None = None,
) -> list[TaskRun]:
    progress = progress or Progress()
    work: queue.Queue[tuple[int, Task]] = queue.Queue()
    for index, task in enumerate(tasks):
        work.put((index, task))
    results: dict[int, TaskRun] = {}
    lock = threading.Lock()
    failures: list[BaseException] = []
    desktops: list[SandboxDesktop] = []

    def worker(number: int) -> None:
        try:
            with BenchWorker(
                tasks,
                agent,
                folder / f"worker{number}",
                config=config,
                models=models,
                ablation=ablation,
                recorder=recorder,
                remotes=remotes or {},
                start_lock=_START_LOCK,
                on_sandbox=desktops.append,
                progress=progress,
            ) as bench_worker:
                while True:
                    try:
                        index, task = work.get_nowait()
                    except queue.Empty:
                        return
                    with progress.waiting(benchmark_task(task.id)):
                        result = bench_worker.run(task)
                    with lock:
                        results[index] = result
                        if on_result is not None:
                            on_result(result)
        except BaseException as error:  # surfaced in the caller's thread below
            failures.append(error)

    count = max(1, min(parallel, len(tasks)))
    if count == 1:
        # In the caller's thread: Ctrl+C (or SIGTERM, turned into it) stops the task at once
        # and closes the sandbox on the way out.
        worker(0)
    else:
        _run_workers(worker, count, work, desktops)
    if failures:
        raise failures[0]
    return [results[i] for i in sorted(results)]


def _run_workers(
    worker: Callable[[int], None],
    count: int,
    work: queue.Queue[Any],
    desktops: Sequence[SandboxDesktop],
) -> None:
    """``count`` worker threads. On Ctrl+C no new task starts; the running ones finish and
    their sandboxes close before the interruption goes on (a thread cannot be stopped from
    outside, and a process that left them would leave their desktops behind). A second Ctrl+C
    closes the sandboxes at once: their tasks then fail, and their threads end."""
    ended = [threading.Event() for _ in range(count)]

    def run(number: int) -> None:
        try:
            worker(number)
        finally:
            ended[number].set()

    threads = [threading.Thread(target=run, args=(n,), name=f"bench-{n}") for n in range(count)]
    # Started with Ctrl+C held back: one arriving while a thread starts would otherwise leave a
    # thread running that nobody waits for. It is delivered when the mask is restored.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for thread in threads:
            thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    try:
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:
        with contextlib.suppress(queue.Empty):
            while True:
                work.get_nowait()
        print(
            "interrupted: waiting for the running tasks to end and their sandboxes to close",
            file=sys.stderr,
            flush=True,
        )
        try:
            # Not Thread.join: once interrupted, it may take a running thread for an ended one.
            for event in ended:
                while not event.wait(0.5):
                    pass
        except KeyboardInterrupt:
            print("interrupted again: closing the sandboxes now", file=sys.stderr, flush=True)
            for desktop in desktops:
                with contextlib.suppress(Exception):
                    desktop.close()
        raise
