"""Code an agent wrote runs in the jail: it cannot write outside its folder, read the caller's
environment, reach the network or a desktop's sockets, leave a process behind or run forever.
Real processes, as root (the jail user) and without root (a user namespace)."""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.bench import jail
from pcagent.bench.checker_types import CheckContext, CheckerError
from pcagent.bench.checkers import get_checker
from pcagent.bench.jail import JAIL_USER, JailError, run_python_jailed

AS_ROOT = os.geteuid() == 0


def jailed(tmp_path: Path, code: str, timeout_s: float = 10.0) -> tuple[str, str]:
    source = tmp_path / "home" / "agent.py"
    source.parent.mkdir(exist_ok=True)
    source.write_text(textwrap.dedent(code))
    completed = run_python_jailed(source, [str(source)], timeout_s=timeout_s)
    assert completed is not None, "timed out"
    return completed.stdout, completed.stderr


def test_ordinary_code_runs_and_prints(tmp_path: Path) -> None:
    out, err = jailed(tmp_path, "import os\nprint(sum(range(10)), os.getcwd())\n")
    assert out.split() == ["45", "/tmp/code"], err


@pytest.fixture
def probe_name() -> Iterator[str]:
    """A file name for write probes; whatever a failing jail let land is removed afterwards."""
    name = f"pcagent-jail-probe-{secrets.token_hex(4)}"
    yield name
    for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/run/lock", "/root"):
        (Path(folder) / name).unlink(missing_ok=True)


def test_writes_outside_its_own_folder_do_not_land(tmp_path: Path, probe_name: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    shared_tmp = Path(tempfile.gettempdir()) / probe_name
    targets = [
        home / "planted.txt",  # the sandbox's HOME
        shared_tmp,  # /tmp: the jail has a private one that vanishes with it
        Path("/var/tmp") / probe_name,
        tmp_path / "outside.txt",
        Path("/root") / probe_name,
    ]
    # a folder anyone may write to that the jail does not cover: only the read-only mount stops it
    if Path("/run/lock").is_dir():
        targets.append(Path("/run/lock") / probe_name)
    code = f"""
        for target in {[str(t) for t in [*targets, home / "notes.txt"]]!r}:
            try:
                with open(target, "w") as file:
                    file.write("x")
                print("WROTE", target)
            except OSError as error:
                print("refused", target, error.strerror)
    """
    out, _ = jailed(tmp_path, code)
    assert [target for target in targets if target.exists()] == [], out
    assert (home / "notes.txt").read_text() == "mine"
    # only the jail's private /tmp took a write
    written = [line.split()[1] for line in out.splitlines() if line.startswith("WROTE")]
    assert written in ([], [str(shared_tmp)]), out


def test_the_environment_is_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PCAGENT_TEST_SECRET", "hunter2")
    out, _ = jailed(
        tmp_path,
        "import os; print(sorted(os.environ)); print(os.environ.get('PCAGENT_TEST_SECRET'))\n",
    )
    assert "hunter2" not in out
    assert out.splitlines() == ["['HOME', 'LANG', 'PATH']", "None"]


def test_it_runs_without_privileges(tmp_path: Path) -> None:
    code = """
        import os
        status = dict(line.split(":", 1) for line in open("/proc/self/status"))
        print(os.getuid(), status["CapEff"].strip(), status["NoNewPrivs"].strip())
    """
    out, _ = jailed(tmp_path, code)
    uid, capabilities, no_new_privileges = out.split()
    if AS_ROOT:
        assert int(uid) == pwd.getpwnam(JAIL_USER).pw_uid
    assert int(capabilities, 16) == 0 and no_new_privileges == "1"


def test_a_background_child_dies_with_the_check(tmp_path: Path) -> None:
    marker = f"pcagent-jail-{secrets.token_hex(4)}"
    code = f"""
        import subprocess
        child = subprocess.Popen(["sleep", "60", "{marker}"], start_new_session=True)
        print(child.pid)
    """
    # sleep takes a second argument happily; it names this test's child among all processes
    out, _ = jailed(tmp_path, code)
    assert out.strip().isdigit()  # a pid of the jail's own PID namespace
    deadline = time.monotonic() + 5
    while _processes_named(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_named(marker) == []


def test_an_endless_loop_is_stopped(tmp_path: Path) -> None:
    source = tmp_path / "loop.py"
    source.write_text("while True:\n    pass\n")
    started = time.monotonic()
    assert run_python_jailed(source, [str(source)], timeout_s=1.0) is None
    assert time.monotonic() - started < 10


@pytest.fixture
def listener() -> Iterator[int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def test_the_network_is_unreachable(tmp_path: Path, listener: int) -> None:
    code = f"""
        import socket
        try:
            socket.create_connection(("127.0.0.1", {listener}), timeout=2)
            print("CONNECTED")
        except OSError as error:
            print("refused", type(error).__name__)
    """
    out, _ = jailed(tmp_path, code)
    assert "CONNECTED" not in out and "refused" in out


@pytest.fixture
def desktop_socket() -> Iterator[Path]:
    """A Unix socket anyone may connect to, where a sandbox keeps its X display and buses."""
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-socket-"))
    folder.chmod(0o755)
    path = folder / "bus"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    path.chmod(0o777)
    server.listen()
    try:
        yield path
    finally:
        server.close()
        shutil.rmtree(folder)


def test_desktop_sockets_are_out_of_reach(tmp_path: Path, desktop_socket: Path) -> None:
    code = f"""
        import socket
        try:
            socket.socket(socket.AF_UNIX).connect({str(desktop_socket)!r})
            print("CONNECTED")
        except OSError as error:
            print("refused", type(error).__name__)
    """
    out, _ = jailed(tmp_path, code)
    assert "CONNECTED" not in out and "refused" in out


@pytest.fixture
def host_socket() -> Iterator[Path]:
    """A Unix socket anyone may connect to, under /run, where the host's services keep theirs
    (outside every temporary folder)."""
    if not AS_ROOT:
        pytest.skip("only root may make a folder in /run")
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-host-", dir="/run"))
    folder.chmod(0o755)
    path = folder / "service.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    path.chmod(0o777)
    server.listen()
    try:
        yield path
    finally:
        server.close()
        shutil.rmtree(folder)


def test_unix_sockets_at_host_paths_are_out_of_reach(tmp_path: Path, host_socket: Path) -> None:
    code = f"""
        import socket
        try:
            socket.socket(socket.AF_UNIX).connect({str(host_socket)!r})
            print("CONNECTED")
        except OSError as error:
            print("refused", type(error).__name__)
    """
    out, _ = jailed(tmp_path, code)
    assert "CONNECTED" not in out and "refused" in out, out


@pytest.fixture
def host_file() -> Iterator[Path]:
    """A file anyone may read, outside HOME and outside what Python needs."""
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-host-", dir="/run" if AS_ROOT else None))
    folder.chmod(0o755)
    path = folder / "world-readable.txt"
    path.write_text("host data")
    path.chmod(0o644)
    try:
        yield path
    finally:
        shutil.rmtree(folder)


def test_only_what_python_needs_of_the_host_is_readable(tmp_path: Path, host_file: Path) -> None:
    probes = [str(host_file), "/etc/passwd", "/etc/os-release", "/var/lib/dpkg/status", "/home"]
    code = f"""
        import os
        for path in {probes!r}:
            try:
                os.listdir(path) if os.path.isdir(path) else open(path).read()
                print("READ", path)
            except OSError as error:
                print("refused", path, error.strerror)
        import json, sqlite3  # the standard library and its C libraries are there
        print("stdlib", sqlite3.sqlite_version.count(".") == 2)
    """
    out, err = jailed(tmp_path, code)
    assert "READ" not in out and out.count("refused") == len(probes), out + err
    assert "stdlib True" in out, out + err


@pytest.fixture
def sandbox_elsewhere() -> Iterator[Path]:
    """A sandbox folder outside the temporary folders (a configured root), with its session bus
    socket open to anyone; its HOME is ``home``."""
    if not Path("/run/lock").is_dir():
        pytest.skip("no /run/lock: no folder outside the covered ones that anyone may write")
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-sandbox-", dir="/run/lock"))
    server = socket.socket(socket.AF_UNIX)
    try:
        for place in (folder, folder / "run", folder / "home"):
            place.mkdir(exist_ok=True)
            place.chmod(0o755)
        server.bind(str(folder / "run" / "bus"))
        (folder / "run" / "bus").chmod(0o777)
        server.listen()
        yield folder
    finally:
        server.close()
        shutil.rmtree(folder)


def test_the_checker_hides_the_sandbox_wherever_it_lies(sandbox_elsewhere: Path) -> None:
    home = sandbox_elsewhere / "home"
    (home / "probe.py").write_text(
        textwrap.dedent(f"""
        import socket
        try:
            socket.socket(socket.AF_UNIX).connect({str(sandbox_elsewhere / "run" / "bus")!r})
            print("CONNECTED")
        except OSError:
            print("refused")
        """)
    )
    (home / "probe.py").chmod(0o644)
    result = get_checker("python_prints").run(
        {"path": "probe.py", "expected": "refused"}, CheckContext(home=home)
    )
    assert result.passed, result.reason


def test_output_is_bounded(tmp_path: Path) -> None:
    out, _ = jailed(tmp_path, "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    assert 0 < len(out) <= jail.OUTPUT_LIMIT


@pytest.mark.skipif(not AS_ROOT, reason="the jail user is consulted only when pcagent is root")
def test_a_missing_jail_user_is_a_checker_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "agent.py"
    source.write_text("print('ran')\n")
    with pytest.raises(JailError, match=r"install-system\.sh"):
        run_python_jailed(source, [str(source)], timeout_s=5, user="pcagent-no-such-user")
    # through the checker, it is an error the runner reports, not a failed (or passed) check
    monkeypatch.setattr(jail, "JAIL_USER", "pcagent-no-such-user")
    context = CheckContext(home=tmp_path)
    with pytest.raises(CheckerError, match="does not exist"):
        get_checker("python_prints").run({"path": "agent.py", "expected": "ran"}, context)


_UNPRIVILEGED_PROBE = """
import json, sys
from pathlib import Path
from pcagent.bench.jail import run_python_jailed
source = Path(sys.argv[1])
completed = run_python_jailed(source, [str(source)], timeout_s=10)
print(json.dumps([completed.returncode, completed.stdout, completed.stderr]))
"""


@pytest.mark.skipif(not AS_ROOT, reason="without root, every other test here runs this way")
def test_without_root_it_uses_a_user_namespace(listener: int) -> None:
    """pcagent run by an ordinary user: the jail is a user namespace, with the same walls. The
    folders lie outside the temporary folders the jail covers (in /run): only the read-only
    mount keeps the user's own files unchanged, and only covering the user's home hides it."""
    user = pwd.getpwnam(JAIL_USER)
    folder = Path(tempfile.mkdtemp(prefix="pcagent-jail-unprivileged-", dir="/run"))
    try:
        home, work = folder / "home", folder / "work"
        for place in (folder, home, work):
            place.mkdir(exist_ok=True)
            os.chown(place, user.pw_uid, user.pw_gid)
        secret = home / "secret.txt"
        secret.write_text("hunter2")
        os.chown(secret, user.pw_uid, user.pw_gid)
        source, target = work / "agent.py", work / "planted.txt"
        source.write_text(
            textwrap.dedent(f"""
            import os, socket
            status = dict(line.split(":", 1) for line in open("/proc/self/status"))
            print(status["CapEff"].strip(), sorted(os.environ))
            try:
                open({str(target)!r}, "w").write("x")
            except OSError as error:
                print("refused write", error.strerror)
            try:
                print(open({str(secret)!r}).read())
            except OSError as error:
                print("refused read", error.strerror)
            try:
                socket.create_connection(("127.0.0.1", {listener}), timeout=2)
            except OSError as error:
                print("refused network", error.strerror)
            try:
                print(open("/etc/passwd").read())
            except OSError as error:
                print("refused host", error.strerror)
            """)
        )
        source.chmod(0o644)
        environment = {"PATH": "/usr/bin:/bin", "HOME": str(home), "PYTHONSAFEPATH": "1"}
        if "PYTHONPATH" in os.environ:  # the pcagent under test, where it is not the installed one
            environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
        drop = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
        ran = subprocess.run(
            [*drop, sys.executable, "-c", _UNPRIVILEGED_PROBE, str(source)],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert ran.returncode == 0, ran.stderr
        returncode, out, err = json.loads(ran.stdout.splitlines()[-1])
        assert returncode == 0, err
        lines = out.splitlines()
        assert lines[0] == "0000000000000000 ['HOME', 'LANG', 'PATH']", out
        assert [line.split()[:2] for line in lines[1:]] == [
            ["refused", "write"],
            ["refused", "read"],
            ["refused", "network"],
            ["refused", "host"],
        ], out
        assert not target.exists()
    finally:
        shutil.rmtree(folder)


def _processes_named(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker in (entry / "cmdline").read_text():
                found.append(int(entry.name))
        except OSError:
            continue  # the process ended while we looked
    return found


def test_the_checkers_pass_a_correct_file_and_fail_a_wrong_one(tmp_path: Path) -> None:
    context = CheckContext(home=tmp_path)
    (tmp_path / "Documents").mkdir()
    script = tmp_path / "Documents" / "average.py"
    script.write_text("print(sum([70, 80, 90]) / 3)\n")
    prints = get_checker("python_prints")
    assert prints.run({"path": "Documents/average.py", "expected": "80.0"}, context).passed
    assert not prints.run({"path": "Documents/average.py", "expected": "81.0"}, context).passed
    script.write_text("def kth_largest(numbers, k):\n    return sorted(numbers)[-k]\n")
    returns = get_checker("python_function_returns")
    params = {"path": "Documents/average.py", "function": "kth_largest"}
    assert returns.run({**params, "cases": [[[3, 1, 5], 1, 5], [[7, 7, 3], 3, 3]]}, context).passed
    assert not returns.run({**params, "cases": [[[3, 1, 5], 1, 1]]}, context).passed
