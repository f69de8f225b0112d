"""A cheap comparison of two looks at the screen, computed before any model is asked.

Why: most "did my action do anything?" questions are answered by the pixels and the element
lists alone. Identical observations need no model call to know nothing changed, and a short
summary of what did change ("window 'Save As' opened; mark 'Bold' now pressed") is a far better
input for the Reflection model than two full listings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageChops
from pydantic import BaseModel, Field

from pcagent.env.observation import Box, Observation
from pcagent.perception.listing import mark_line
from pcagent.perception.marks import Mark

#: Pixels whose grey level changes by at most this much count as unchanged (JPEG-free screenshots
#: are exact, but a blinking caret and anti-aliasing flicker are not changes worth a model call).
_PIXEL_TOLERANCE = 8
#: Changed regions smaller than this many pixels (a caret, a clock's seconds) do not count.
_MIN_CHANGED_PIXELS = 40
#: Lines of added/removed/changed marks kept in a summary.
_MAX_LINES = 12


class ScreenDiff(BaseModel):
    """What changed between the observation before an action and the one after it."""

    changed_pixels: int = 0
    changed_fraction: float = 0.0
    changed_region: Box | None = None
    focus_before: str = ""
    focus_after: str = ""
    windows_opened: list[str] = Field(default_factory=list)
    windows_closed: list[str] = Field(default_factory=list)
    marks_added: list[str] = Field(default_factory=list)
    marks_removed: list[str] = Field(default_factory=list)
    marks_changed: list[str] = Field(default_factory=list)

    @property
    def identical(self) -> bool:
        """Nothing visible and nothing in the accessibility tree changed."""
        return (
            self.changed_pixels < _MIN_CHANGED_PIXELS
            and self.focus_before == self.focus_after
            and not (self.windows_opened or self.windows_closed)
            and not (self.marks_added or self.marks_removed or self.marks_changed)
        )

    def summary(self) -> str:
        """A few lines for a prompt and for the run record."""
        if self.identical:
            return "nothing changed on screen"
        lines = []
        if self.focus_before != self.focus_after:
            lines.append(f"focus moved from {self.focus_before!r} to {self.focus_after!r}")
        if self.windows_opened:
            lines.append(f"windows opened: {self.windows_opened}")
        if self.windows_closed:
            lines.append(f"windows closed: {self.windows_closed}")
        if self.changed_region is not None:
            box = self.changed_region
            lines.append(
                f"{self.changed_fraction:.1%} of the screen changed, within "
                f"{box.x},{box.y} {box.width}x{box.height}"
            )
        for label, items in (
            ("new", self.marks_added),
            ("gone", self.marks_removed),
            ("changed", self.marks_changed),
        ):
            lines.extend(f"{label}: {item}" for item in items[:_MAX_LINES])
            if len(items) > _MAX_LINES:
                lines.append(f"{label}: ... and {len(items) - _MAX_LINES} more")
        return "\n".join(lines)


def _pixel_change(before: Image.Image, after: Image.Image) -> tuple[int, Box | None]:
    if before.size != after.size:
        width, height = after.size
        return width * height, Box(x=0, y=0, width=width, height=height)
    difference = np.asarray(ImageChops.difference(before.convert("L"), after.convert("L")))
    changed = difference > _PIXEL_TOLERANCE
    count = int(changed.sum())
    if count == 0:
        return 0, None
    rows = np.flatnonzero(changed.any(axis=1))
    columns = np.flatnonzero(changed.any(axis=0))
    box = Box(
        x=int(columns[0]),
        y=int(rows[0]),
        width=int(columns[-1] - columns[0] + 1),
        height=int(rows[-1] - rows[0] + 1),
    )
    return count, box


def _identity(mark: Mark) -> tuple[str, str]:
    """What makes a mark "the same thing" across two looks: its role and label (its number and
    position may shift when something above it appears)."""
    return (mark.role, mark.label)


def _mark_changes(
    before: Sequence[Mark], after: Sequence[Mark]
) -> tuple[list[str], list[str], list[str]]:
    old: dict[tuple[str, str], list[Mark]] = {}
    for mark in before:
        old.setdefault(_identity(mark), []).append(mark)
    added: list[str] = []
    changed: list[str] = []
    for mark in after:
        candidates = old.get(_identity(mark))
        if not candidates:
            added.append(mark_line(mark))
            continue
        previous = candidates.pop(0)
        if previous.value != mark.value or previous.states != mark.states:
            changed.append(f"{mark_line(previous)}  ->  {mark_line(mark)}")
    removed = [mark_line(mark) for marks in old.values() for mark in marks]
    return added, removed, changed


def screen_diff(
    before: Observation,
    after: Observation,
    marks_before: Sequence[Mark],
    marks_after: Sequence[Mark],
) -> ScreenDiff:
    """Compare two observations and their marks."""
    pixels, region = _pixel_change(before.screenshot, after.screenshot)
    width, height = after.screenshot.size
    titles_before = [w.title for w in before.windows]
    titles_after = [w.title for w in after.windows]
    added, removed, changed = _mark_changes(marks_before, marks_after)
    return ScreenDiff(
        changed_pixels=pixels,
        changed_fraction=pixels / max(1, width * height),
        changed_region=region if pixels >= _MIN_CHANGED_PIXELS else None,
        focus_before=before.focused_window.title if before.focused_window else "",
        focus_after=after.focused_window.title if after.focused_window else "",
        windows_opened=[t for t in titles_after if t not in titles_before],
        windows_closed=[t for t in titles_before if t not in titles_after],
        marks_added=added,
        marks_removed=removed,
        marks_changed=changed,
    )
