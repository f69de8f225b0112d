"""A watchdog that closes a sandbox when the process that owns it dies without closing it.

A sandbox's processes (Xvfb, the session, the applications) run in sessions of their own, so
they outlive an owner that is killed outright (SIGKILL, an out-of-memory kill, a cluster worker
taken away): nothing in the owner runs any more to end them. The guard is a small separate
process, started in a session of its own next to the sandbox. It watches the owner's PID (with
the owner's start time, so a reused PID is not taken for the owner) and the sandbox's state
file: when the owner is gone while the state file is still there, it loads the sandbox from that
file and closes it; when the state file goes (a normal close removes the sandbox's folder), the
guard simply ends.

Run as ``python -m pcagent.env.sandbox_guard OWNER_PID OWNER_START STATE_FILE``; started by
:func:`guard_sandbox` (through a launcher, so that it is nobody's child: a supervisor that kills
a dead process's children, as Ray does, would otherwise kill the guard too).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from pcagent.env.processes import MARKER_VARIABLE

#: How often, in seconds, the guard looks at the owner and the state file.
POLL_SECONDS = 0.5
_DETACH = "--detach"
#: This module's name, also when it runs as ``__main__``.
_MODULE = "pcagent.env.sandbox_guard"


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
        [sys.executable, "-m", _MODULE, _DETACH, str(owner), str(started), str(state_file)],
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
    module, owner = _MODULE.encode(), str(owner_pid).encode()
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


def watch(owner_pid: int, owner_start: int, state_file: Path) -> bool:
    """Wait until the sandbox is closed or its owner dies; in the second case close it.
    Returns whether the guard closed the sandbox."""
    while state_file.exists():
        if process_start_time(owner_pid) != owner_start:
            _close(state_file)
            return True
        time.sleep(POLL_SECONDS)
    return False


def _close(state_file: Path) -> None:
    """Close the sandbox through its own code; when that cannot even connect (its X server died
    with the owner), end its processes by their marker and remove its folder."""
    from pcagent.env import processes
    from pcagent.env.sandbox import SandboxDesktop
    from pcagent.env.sandbox_state import SandboxState

    try:
        state = SandboxState.model_validate_json(state_file.read_text())
    except (OSError, ValueError):
        return  # removed meanwhile: closed by someone else
    try:
        SandboxDesktop.load(state_file).close()
        return
    except Exception:  # whatever failed (the X server already gone...), the fallback runs
        pass
    if not state.attached:
        pids = [pid for group in state.app_pids.values() for pid in group]
        processes.terminate(
            [*pids, *reversed(state.infrastructure_pids)],
            marker=state.sandbox_id,
            profile_dirs=state.profile_dirs,
        )
        if not state.keep_files:
            shutil.rmtree(state.root, ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv[:1] == [_DETACH]:
        # The launcher: start the guard in a session of its own, say its PID, and end, so that
        # the guard is re-parented away from the owner.
        guard = subprocess.Popen(
            [sys.executable, "-m", _MODULE, *argv[1:]],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        print(guard.pid, flush=True)
        return 0
    if len(argv) != 3:
        print("usage: python -m pcagent.env.sandbox_guard OWNER_PID OWNER_START STATE_FILE")
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        watch(int(argv[0]), int(argv[1]), Path(argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
