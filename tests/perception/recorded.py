"""Recorded observations of real screens (saved by ``benchmarks/perception.py --record``)."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from pcagent.env.observation import Element, Observation, WindowInfo

DATA = Path(__file__).parent / "data"


def load_recorded(stem: str) -> Observation:
    """An :class:`Observation` rebuilt from ``data/STEM.json`` and its screenshot."""
    raw = json.loads((DATA / f"{stem}.json").read_text())
    focused = raw.get("focused_window")
    return Observation(
        screenshot=Image.open(DATA / f"{stem}.png").convert("RGB"),
        elements=[Element.model_validate(element) for element in raw["elements"]],
        windows=[WindowInfo.model_validate(window) for window in raw["windows"]],
        focused_window=WindowInfo.model_validate(focused) if focused else None,
        timestamp=0.0,
    )
