"""Which process carries a run on, so that a run whose process is gone reads "interrupted".

A run's record says "running" from its start until its process records how it ended; a process
that ends normally, or on a signal it can catch, does so (:mod:`pcagent.runtime.loop.run_ending`).
A SIGKILL, a crash of the interpreter or a machine switched off leave it no chance, and the
record said "running" for good: two benchmark runs stopped with ``kill -9`` still did a day later
(2026-11-28). So the process that creates or resumes a run leaves its identity beside the run's
files (``owner.json``: host, process id and the process's start time, which tells a process
from a later one given the same id), and a reading of the run on that host whose process no
longer exists is reported "interrupted". On another host nothing can be told, and the run reads
as recorded.
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

OWNER_FILE = "owner.json"
#: What a run whose process is gone says it came to.
GONE_SUMMARY = (
    "its process ended without recording how (killed or crashed); "
    "pcagent runs resume continues it from its last step"
)


@dataclass(frozen=True)
class RunOwner:
    host: str
    pid: int
    #: The process's start time, in clock ticks since boot (field 22 of /proc/PID/stat).
    started: str

    @classmethod
    def this_process(cls) -> RunOwner:
        return cls(socket.gethostname(), os.getpid(), _start_time(os.getpid()))

    def is_gone(self) -> bool:
        """Whether this process has ended: judged only on its own host, and only where its
        start time was known."""
        if self.host != socket.gethostname() or not self.started:
            return False
        return _start_time(self.pid) != self.started


def _start_time(pid: int) -> str:
    """The start time of process ``pid``; "" when there is none (or no /proc to tell)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return ""
    # The command name (field 2) may hold spaces and parentheses: count after its last ")".
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else ""


def claim(run_dir: Path) -> None:
    """Record this process as the one carrying on the run whose files are in ``run_dir``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    partial = run_dir / f".{OWNER_FILE}.{os.getpid()}"
    partial.write_text(json.dumps(asdict(RunOwner.this_process())), encoding="utf-8")
    os.replace(partial, run_dir / OWNER_FILE)


def owner_gone(run_dir: Path) -> bool:
    """Whether the process recorded as carrying on the run has ended (False where no owner is
    recorded, as for runs recorded before owners were, or it cannot be read)."""
    try:
        owner = RunOwner(**json.loads((run_dir / OWNER_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return False
    return owner.is_gone()
