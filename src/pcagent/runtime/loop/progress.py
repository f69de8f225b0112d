"""The long waits of a run, told as they begin and end: a model call, a sandbox start, a
benchmark task.

Why: a local model may think for minutes, and a person at the terminal (or a script reading
``--json``) should see what is being waited for and for how long. The run never prints; it tells
a :class:`WaitListener` (the command line's printer is one) through :class:`Progress`, which the
run's parts share. With no listener nothing is told and nothing is printed.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

WaitKind = Literal["model_call", "sandbox_start", "benchmark_task"]


class Wait(BaseModel):
    """One thing a run waits for."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: WaitKind
    #: What is waited for, in words: "the decision model (local:smollm2-135m)".
    what: str
    #: For a model call: the agent role asking, its model profile and the backend's model name.
    role: str = ""
    profile: str = ""
    model: str = ""
    #: For a benchmark task: its id.
    task: str = ""


class WaitListener(Protocol):
    """Told of every wait; called from the thread that waits (several at once in a benchmark
    with parallel sandboxes). It must not raise: a listener whose output is gone stops telling."""

    def wait_started(self, wait_id: int, wait: Wait) -> None: ...

    def wait_ended(self, wait_id: int, wait: Wait, elapsed_s: float, error: str) -> None: ...


class Progress:
    """Gives each wait an id and tells ``listener`` when it begins and ends (thread-safe)."""

    def __init__(self, listener: WaitListener | None = None) -> None:
        self.listener = listener
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    @contextmanager
    def waiting(self, wait: Wait) -> Iterator[None]:
        """The ``with`` block is the wait. Its end is told also when the block raises, with the
        exception's type name as ``error`` (the exception goes on)."""
        listener = self.listener
        if listener is None:
            yield
            return
        with self._lock:
            wait_id = next(self._ids)
        started = time.monotonic()
        listener.wait_started(wait_id, wait)
        error = ""
        try:
            yield
        except BaseException as exception:
            error = type(exception).__name__
            raise
        finally:
            listener.wait_ended(wait_id, wait, time.monotonic() - started, error)


def model_call(role: str, profile: str, model: str) -> Wait:
    """The wait for one answer of ``role``'s model."""
    return Wait(
        kind="model_call",
        what=f"the {role} model ({model})",
        role=role,
        profile=profile,
        model=model,
    )


def sandbox_start() -> Wait:
    return Wait(kind="sandbox_start", what="the sandbox desktop to start")


def benchmark_task(task_id: str) -> Wait:
    return Wait(kind="benchmark_task", what=f"benchmark task {task_id}", task=task_id)
