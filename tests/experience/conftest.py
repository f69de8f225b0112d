"""The real sentence encoder, loaded once for the experience tests (installed from the registry
first when it is missing, as `make test` does)."""

from __future__ import annotations

import pytest

from pcagent.config import load_config
from pcagent.experience.embedding import SentenceEncoder
from pcagent.models.embedding_pack import install_embedding_pack


@pytest.fixture(scope="session")
def shared_encoder() -> SentenceEncoder:
    install_embedding_pack("all-minilm-l6-v2", load_config().models_dir, report=print)
    return SentenceEncoder.load()
