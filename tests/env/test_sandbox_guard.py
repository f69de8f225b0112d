"""A guarded sandbox is closed by its watchdog when the process that started it is killed
outright, and the watchdog ends with a normal close."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import eventually

from pcagent.env import processes
from pcagent.env.sandbox import SandboxDesktop
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.env.sandbox_guard import guards_of, process_start_time

pytestmark = [pytest.mark.desktop]

OWNER = """
import sys, time
from pcagent.env.sandbox import SandboxConfig, SandboxDesktop
desktop = SandboxDesktop(SandboxConfig(guard=True)).start()
print(desktop.state.sandbox_id, desktop.state.root, flush=True)
time.sleep(600)
"""


def test_a_killed_owner_s_sandbox_is_closed_by_its_watchdog() -> None:
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        sandbox_id, root = owner.stdout.readline().split()
        assert processes.find_marked_processes(sandbox_id)
        (guard,) = guards_of(owner.pid)
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    assert eventually(lambda: not processes.find_marked_processes(sandbox_id))
    assert eventually(lambda: not processes.is_alive(guard))
    assert not Path(root).exists()


def test_a_normal_close_ends_the_watchdog() -> None:
    desktop = SandboxDesktop(SandboxConfig(guard=True)).start()
    try:
        (guard,) = guards_of(os.getpid())
        assert processes.is_alive(guard)
    finally:
        desktop.close()
    assert not processes.is_alive(guard)
    assert guards_of(os.getpid()) == {}


def test_an_unguarded_sandbox_has_no_watchdog() -> None:
    with SandboxDesktop():
        assert guards_of(os.getpid()) == {}


def test_start_times_tell_a_reused_pid_apart() -> None:
    assert process_start_time(os.getpid()) is not None
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert process_start_time(child.pid) is None  # gone (and reaped)
