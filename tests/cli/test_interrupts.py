"""Every pcagent command turns a termination request into an interruption it cleans up after
(the end-to-end check, a killed run closing its sandbox, is in tests/runtime)."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from pcagent.cli import app
from pcagent.interrupts import TERMINATING_SIGNALS


@pytest.fixture
def restored_handlers() -> Iterator[None]:
    kept = {signum: signal.getsignal(signum) for signum in TERMINATING_SIGNALS}
    yield
    for signum, handler in kept.items():
        signal.signal(signum, handler)


def test_any_command_stops_on_sigterm_like_on_ctrl_c(restored_handlers: None) -> None:
    for signum in TERMINATING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    result = CliRunner().invoke(app, ["bench", "tasks", "--json"])
    assert result.exit_code == 0, result.output
    with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
        signal.raise_signal(signal.SIGTERM)
    # a second request during the clean-up is ignored
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    signal.raise_signal(signal.SIGTERM)
