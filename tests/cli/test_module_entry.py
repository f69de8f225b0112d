"""``python -m pcagent`` is the ``pcagent`` command (a real interpreter, a real subprocess)."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pcagent", "bench", "tasks", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"id": "pc01"' in done.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "pcagent", "no-such-command"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert wrong.returncode == 2 and "No such command" in wrong.stderr
