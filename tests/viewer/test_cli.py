"""``pcagent view`` as a user starts it: the printed address signs in, SIGTERM stops it, and a
non-loopback address is refused before anything listens."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from pcagent.cli import app


def test_other_hosts_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["view", "--host", "0.0.0.0"], env={"PCAGENT_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 2
    assert "127.0.0.1 only" in result.output
    assert not (tmp_path / "runs").exists()


def test_the_printed_address_signs_in_and_sigterm_stops_it(tmp_path: Path) -> None:
    environment = {**os.environ, "PCAGENT_DATA_DIR": str(tmp_path), "COLUMNS": "200"}
    command = [sys.executable, "-c", "from pcagent.cli import main; main()", "view", "--port", "0"]
    process = subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        address = None
        deadline = time.monotonic() + 30
        while address is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, "pcagent view ended before printing its address"
            found = re.search(r"http://127\.0\.0\.1:\d+/\?token=[\w-]+", line)
            address = found.group(0) if found else None
        assert address is not None
        with httpx.Client(timeout=10) as client:
            signed_in = client.get(address, follow_redirects=True)
            assert signed_in.status_code == 200 and "Runs" in signed_in.text
            base = address.split("/?")[0]
            assert httpx.get(base + "/", timeout=10).status_code == 401
            # the same token, for scripts, in a file only its owner reads (as `pcagent serve`)
            token_file = tmp_path / "view" / "token"
            assert token_file.stat().st_mode & 0o777 == 0o600
            bearer = {"Authorization": f"Bearer {token_file.read_text().strip()}"}
            assert httpx.get(base + "/", headers=bearer, timeout=10).status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) in (0, 130, 143, -signal.SIGTERM)
        assert not (tmp_path / "view" / "token").exists()  # gone with the viewer
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
