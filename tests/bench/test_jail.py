"""Code an agent wrote runs in the jail: it cannot write outside its folder, read the caller's
environment, reach the network, leave a process behind or run forever. Real processes."""

from __future__ import annotations

import os
import socket
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.bench.jail import run_python_jailed


def jailed(tmp_path: Path, code: str, timeout_s: float = 10.0) -> tuple[str, str]:
    source = tmp_path / "home" / "agent.py"
    source.parent.mkdir(exist_ok=True)
    source.write_text(textwrap.dedent(code))
    completed = run_python_jailed(source, [str(source)], timeout_s=timeout_s)
    assert completed is not None, "timed out"
    return completed.stdout, completed.stderr


def test_ordinary_code_runs_and_prints(tmp_path: Path) -> None:
    out, _ = jailed(tmp_path, "print(sum(range(10)))\n")
    assert out.strip() == "45"


def test_writes_outside_its_own_folder_fail(tmp_path: Path) -> None:
    home = tmp_path / "home"
    targets = [home / "planted.txt", tmp_path / "outside.txt", Path("/root/pcagent-jail-probe")]
    code = f"""
        for target in {[str(t) for t in targets]!r}:
            try:
                open(target, "w").write("x")
                print("WROTE", target)
            except OSError as error:
                print("refused", type(error).__name__)
    """
    out, _ = jailed(tmp_path, code)
    assert "WROTE" not in out, out
    assert not any(target.exists() for target in targets)


def test_the_environment_is_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PCAGENT_TEST_SECRET", "hunter2")
    out, _ = jailed(
        tmp_path,
        "import os; print(sorted(os.environ)); print(os.environ.get('PCAGENT_TEST_SECRET'))\n",
    )
    assert "hunter2" not in out
    assert out.splitlines()[0] == "['HOME', 'LANG', 'PATH']"


def test_a_background_child_dies_with_the_check(tmp_path: Path) -> None:
    code = """
        import subprocess
        child = subprocess.Popen(["sleep", "60"], start_new_session=True)
        print(child.pid)
    """
    out, _ = jailed(tmp_path, code)
    assert out.strip().isdigit()
    # the pid is one of the jail's own namespace; no "sleep 60" of the jail survives anywhere
    time.sleep(0.3)
    survivors = [
        entry.name
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit()
        and _cmdline(entry) == "sleep\x0060\x00"
        and _uid(entry) != os.getuid()
    ]
    assert survivors == []


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


def _cmdline(entry: Path) -> str:
    try:
        return (entry / "cmdline").read_text()
    except OSError:
        return ""


def _uid(entry: Path) -> int:
    try:
        return entry.stat().st_uid
    except OSError:
        return -1
