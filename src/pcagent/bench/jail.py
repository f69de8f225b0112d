"""Running code the agent wrote, for a checker, without giving it anything of the host.

Two checkers run a Python file the agent left in the sandbox's HOME. That code is untrusted: it
must not run as the invoking user (root, on the benchmark's machines), see its environment
(secrets), change or read the machine's files, reach the network or a desktop's sockets, outlive
the check or exhaust the machine. So it runs:

- as the unprivileged user :data:`JAIL_USER` (created by ``scripts/install-system.sh``) when
  pcagent runs as root; without root, as the current user inside a user namespace with every
  capability dropped (a machine that forbids user namespaces gets a :class:`JailError`: the
  code is refused, never run outside the jail);
- in new network, PID and mount namespaces (``unshare``): no network, not even loopback, and
  every process it starts dies when it ends; its process group is killed at the end too;
- in a root of its own that shows only what Python needs of the host (:data:`SHOWN`: ``/usr``
  and the library links, the loader's cache), read-only, entered with ``pivot_root`` so the
  host's tree is gone from its mount namespace: no ``/run``, ``/var``, ``/home``, ``/etc`` and no
  socket with a path of any other program (X displays, buses, system services), nothing else
  world-readable. Its copy of the file lies in ``/tmp/code``, its HOME and working folder, on a
  small private ``/tmp`` that vanishes with it;
- with an empty environment (PATH, HOME, LANG only), no input, setuid programs disabled;
- under CPU time, address space, file size (its output too) and process count limits, and the
  checker's wall-clock time limit.

The namespaces are entered by ``unshare`` (util-linux); a short Python stage running as root of
those namespaces (:data:`_SETUP`) prepares the file system and limits, then ``setpriv`` drops the
privileges and starts the program.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from pcagent.bench.checker_types import CheckerError

#: The system user that runs checked code when pcagent runs as root (see the install script).
JAIL_USER = "pcagent-run"
#: The interpreter the jailed code runs with: the system's, readable by every user.
PYTHON = "/usr/bin/python3"
#: Where the program's copy lies inside the jail (its HOME and working folder).
CODE_FOLDER = "/tmp/code"
#: How much of the program's output is kept (its file size limit stops it writing more).
OUTPUT_LIMIT = 1 << 20
#: The setup stage's exit status when it could not prepare the jail.
SETUP_FAILED = 125
#: What the jail shows of the host's files: the interpreter, programs and libraries, and the
#: dynamic loader's cache (without it the loader misses the multiarch library folders).
SHOWN = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/localtime",
)
#: pivot_root's system call number by machine.
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}


class JailError(CheckerError):
    """The jail could not be set up (a missing user, program or kernel feature); nothing was run.

    A :class:`~pcagent.bench.checker_types.CheckerError`, so the evaluator reports it as a checker
    that cannot run instead of turning it into a failed check."""


@dataclass(frozen=True)
class Limits:
    """Per-run resource limits (seconds, bytes, processes)."""

    cpu_seconds: int = 20
    memory_bytes: int = 1 << 30
    file_bytes: int = 16 << 20
    processes: int = 64
    tmp_bytes: int = 64 << 20


# Runs as root of the new namespaces (real root, or the invoking user mapped to root in a user
# namespace), before anything of the program. argv: the JSON plan, then the command to run.
# Stdlib only, and isolated (-I -S): it must not import what the invoking environment offers.
_SETUP = r"""
import ctypes, json, os, resource, sys

plan = json.loads(sys.argv[1])
command = sys.argv[2:]
libc = ctypes.CDLL(None, use_errno=True)


def fail(message):
    sys.stderr.write("pcagent-jail: " + message + "\n")
    sys.exit(125)


class MountAttr(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in ("set", "clear", "propagation", "userns")]


# Mounts are changed below: only ever in a mount namespace of its own, never the caller's.
if os.getpid() != 1 or os.readlink("/proc/self/ns/mnt") == plan["caller_mounts"]:
    fail("not in namespaces of its own; the file system was left alone")

# The checker resolved the path inside HOME; a link swapped in since is not followed. A file
# larger than the file size limit is cut there (and then fails as a program).
try:
    with open(os.open(plan["source"], os.O_RDONLY | os.O_NOFOLLOW), "rb") as source:
        size = os.fstat(source.fileno()).st_size
        code = source.read(min(size, plan["limits"]["file_bytes"]))
except OSError as error:
    fail(f"cannot read {plan['source']}: {error.strerror}")

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC = 0x1, 0x2, 0x4, 0x8, 0x1000, 0x4000


def mount(source, target, kind, flags, options=""):
    if libc.mount(
        source.encode() if source else None,
        target.encode(),
        kind.encode() if kind else None,
        flags,
        options.encode() if options else None,
    ) != 0:
        fail(f"cannot mount {target}: {os.strerror(ctypes.get_errno())}")


# A new root on an empty file system, showing only what Python needs of the host (the
# interpreter and its libraries, the loader's cache): no /run, /var, /home, /etc, no socket of
# any other program, nothing else world-readable. Built on /tmp (private to this namespace).
new = "/tmp"
mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
for path, kind, link in plan["show"]:
    inside = new + path
    os.makedirs(os.path.dirname(inside), exist_ok=True)
    if kind == "link":
        os.symlink(link, inside)
        continue
    if kind == "dir":
        os.mkdir(inside)
    else:
        open(inside, "w").close()
    mount(path, inside, None, MS_BIND | MS_REC)
os.makedirs(new + "/dev/shm")
for device in ("null", "zero", "full", "random", "urandom"):
    open(new + "/dev/" + device, "w").close()
    mount("/dev/" + device, new + "/dev/" + device, None, MS_BIND)
for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                     ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
    os.symlink(target, new + "/dev/" + name)
os.mkdir(new + "/proc")
mount("/proc", new + "/proc", None, MS_BIND | MS_REC)  # this PID namespace's, from unshare
os.mkdir(new + "/tmp")

# pivot_root(".", ".") then detaching the old root: the host's tree is gone from this namespace.
os.chdir(new)
if libc.syscall(plan["pivot_root"], b".", b".") != 0:
    fail(f"cannot change the root: {os.strerror(ctypes.get_errno())}")
if libc.umount2(b".", 2) != 0:
    fail(f"cannot detach the host's root: {os.strerror(ctypes.get_errno())}")
os.chdir("/")

# Everything read-only and without setuid, in one call over the whole tree (Linux 5.12+):
# mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, {MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID}).
attr = MountAttr(0x1 | 0x2, 0, 0, 0)
if libc.syscall(442, -100, b"/", 0x8000, ctypes.byref(attr), ctypes.sizeof(attr)) != 0:
    error = ctypes.get_errno()
    hint = " (needs Linux 5.12 or newer)" if error == 38 else ""
    fail(f"cannot make the file system read-only: {os.strerror(error)}{hint}")

# Fresh file systems: the writable /tmp and /dev/shm, and read-only empty ones over the places
# with other programs' files (the sandbox's folder, the caller's home) where they lie in what
# is shown. Parents first.
for place, writable in plan["cover"]:
    if not os.path.isdir(place):
        continue
    options = f"size={plan['tmp_bytes']},mode=1777" if writable else "size=4k,mode=0555"
    mount("tmpfs", place, "tmpfs", MS_NOSUID | MS_NODEV | (0 if writable else MS_RDONLY), options)

folder = plan["folder"]
os.mkdir(folder, 0o700)
with open(os.path.join(folder, plan["name"]), "wb") as copy:
    copy.write(code)
if plan["uid"] is not None:
    os.chown(folder, plan["uid"], plan["gid"])
    os.chown(os.path.join(folder, plan["name"]), plan["uid"], plan["gid"])
os.chdir(folder)

limits = plan["limits"]
for kind, value in (
    (resource.RLIMIT_CPU, limits["cpu_seconds"]),
    (resource.RLIMIT_AS, limits["memory_bytes"]),
    (resource.RLIMIT_FSIZE, limits["file_bytes"]),
    (resource.RLIMIT_NPROC, limits["processes"]),
):
    resource.setrlimit(kind, (value, value))

sys.stderr.write(plan["ready"] + "\n")
sys.stderr.flush()
os.execv(command[0], command)
"""


def _jail_user(name: str) -> tuple[int, int] | None:
    """(uid, gid) to drop to, or None when pcagent is not root (already unprivileged)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise JailError(
            f"the user {name!r} that runs checked code does not exist; run "
            "`bash scripts/install-system.sh` (as root) to create it"
        ) from None
    return entry.pw_uid, entry.pw_gid


def _program(name: str) -> str:
    found = shutil.which(name, path=os.environ.get("PATH", os.defpath) + ":/usr/bin:/bin")
    if found is None:
        raise JailError(f"{name} (util-linux) is missing; run `bash scripts/install-system.sh`")
    return found


def _covered_places(hide: Sequence[Path]) -> list[tuple[str, bool]]:
    """(folder, writable) to cover with an empty file system inside the jail, parents first:
    the jail's own /tmp and /dev/shm, and the places that hold other programs' files, where
    they lie inside what the jail shows (:func:`_shown`)."""
    places = {"/tmp": True, "/dev/shm": True}
    for folder in hide:
        if os.path.realpath(folder) != "/":
            places.setdefault(os.path.realpath(folder), False)
    places.setdefault(os.path.realpath(tempfile.gettempdir()), False)
    homes = {os.environ.get("HOME", "/")}
    with contextlib.suppress(KeyError):  # a user without a passwd entry has only $HOME
        homes.add(pwd.getpwuid(os.getuid()).pw_dir)
    for home in homes:
        if os.path.realpath(home) != "/":
            places.setdefault(os.path.realpath(home), False)
    return sorted(places.items(), key=lambda item: (item[0].count("/"), item[0]))


def _shown() -> list[tuple[str, str, str]]:
    """(path, kind, link target) of what the jail shows of the host: the folders of programs
    and libraries (links, as merged-/usr systems have them, stay links) and the loader's cache.
    Nothing else of the host is visible inside."""
    shown = []
    for path in SHOWN:
        if os.path.islink(path):
            shown.append((path, "link", os.readlink(path)))
        elif os.path.isdir(path):
            shown.append((path, "dir", ""))
        elif os.path.isfile(path):
            shown.append((path, "file", ""))
    return shown


def _pivot_root_call() -> int:
    """The number of the pivot_root system call here (the C library has no wrapper for it)."""
    number = _PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise JailError(
            f"the jail does not know pivot_root on {platform.machine()}; checked code is not run"
        )
    return number


def _command(user: tuple[int, int] | None) -> list[str]:
    """unshare into the new namespaces, then the setup stage (:data:`_SETUP`)."""
    if not Path(PYTHON).is_file():
        raise JailError(f"{PYTHON} is missing; run `bash scripts/install-system.sh`")
    _check_inside(PYTHON)
    namespaces = [_program("unshare"), "--net", "--pid", "--fork", "--kill-child", "--mount-proc"]
    if user is None:
        # Without root, a user namespace grants the right to make the others.
        namespaces[1:1] = ["--user", "--map-root-user"]
    return [*namespaces, PYTHON, "-I", "-S", "-c", _SETUP]


def run_python_jailed(
    source: Path,
    arguments: Sequence[str],
    *,
    timeout_s: float,
    limits: Limits | None = None,
    user: str | None = None,
    hide: Sequence[Path] = (),
) -> subprocess.CompletedProcess[str] | None:
    """Run ``python3 -I COPY ARGUMENTS`` in the jail, where COPY is a copy of ``source`` in
    :data:`CODE_FOLDER`; an argument equal to ``str(source)`` is replaced by the copy's path.

    Returns its exit status and output (each cut to :data:`OUTPUT_LIMIT`), or None when it
    outlived ``timeout_s`` (it was killed, with everything it started). ``user`` is the account
    it runs as when pcagent is root (:data:`JAIL_USER` when None). ``hide`` names more folders
    to cover, such as the sandbox's own (its sockets), wherever it was configured. Raises :class:`JailError` when the jail cannot be set up."""
    uid_gid = _jail_user(user or JAIL_USER)
    limits = limits or Limits()
    copy = f"{CODE_FOLDER}/{source.name}"
    ready = f"pcagent-jail-ready-{secrets.token_hex(8)}"
    plan = {
        "source": str(source),
        "name": source.name,
        "folder": CODE_FOLDER,
        "cover": _covered_places(hide),
        "show": _shown(),
        "pivot_root": _pivot_root_call(),
        "tmp_bytes": limits.tmp_bytes,
        "uid": uid_gid[0] if uid_gid else None,
        "gid": uid_gid[1] if uid_gid else None,
        "limits": asdict(limits),
        "ready": ready,
        "caller_mounts": os.readlink("/proc/self/ns/mnt"),
    }
    drop = _drop(uid_gid)
    program = [PYTHON, "-I", *[copy if arg == str(source) else arg for arg in arguments]]
    argv = [*_command(uid_gid), json.dumps(plan), *drop, "--", *program]
    environment = {"PATH": "/usr/bin:/bin", "HOME": CODE_FOLDER, "LANG": "C.UTF-8"}
    # Output goes to files, not pipes: the file size limit then bounds it too.
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            argv,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            start_new_session=True,
        )
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return None
        _kill_group(process)  # anything it left in its group
        out, err = _read(stdout), _read(stderr)
    first, _, rest = err.partition("\n")
    if first != ready:
        problem = err.strip().splitlines()[-1] if err.strip() else f"exit {process.returncode}"
        raise JailError(f"the jail for checked code could not start: {problem}")
    return subprocess.CompletedProcess(program, process.returncode, out, rest)


def _check_inside(program: str) -> None:
    """A program the jail starts must lie, links followed, in what it shows of the host."""
    real = os.path.realpath(program)
    if not any(real == place or real.startswith(place + "/") for place in SHOWN):
        raise JailError(
            f"{program} is {real}, outside what the jail shows ({', '.join(SHOWN[:3])}...); "
            "checked code is not run"
        )


def _drop(user: tuple[int, int] | None) -> list[str]:
    """setpriv's privilege drop: no capability survives, nothing can gain one, another user."""
    setpriv = _program("setpriv")
    _check_inside(setpriv)
    drop = [setpriv, "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"]
    if user is not None:
        drop += [f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups"]
    return drop


def _read(output: IO[bytes]) -> str:
    output.seek(0)
    return output.read(OUTPUT_LIMIT).decode("utf-8", errors="replace")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    # A group already gone has nothing left to end.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
