"""Running code the agent wrote, for a checker, without giving it anything of the host.

Two checkers run a Python file the agent left in the sandbox's HOME. That code is untrusted: it
must not run as the invoking user (root, on the benchmark's machines), see its environment
(secrets), touch files outside its own folder, reach the network, outlive the check or exhaust
the machine. So it runs:

- as the unprivileged user :data:`JAIL_USER` (created by ``scripts/install-system.sh``) when
  pcagent runs as root; as the current, already unprivileged user otherwise;
- on a copy of the file in a fresh folder of its own (its HOME and working folder), so the
  sandbox's files cannot be changed through it;
- with an empty environment (PATH, HOME, LANG only);
- in new network, PID and mount namespaces (``unshare``): no network, and every process it
  starts dies with it; plus its own process group, killed at the end;
- under CPU time, address space, file size and process count limits, and the checker's
  wall-clock time limit.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pcagent.errors import BenchError

JAIL_USER = "pcagent-run"
#: The interpreter the jailed code runs with (the system's, readable by every user).
PYTHON = "/usr/bin/python3"


class JailError(BenchError):
    """The jail could not be set up (a missing user or program); nothing was run."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 20
    memory_bytes: int = 1 << 30
    file_bytes: int = 16 << 20
    processes: int = 64


def _set_limits(limits: Limits) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))


def _jail_user() -> tuple[int, int] | None:
    """(uid, gid) to drop to, or None when pcagent is not root (already unprivileged)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(JAIL_USER)
    except KeyError:
        raise JailError(
            f"the user {JAIL_USER!r} that runs checked code does not exist; run "
            "`bash scripts/install-system.sh` (as root) to create it"
        ) from None
    return entry.pw_uid, entry.pw_gid


def _wrapper(user: tuple[int, int] | None) -> list[str]:
    for program in ("unshare", "setpriv"):
        if shutil.which(program) is None:
            raise JailError(
                f"{program} (util-linux) is missing; run `bash scripts/install-system.sh`"
            )
    if user is None:
        # Without root, a user namespace grants the right to make the others.
        return ["unshare", "--user", "--map-root-user", "--net", "--pid", "--fork",
                "--kill-child", "--mount-proc"]  # fmt: skip
    uid, gid = user
    return [
        "unshare", "--net", "--pid", "--fork", "--kill-child", "--mount-proc",
        "setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
    ]  # fmt: skip


def run_python_jailed(
    source: Path,
    arguments: Sequence[str],
    *,
    timeout_s: float,
    limits: Limits | None = None,
) -> subprocess.CompletedProcess[str] | None:
    """Run ``python3 -I COPY ARGUMENTS`` in the jail, where COPY is a copy of ``source``; an
    argument equal to ``str(source)`` is replaced by the copy's path. None when it outlived
    ``timeout_s`` (it was killed, with everything it started). Raises :class:`JailError` when the
    jail cannot be set up."""
    user = _jail_user()
    limits = limits or Limits()
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-"))
    try:
        copy = folder / source.name
        shutil.copyfile(source, copy)
        if user is not None:
            os.chown(folder, *user)
            os.chown(copy, *user)
        folder.chmod(0o700)
        argv = [
            *_wrapper(user),
            PYTHON, "-I",
            *[str(copy) if argument == str(source) else argument for argument in arguments],
        ]  # fmt: skip
        environment = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8"}
        process = subprocess.Popen(
            argv,
            cwd=folder,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=lambda: _set_limits(limits),
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return None
        _kill_group(process)  # anything it left in its group
        if process.returncode != 0 and "unshare: " in stderr and not stdout:
            raise JailError(f"the jail could not start: {stderr.strip().splitlines()[-1]}")
        return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _kill_group(process: subprocess.Popen[str]) -> None:
    # A group already gone has nothing left to end.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
