"""Showing the run's long waits in the terminal (what is waited for, and for how long), as
one line per wait redrawn in place on a terminal, as occasional plain lines in a pipe or a log
file, or as JSON events for scripts.

Every writer here survives its output going away (a pipe closed by ``head``, a terminal that
was shut): it stops writing and the run goes on. See docs/progress.md for the JSON events.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress as Bars
from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

from pcagent.runtime.loop.progress import Wait

#: A wait shorter than this gets no line in a pipe (most model calls of a fast model).
NOTICE_AFTER_S = 5.0
#: How often a wait that goes on is mentioned again in a pipe.
REMIND_EVERY_S = 30.0


class SafeStream:
    """A text stream that never raises on write: once its reader is gone (a broken pipe, a
    closed file) it drops what it is given and says so in ``gone``. Everything else is the
    wrapped stream's (rich asks it whether it is a terminal, and for its encoding)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except (OSError, ValueError):  # ValueError: "I/O operation on closed file"
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def isatty(self) -> bool:
        try:
            return not self.gone and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class JsonEvents:
    """One JSON object per line: ``{"event": NAME, "time": UNIX_SECONDS, ...fields}``."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream if isinstance(stream, SafeStream) else SafeStream(stream)
        self._lock = threading.Lock()

    def emit(self, event: str, **fields: Any) -> None:
        line = json.dumps({"event": event, "time": round(time.time(), 3), **fields}, default=str)
        with self._lock:
            self.stream.write(line + "\n")
            self.stream.flush()

    def wait_started(self, wait_id: int, wait: Wait) -> None:
        self.emit("wait_start", id=wait_id, **wait.model_dump())

    def wait_ended(self, wait_id: int, wait: Wait, elapsed_s: float, error: str) -> None:
        self.emit(
            "wait_end",
            id=wait_id,
            kind=wait.kind,
            what=wait.what,
            elapsed_s=round(elapsed_s, 3),
            ok=not error,
            error=error,
        )


class TerminalWaits:
    """On a terminal: each wait is a line with a spinner and its elapsed time, redrawn in place
    under what is printed, and gone when the wait ends. ``bars`` is a rich progress display the
    command already shows (the benchmark's), else one of its own, transient, shown only while
    something is waited for: between waits the terminal is left alone (a question to the person
    is typed there)."""

    def __init__(self, console: Console, bars: Bars | None = None) -> None:
        self.bars = bars or Bars(
            SpinnerColumn(),
            TextColumn("waiting for {task.description}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._owned = bars is None
        self._lines: dict[int, Any] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> TerminalWaits:
        return self

    def __exit__(self, *_: object) -> None:
        with self._lock:
            if self._owned and self._lines:
                self.bars.stop()
            self._lines.clear()

    def wait_started(self, wait_id: int, wait: Wait) -> None:
        with self._lock:
            if self._owned and not self._lines:
                self.bars.start()
            # A display of its own says "waiting for" in its column; the command's does not.
            text = wait.what if self._owned else f"waiting for {wait.what}"
            self._lines[wait_id] = self.bars.add_task(escape(text), total=None)

    def wait_ended(self, wait_id: int, wait: Wait, elapsed_s: float, error: str) -> None:
        with self._lock:
            line = self._lines.pop(wait_id, None)
            if line is None:
                return
            self.bars.remove_task(line)
            if self._owned and not self._lines:
                self.bars.stop()  # transient: the line is erased
            else:
                self.bars.refresh()  # gone at once, not redrawn under the next printed line


class PlainWaits:
    """In a pipe or a file: a line when a wait has lasted :data:`NOTICE_AFTER_S`, another every
    :data:`REMIND_EVERY_S`, and one when such a wait ends; short waits print nothing. A thread
    looks once a second (``clock`` and :meth:`look` let a test drive it instead)."""

    def __init__(
        self,
        console: Console,
        *,
        notice_after_s: float = NOTICE_AFTER_S,
        remind_every_s: float = REMIND_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
        watch: bool = True,
    ) -> None:
        self.console = console
        self.notice_after_s = notice_after_s
        self.remind_every_s = remind_every_s
        self.clock = clock
        self._waits: dict[int, tuple[Wait, float, float | None]] = {}  # started, last told
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = (
            threading.Thread(target=self._watch, name="pcagent-waits", daemon=True)
            if watch
            else None
        )

    def __enter__(self) -> PlainWaits:
        if self._thread is not None:
            self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            self.look()

    def wait_started(self, wait_id: int, wait: Wait) -> None:
        with self._lock:
            self._waits[wait_id] = (wait, self.clock(), None)

    def wait_ended(self, wait_id: int, wait: Wait, elapsed_s: float, error: str) -> None:
        with self._lock:
            entry = self._waits.pop(wait_id, None)
        if entry is not None and entry[2] is not None:
            how = f"failed ({error})" if error else "done"
            self._say(f"{wait.what}: {how} after {elapsed_s:.0f} s")

    def look(self) -> None:
        """Print a line for each wait that is due one."""
        now = self.clock()
        due = []
        with self._lock:
            for wait_id, (wait, started, told) in self._waits.items():
                waited = now - started
                if (told is None and waited >= self.notice_after_s) or (
                    told is not None and now - told >= self.remind_every_s
                ):
                    self._waits[wait_id] = (wait, started, now)
                    due.append((wait, waited))
        for wait, waited in due:
            self._say(f"waiting for {wait.what}... {waited:.0f} s")

    def _say(self, text: str) -> None:
        self.console.print(f"[dim]{escape(text)}[/dim]", soft_wrap=True, highlight=False)
