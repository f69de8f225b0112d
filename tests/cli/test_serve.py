"""``pcagent serve`` refuses what it must before it starts a desktop."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.cli import app
from pcagent.env.remote_client import connect
from pcagent.errors import RemoteUnreachableError


def test_a_public_address_without_allow_remote_is_refused_before_anything_starts(
    environment: dict[str, str], desktop_starts: list[str]
) -> None:
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0"], env=environment)
    assert result.exit_code == 2
    assert "not a loopback address" in result.output
    assert "--allow-remote" in result.output
    assert desktop_starts == []


def test_half_a_tls_pair_and_bad_ports_are_refused(
    environment: dict[str, str], desktop_starts: list[str]
) -> None:
    for arguments, message in (
        (["--tls-cert", "cert.pem"], "together"),
        (["--port", "70000"], "not a port number"),
        (["--host", "192.0.2.1", "--allow-remote", "--tls-cert", "no.pem", "--tls-key", "k"],
         "no such file"),
    ):  # fmt: skip
        result = CliRunner().invoke(app, ["serve", *arguments], env=environment)
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert desktop_starts == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.desktop
@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_serve_answers_then_a_signal_closes_the_sandbox(
    stop: signal.Signals, tmp_path: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = tmp_path / "serve" / "token"
    server = subprocess.Popen(
        [sys.executable, "-c", "from pcagent.cli import main; main()", "serve", "--port",
         str(port)],
        env={**os.environ, "PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not token.exists():
            assert server.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.2)
        environment = None
        while environment is None:
            try:
                environment = connect(f"http://127.0.0.1:{port}", token_file=token)
            except RemoteUnreachableError:
                assert time.monotonic() < deadline
        assert environment.observe().screenshot.size == environment.screen_size
        environment.close()
        desktop_processes = _children(server.pid)
        assert desktop_processes  # Xvfb, the buses, the window manager...
        server.send_signal(stop)
        output, _ = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, output  # a signal is how a server stops, not a failure
    assert "stopped" in output
    assert not token.exists()  # the token ends with the server
    assert [pid for pid in desktop_processes if Path(f"/proc/{pid}").exists()] == [], output
    audit = (tmp_path / "serve" / "audit.jsonl").read_text().splitlines()
    assert any('"/v1/observe"' in line for line in audit)
