"""The guard process of a sandbox: watches the owner and closes the sandbox when it dies.

Run as ``python -m pcagent.env.sandbox_watch OWNER_PID OWNER_START STATE_FILE``, started by
:func:`pcagent.env.sandbox_guard.guard_sandbox` (see that module for why a guard exists). It
imports the desktop's code only when it has a sandbox to close, so a guard that merely waits stays
small.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pcagent.env.sandbox_guard import DETACH, WATCH_MODULE, process_start_time

#: How often, in seconds, the guard looks at the owner and the state file.
POLL_SECONDS = 0.5


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
    """The launcher (with ``--detach`` first) or the guard itself; returns the exit status."""
    if argv[:1] == [DETACH]:
        # The launcher: start the guard in a session of its own, say its PID, and end, so that
        # the guard is re-parented away from the owner.
        guard = subprocess.Popen(
            [sys.executable, "-m", WATCH_MODULE, *argv[1:]],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        print(guard.pid, flush=True)
        return 0
    if len(argv) != 3:
        print("usage: python -m pcagent.env.sandbox_watch OWNER_PID OWNER_START STATE_FILE")
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        watch(int(argv[0]), int(argv[1]), Path(argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
