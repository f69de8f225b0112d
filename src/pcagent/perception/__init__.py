"""The Active Perception Module (PC-Agent's APM), between the environment and the agents.

- :func:`interactive_marks`: the elements a person could act on or read, merged and numbered.
- :func:`compact_listing` / :func:`prune_marks`: the marks as few prompt tokens as possible.
- :func:`draw_set_of_mark`: the screenshot with every mark's box and number.
- :class:`TesseractOcr` / :func:`ocr_marks`: text the accessibility tree does not expose.
- :class:`TextSelector`: "select the last two paragraphs" turned into an exact selection.
- :class:`ActivePerception`: all of it in one call per step.

Like the agents, this layer never touches X11 or AT-SPI: it reads observations and uses the
environment's typed actions and optional :class:`pcagent.env.TextAccess` operations.
"""

from pcagent.perception.interactive import interactive_marks
from pcagent.perception.listing import (
    baseline_listing,
    compact_listing,
    element_targets,
    prune_marks,
)
from pcagent.perception.marks import Mark
from pcagent.perception.module import ActivePerception, Perception
from pcagent.perception.ocr import OcrLine, OcrResult, OcrWord, TesseractOcr, ocr_marks
from pcagent.perception.set_of_mark import draw_set_of_mark

__all__ = [
    "ActivePerception",
    "Mark",
    "OcrLine",
    "OcrResult",
    "OcrWord",
    "Perception",
    "TesseractOcr",
    "baseline_listing",
    "compact_listing",
    "draw_set_of_mark",
    "element_targets",
    "interactive_marks",
    "ocr_marks",
    "prune_marks",
]
