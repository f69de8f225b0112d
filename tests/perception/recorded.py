"""Recorded observations of real screens (saved by ``benchmarks/perception.py --record``)."""

from __future__ import annotations

from pathlib import Path

from pcagent.env.observation import Observation
from pcagent.perception import recorded

DATA = Path(__file__).parent / "data"


def load_recorded(stem: str) -> Observation:
    """An :class:`Observation` rebuilt from ``data/STEM.json`` and its screenshot."""
    return recorded.load_recorded(DATA, stem)
