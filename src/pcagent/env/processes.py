"""Starting and ending the processes of one sandbox, and only those.

Every process a sandbox starts gets a marker variable (``PCAGENT_SANDBOX_ID``) in its environment
and its own session (process group). Daemons activated over D-Bus (the AT-SPI registry, dconf,
xfconfd...) are re-parented to init, so process groups alone miss them; they inherit the marker from
the bus daemon that spawned them, which is how :func:`find_marked_processes` still finds them.
Chromium rewrites its own environment block, so it is found by its ``--user-data-dir`` instead.

A sandbox whose session runs as another user (see :mod:`pcagent.env.ownership`) starts its
processes through :func:`spawn` with ``run_as``; finding and ending them works the same, because
only root starts such a sandbox and root may read and signal every process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pcagent.errors import DesktopError, MissingProgramError

MARKER_VARIABLE = "PCAGENT_SANDBOX_ID"

#: ``(uid, gid)`` a process runs as.
RunAs = tuple[int, int]


def user_options(run_as: RunAs | None) -> dict[str, Any]:
    """Keyword arguments for :class:`subprocess.Popen` (or ``subprocess.run``) that start the
    program as ``run_as`` with no supplementary groups; {} for "as this process".

    The change of user happens in the child between fork and exec, so the program never holds
    root's rights, and the environment passed is kept as it is (it is the sandbox's). Raises
    :class:`DesktopError` when this process may not change to that user (a sandbox started by
    root, driven by another user).
    """
    if run_as is None or run_as == (os.geteuid(), os.getegid()):
        return {}
    if os.geteuid() != 0:
        raise DesktopError(
            f"this sandbox runs its applications as uid {run_as[0]}, and only root can start "
            "programs as that user; drive it as root, or start a sandbox of your own"
        )
    uid, gid = run_as
    return {"user": uid, "group": gid, "extra_groups": []}


def spawn(
    argv: Sequence[str],
    env: Mapping[str, str],
    log_path: Path | None = None,
    cwd: Path | None = None,
    run_as: RunAs | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` detached in its own session, output appended to ``log_path``, as the user
    ``run_as`` (``(uid, gid)``; None: as this process).

    Detached so that a sandbox brought up by one CLI call survives that call and can be stopped by a
    later one. Raises :class:`MissingProgramError` when the program is not installed, and
    :class:`DesktopError` when this process cannot start programs as ``run_as``.
    """
    options = user_options(run_as)
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115 - handed to child
    try:
        return subprocess.Popen(
            list(argv),
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            start_new_session=True,
            **options,
        )
    except FileNotFoundError as error:
        raise MissingProgramError(
            f"'{argv[0]}' is not installed. Run `bash scripts/install-system.sh` (or `make setup`)."
        ) from error
    finally:
        if log_path:
            log.close()  # type: ignore[union-attr]


def is_alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in (b"Z", b"X")


def _read_proc(pid: int, name: str) -> bytes:
    try:
        with open(f"/proc/{pid}/{name}", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _all_pids() -> Iterable[int]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield int(entry)


def find_marked_processes(marker: str, profile_dirs: Iterable[Path] = ()) -> list[int]:
    """PIDs of processes carrying this sandbox's marker, or using one of its browser profiles."""
    needle = f"{MARKER_VARIABLE}={marker}".encode()
    profile_needles = [f"--user-data-dir={path}".encode() for path in profile_dirs]
    own = os.getpid()
    found = []
    for pid in _all_pids():
        if pid == own:
            continue
        environ = _read_proc(pid, "environ")
        if needle in environ.split(b"\0"):
            found.append(pid)
            continue
        if profile_needles:
            cmdline = _read_proc(pid, "cmdline")
            if any(p in cmdline for p in profile_needles):
                found.append(pid)
    return found


def _signal(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def _signal_groups(pgids: Iterable[int], signum: int) -> None:
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)


def _reap(pids: Iterable[int]) -> None:
    """Collect exit statuses of our own children so that they do not linger as zombies."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


def terminate(
    pids: Sequence[int],
    marker: str | None = None,
    profile_dirs: Sequence[Path] = (),
    grace_seconds: float = 3.0,
) -> list[int]:
    """End the given processes, their process groups, and every process carrying ``marker``.

    SIGTERM first, SIGKILL for whatever is still alive after ``grace_seconds``. Returns the PIDs that
    were signalled. Processes are never matched by name, so nothing outside the sandbox is touched.
    """

    def targets() -> set[int]:
        found = {pid for pid in pids if is_alive(pid)}
        if marker:
            found.update(find_marked_processes(marker, profile_dirs))
        return found

    signalled = targets()
    _signal_groups(pids, signal.SIGTERM)
    _signal(signalled, signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        _reap(signalled)
        if not any(is_alive(pid) for pid in signalled):
            break
        time.sleep(0.05)
    leftover = targets()
    if leftover:
        _signal_groups(pids, signal.SIGKILL)
        _signal(leftover, signal.SIGKILL)
        signalled |= leftover
        deadline = time.monotonic() + grace_seconds
        while time.monotonic() < deadline and any(is_alive(pid) for pid in leftover):
            _reap(leftover)
            time.sleep(0.05)
    _reap(signalled)
    return sorted(signalled)


def require_programs(programs: Iterable[str]) -> None:
    """Fail early, with the fix, when a program the sandbox needs is missing."""
    from shutil import which

    missing = [
        program for program in programs if which(program) is None and not Path(program).exists()
    ]
    if missing:
        raise MissingProgramError(
            f"Missing programs: {', '.join(missing)}. Run `bash scripts/install-system.sh`."
        )
