"""A termination request ends pcagent like Ctrl+C does: cleanly.

Python's default for SIGTERM and SIGHUP is to die at once, skipping every ``finally``: a run
stopped by ``kill``, a closed terminal or a service manager would leave its sandbox desktop
running (X server, buses, applications) and its record marked "running". Turned into
``KeyboardInterrupt``, the signal unwinds the program instead: the run is recorded as
interrupted, and every sandbox it started is closed by its context manager. Further termination
requests are ignored while that clean-up runs.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

TERMINATING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    # Once is enough: a second request (``timeout`` forwards its own, a service manager
    # repeats) must not interrupt the clean-up the first one started. Ctrl+C still can.
    for terminating in TERMINATING_SIGNALS:
        signal.signal(terminating, signal.SIG_IGN)
    raise KeyboardInterrupt(f"stopped by signal {signal.Signals(signum).name}")


def install_terminate_as_interrupt() -> bool:
    """For the rest of the process, SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main
    thread. False (nothing done) outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return False
    for signum in TERMINATING_SIGNALS:
        signal.signal(signum, _interrupt)
    return True


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Inside, SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main thread; the previous
    handlers come back afterwards. Does nothing outside the main thread (signals go there)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _interrupt) for signum in TERMINATING_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
