"""Fixtures of the perception tests."""

from __future__ import annotations

import pytest

from pcagent.env.observation import Observation

from .recorded import load_recorded


@pytest.fixture
def writer_screen() -> Observation:
    """LibreOffice Writer with a title and five paragraphs, nothing selected."""
    return load_recorded("writer_plan")
