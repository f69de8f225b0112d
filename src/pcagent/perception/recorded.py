"""Observations saved to disk and read back: a JSON file of elements and windows, and the
screenshot beside it as PNG.

Recorded screens of the real applications let perception and grounding be measured and tested
without starting a desktop, and the same screen gives the same marks every time.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from pcagent.env.observation import Element, Observation, WindowInfo


def observation_record(observation: Observation) -> dict[str, object]:
    """An observation as JSON (the screenshot is saved beside it), in a stable order."""
    elements = []
    for element in observation.elements:
        dumped = element.model_dump(mode="json")
        dumped["states"] = sorted(dumped["states"])
        elements.append(dumped)
    focused = observation.focused_window
    return {
        "screen_size": list(observation.screen_size),
        "elements": elements,
        "windows": [window.model_dump(mode="json") for window in observation.windows],
        "focused_window": focused.model_dump(mode="json") if focused else None,
    }


def save_recorded(observation: Observation, folder: Path, stem: str) -> None:
    """Write ``STEM.json`` and ``STEM.png`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(observation_record(observation), indent=1, ensure_ascii=False)
    (folder / f"{stem}.json").write_text(text + "\n", encoding="utf-8")
    observation.screenshot.save(folder / f"{stem}.png")


def load_recorded(folder: Path, stem: str) -> Observation:
    """The :class:`Observation` saved as ``STEM.json`` and ``STEM.png`` in ``folder``;
    :class:`FileNotFoundError` naming the file when either is missing."""
    raw = json.loads((folder / f"{stem}.json").read_text(encoding="utf-8"))
    focused = raw.get("focused_window")
    return Observation(
        screenshot=Image.open(folder / f"{stem}.png").convert("RGB"),
        elements=[Element.model_validate(element) for element in raw["elements"]],
        windows=[WindowInfo.model_validate(window) for window in raw["windows"]],
        focused_window=WindowInfo.model_validate(focused) if focused else None,
        timestamp=0.0,
    )
