"""The Active Perception Module: one call from an environment to what a model needs.

:meth:`ActivePerception.perceive` observes the environment and returns a :class:`Perception`:
the numbered marks, their compact listing (optionally pruned to a subtask), the Set-of-Mark image
and, on demand, OCR text marks for what the accessibility tree does not expose.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from PIL import Image

from pcagent.env.observation import Box, Observation
from pcagent.env.protocol import Environment
from pcagent.perception.interactive import interactive_marks
from pcagent.perception.listing import compact_listing, prune_marks
from pcagent.perception.marks import Mark
from pcagent.perception.ocr import OcrResult, TesseractOcr, ocr_marks
from pcagent.perception.set_of_mark import draw_set_of_mark


@dataclass
class Perception:
    """What one look at the screen gives the agents.

    ``marks`` are all marks; ``shown`` the ones in the listing (all, or the pruned subset, with
    their original numbers). The Set-of-Mark image is drawn on first use and then kept.
    """

    observation: Observation
    marks: list[Mark]
    shown: list[Mark]
    ocr: OcrResult | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    _set_of_mark: Image.Image | None = field(default=None, repr=False)

    @property
    def listing(self) -> str:
        return compact_listing(self.shown)

    @property
    def set_of_mark(self) -> Image.Image:
        if self._set_of_mark is None:
            started = time.perf_counter()
            self._set_of_mark = draw_set_of_mark(self.observation.screenshot, self.shown)
            self.timings_ms["set_of_mark"] = (time.perf_counter() - started) * 1000
        return self._set_of_mark

    def mark(self, number: int) -> Mark:
        """The mark with this number; :class:`KeyError` naming the valid range otherwise."""
        for mark in self.marks:
            if mark.number == number:
                return mark
        raise KeyError(f"no mark {number}; marks are numbered 1..{len(self.marks)}")


@dataclass
class ActivePerception:
    """Perception over one environment. ``ocr`` is used only when asked for."""

    environment: Environment
    ocr: TesseractOcr = field(default_factory=TesseractOcr)
    #: OCR lines covered this much by an accessibility element are dropped as duplicates.
    ocr_overlap_threshold: float = 0.5

    def perceive(
        self,
        subtask: str | None = None,
        limit: int | None = None,
        with_ocr: bool = False,
        ocr_region: Box | None = None,
    ) -> Perception:
        """Observe and number what is on screen.

        ``subtask`` with ``limit`` prunes the listing to the ``limit`` most relevant marks.
        ``with_ocr`` adds OCR text marks for ``ocr_region`` (by default the focused window).
        """
        started = time.perf_counter()
        observation = self.environment.observe()
        observed = time.perf_counter()
        marks = interactive_marks(observation)
        numbered = time.perf_counter()
        timings = {
            "observe": (observed - started) * 1000,
            "marks": (numbered - observed) * 1000,
        }
        ocr_result = None
        if with_ocr:
            region = ocr_region
            if region is None and observation.focused_window is not None:
                region = observation.focused_window.box
            ocr_result = self.ocr.recognize(observation.screenshot, region)
            marks = marks + ocr_marks(
                ocr_result, observation.elements, len(marks) + 1, self.ocr_overlap_threshold
            )
            timings["ocr"] = (time.perf_counter() - numbered) * 1000
        shown = marks
        if subtask is not None and limit is not None:
            shown = prune_marks(marks, subtask, limit)
        return Perception(observation, marks, shown, ocr_result, timings)
