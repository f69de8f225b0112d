"""OCR with Tesseract, for what the accessibility tree does not expose.

Why the ``tesseract`` program directly instead of a wrapper library: each call needs its own
environment (``OMP_THREAD_LIMIT=1``: Tesseract's default threading is 5x slower on two busy
cores, see desktop-notes), and a wrapper would only pass the process's global environment on.
The TSV it prints has word boxes with block, paragraph and line numbers, from which lines are
built here.

OCR is slow (about half a second for a full screen), so it runs on demand and, where possible,
on a region. Boxes are always in screen pixels, whatever region or scaling was used.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image
from pydantic import BaseModel, ConfigDict

from pcagent.env.observation import Box, Element
from pcagent.errors import MissingProgramError, OcrError
from pcagent.perception.interactive import clip
from pcagent.perception.marks import Mark

#: Roles whose box is a big container: OCR text inside them is not covered by them.
CONTAINER_ROLES = frozenset(
    {"document text", "document web", "document spreadsheet", "scroll pane", "panel", "filler"}
)


class OcrWord(BaseModel):
    """One recognised word; ``line`` numbers the line it belongs to within one OCR result."""

    model_config = ConfigDict(frozen=True)

    text: str
    box: Box
    confidence: float
    line: int


class OcrLine(BaseModel):
    """Consecutive words of one text line, and the box around them."""

    model_config = ConfigDict(frozen=True)

    text: str
    box: Box
    words: tuple[OcrWord, ...]


@dataclass(frozen=True)
class OcrResult:
    words: list[OcrWord]
    lines: list[OcrLine]
    region: Box
    duration_ms: float = 0.0
    scale: float = 1.0

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass
class TesseractOcr:
    """Runs ``tesseract`` on a screenshot or a region of it.

    ``scale`` enlarges the image first: screen text is small for Tesseract, and 2x finds more
    words with tighter boxes at about twice the time. ``min_confidence`` drops noise (icons read
    as letters).
    """

    language: str = "eng"
    scale: float = 2.0
    min_confidence: float = 40.0
    page_segmentation: int = 11  # sparse text: a screen is not a page of prose
    timeout_s: float = 30.0
    program: str = "tesseract"
    extra_env: dict[str, str] = field(default_factory=lambda: {"OMP_THREAD_LIMIT": "1"})

    def recognize(self, screenshot: Image.Image, region: Box | None = None) -> OcrResult:
        """Words and lines in ``region`` of ``screenshot`` (the whole image by default).

        Raises :class:`MissingProgramError` without Tesseract and :class:`OcrError` when it fails.
        """
        if shutil.which(self.program) is None:
            raise MissingProgramError(
                f"OCR needs '{self.program}'; install Debian's tesseract-ocr and tesseract-ocr-eng "
                "(scripts/install-system.sh does)"
            )
        width, height = screenshot.size
        screen = Box(x=0, y=0, width=width, height=height)
        area = clip(region, screen) if region is not None else screen
        if area is None:
            raise OcrError(f"the OCR region {region} lies outside the {width}x{height} screenshot")
        image = screenshot.crop((area.x, area.y, area.right, area.bottom)).convert("L")
        if self.scale != 1.0:
            image = image.resize(
                (round(image.width * self.scale), round(image.height * self.scale)),
                Image.Resampling.LANCZOS,
            )
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        started = time.perf_counter()
        try:
            completed = subprocess.run(
                [self.program, "stdin", "stdout", "-l", self.language, "--psm",
                 str(self.page_segmentation), "tsv"],
                input=buffer.getvalue(),
                capture_output=True,
                timeout=self.timeout_s,
                env={**os.environ, **self.extra_env},
                check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired as error:
            raise OcrError(f"tesseract took longer than {self.timeout_s:.0f}s") from error
        duration = (time.perf_counter() - started) * 1000
        if completed.returncode != 0:
            message = completed.stderr.decode(errors="replace").strip()[-500:]
            raise OcrError(f"tesseract failed (exit {completed.returncode}): {message}")
        words = parse_tsv(completed.stdout.decode("utf-8", "replace"), area, self.scale)
        words = [word for word in words if word.confidence >= self.min_confidence]
        return OcrResult(words, group_lines(words), area, duration, self.scale)


def parse_tsv(tsv: str, region: Box, scale: float) -> list[OcrWord]:
    """Tesseract's TSV into words with screen-pixel boxes, in Tesseract's reading order."""
    words: list[OcrWord] = []
    line_ids: dict[tuple[str, str, str, str], int] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        key = (row["page_num"], row["block_num"], row["par_num"], row["line_num"])
        line = line_ids.setdefault(key, len(line_ids))
        left, top = int(row["left"]) / scale, int(row["top"]) / scale
        right = (int(row["left"]) + int(row["width"])) / scale
        bottom = (int(row["top"]) + int(row["height"])) / scale
        box = Box(
            x=region.x + round(left),
            y=region.y + round(top),
            width=max(1, round(right) - round(left)),
            height=max(1, round(bottom) - round(top)),
        )
        words.append(OcrWord(text=text, box=box, confidence=float(row["conf"]), line=line))
    return words


def group_lines(words: Sequence[OcrWord]) -> list[OcrLine]:
    """Words sharing a line number, joined by spaces, with the box around them."""
    groups: dict[int, list[OcrWord]] = {}
    for word in words:
        groups.setdefault(word.line, []).append(word)
    lines = []
    for members in groups.values():
        left = min(word.box.x for word in members)
        top = min(word.box.y for word in members)
        right = max(word.box.right for word in members)
        bottom = max(word.box.bottom for word in members)
        lines.append(
            OcrLine(
                text=" ".join(word.text for word in members),
                box=Box(x=left, y=top, width=right - left, height=bottom - top),
                words=tuple(members),
            )
        )
    return lines


def covered_by(line: OcrLine, elements: Sequence[Element], threshold: float) -> bool:
    """Does an accessibility element already show this text? True when at least ``threshold``
    of the line's area lies inside one element that carries a label or text of its own
    (containers such as the document area do not count: their text is their children's)."""
    area = line.box.width * line.box.height
    if area <= 0:
        return True
    for element in elements:
        if element.role in CONTAINER_ROLES or not (element.name or element.text):
            continue
        if line.box.intersection_area(element.box) >= threshold * area:
            return True
    return False


def ocr_marks(
    result: OcrResult,
    elements: Sequence[Element],
    first_number: int,
    overlap_threshold: float = 0.5,
) -> list[Mark]:
    """OCR lines that no accessibility element covers, as extra ``text`` marks numbered from
    ``first_number`` (after the accessibility marks, so those keep their numbers)."""
    marks = []
    for line in result.lines:
        if covered_by(line, elements, overlap_threshold):
            continue
        marks.append(
            Mark(
                number=first_number + len(marks),
                role="text",
                label=line.text,
                box=line.box,
                source="ocr",
            )
        )
    return marks
