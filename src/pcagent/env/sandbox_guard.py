"""A watchdog that closes a sandbox when the process that owns it dies without closing it.

A sandbox's processes (Xvfb, the session, the applications) run in sessions of their own, so
they outlive an owner that is killed outright (SIGKILL, an out-of-memory kill, a cluster worker
taken away): nothing in the owner runs any more to end them. The guard is a small separate
process, started in a session of its own next to the sandbox. It watches the owner's PID (with
the owner's start time, so a reused PID is not taken for the owner) and the sandbox's state
file: when the owner is gone while the state file is still there, it loads the sandbox from that
file and closes it; when the state file goes (a normal close removes the sandbox's folder), the
guard simply ends.

This module is what the sandbox and supervisors import: starting and ending a guard and finding
the guards of an owner. The guard process itself runs :mod:`pcagent.env.sandbox_watch` (``python
-m pcagent.env.sandbox_watch OWNER_PID OWNER_START STATE_FILE``), which closes the sandbox with
the desktop's own code; kept apart so that the desktop, which starts its guard, and the guard,
which closes a desktop, do not import each other. It is started by :func:`guard_sandbox` through
a launcher, so that it is nobody's child: a supervisor that kills a dead process's children, as
Ray does, would otherwise kill the guard too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pcagent.env.processes import MARKER_VARIABLE

#: The first argument that makes the guard's module the launcher that starts the guard.
DETACH = "--detach"
#: The module the guard process runs, as its command line names it.
WATCH_MODULE = "pcagent.env.sandbox_watch"


def process_start_time(pid: int) -> int | None:
    """The start time of ``pid`` in clock ticks since boot (``/proc/PID/stat`` field 22), or
    None when there is no such process (or it is a zombie: it ran its last instruction)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
    fields = stat[stat.rindex(")") + 2 :].split()
    if fields[0] == "Z":
        return None
    return int(fields[19])


def guard_sandbox(state_file: Path, owner_pid: int | None = None) -> int:
    """Start the guard of the sandbox whose state file is ``state_file``, owned by
    ``owner_pid`` (default: this process); returns the guard's PID.

    The guard is started through a short-lived launcher, so that it is no child of the owner:
    some supervisors (Ray among them) kill a dead worker's children, which would take the guard
    with it before it could close anything. It ends by itself once the sandbox is closed; the
    owner may also end it with :func:`end_guard` (it holds nothing).
    """
    owner = owner_pid or os.getpid()
    started = process_start_time(owner)
    if started is None:
        raise ProcessLookupError(f"no process {owner} to guard a sandbox for")
    env = {key: value for key, value in os.environ.items() if key != MARKER_VARIABLE}
    launcher = subprocess.run(
        [sys.executable, "-m", WATCH_MODULE, DETACH, str(owner), str(started), str(state_file)],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(launcher.stdout.strip())


def end_guard(pid: int, owner_pid: int | None = None) -> None:
    """End the guard ``pid`` of ``owner_pid``'s sandboxes (default: this process's), and wait
    for it to go; a PID that is no longer such a guard is left alone."""
    if pid not in guards_of(owner_pid or os.getpid()):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    while process_start_time(pid) is not None and time.monotonic() < deadline:
        time.sleep(0.05)


def guards_of(owner_pid: int) -> dict[int, Path]:
    """The running guards of ``owner_pid``'s sandboxes: their PIDs and the state files they
    watch (how a supervisor finds the desktops of a worker it is about to kill)."""
    found = {}
    module, owner = WATCH_MODULE.encode(), str(owner_pid).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[:-1]
        except OSError:
            continue
        if len(argv) == 6 and argv[1:4] == [b"-m", module, owner]:
            found[int(entry)] = Path(os.fsdecode(argv[5]))
    return found


def sandbox_id_of(state_file: Path) -> str | None:
    """The marker of the sandbox a state file describes (what its processes carry); None when
    the file is gone or half-written (the sandbox is closing or starting)."""
    from pcagent.env.sandbox_state import SandboxState

    try:
        return SandboxState.model_validate_json(state_file.read_text()).sandbox_id
    except (OSError, ValueError):
        return None
