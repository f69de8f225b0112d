"""Fixtures of the command-line tests: a private data folder, and a guard that fails a test whose
command starts or attaches a desktop when it should have refused its input first."""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent.env.sandbox import SandboxDesktop


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    """Variables for ``CliRunner.invoke``: records under ``tmp_path``, no configuration file."""
    return {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}


@pytest.fixture
def desktop_starts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every attempt to start a sandbox or attach to a display, by the code under test; the
    attempt itself fails, so nothing is started."""
    attempts: list[str] = []

    def start(self: SandboxDesktop) -> SandboxDesktop:
        attempts.append("start")
        raise AssertionError("a sandbox was started")

    def attach(*args: object, **kwargs: object) -> SandboxDesktop:
        attempts.append("attach")
        raise AssertionError("a display was attached")

    monkeypatch.setattr(SandboxDesktop, "start", start)
    monkeypatch.setattr(SandboxDesktop, "attach", attach)
    return attempts
