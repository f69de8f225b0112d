"""The Set-of-Mark image: the screenshot with every mark's box and number drawn on it.

Legibility rules:
- each box and label takes, from a palette of saturated colours, the one that contrasts most with
  the pixels around it (mean luminance of a reduced grey copy of the screenshot);
- the number sits in a filled tag with white or black text, whichever reads better on the tag;
- tags are placed at the first free spot among several around the box's corners, so they do not
  hide each other, and never off screen.
The image keeps the screenshot's size: pixel coordinates on it are screen coordinates.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pcagent.env.observation import Box
from pcagent.perception.marks import Mark

#: Saturated colours that stay distinguishable on light and dark backgrounds.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (230, 25, 75),  # red
    (0, 130, 200),  # blue
    (60, 180, 75),  # green
    (145, 30, 180),  # purple
    (245, 130, 48),  # orange
    (0, 128, 128),  # teal
    (240, 50, 230),  # magenta
    (128, 0, 0),  # maroon
    (0, 0, 128),  # navy
    (255, 225, 25),  # yellow
)
FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
FONT_SIZE = 11
#: Pixels of background around a box that decide its colour.
SURROUND = 3


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    for candidate in FONT_CANDIDATES:
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default(size)


def luminance(colour: tuple[int, int, int]) -> float:
    """Relative luminance, 0 (black) to 255 (white), with the usual perceptual weights."""
    red, green, blue = colour
    return 0.299 * red + 0.587 * green + 0.114 * blue


class _LuminanceMap:
    """Mean luminance of rectangles of the screenshot, from a 4x-reduced grey copy: a box's
    surroundings need no pixel precision, and the reduced copy costs about a millisecond."""

    FACTOR = 4

    def __init__(self, image: Image.Image) -> None:
        self.grey = np.asarray(image.convert("L").reduce(self.FACTOR), dtype=np.float32)

    def mean(self, box: Box) -> float:
        factor = self.FACTOR
        left, top = max(0, box.x // factor), max(0, box.y // factor)
        right, bottom = -(-box.right // factor), -(-box.bottom // factor)
        region = self.grey[top:bottom, left:right]
        return float(region.mean()) if region.size else 128.0


def contrasting_colour(background: float, index: int) -> tuple[int, int, int]:
    """A palette colour far in luminance from ``background``, varied by ``index`` so that
    neighbouring marks differ; at least 60 levels of contrast when the palette allows it."""
    ordered = sorted(PALETTE, key=lambda colour: -abs(luminance(colour) - background))
    good = [colour for colour in ordered if abs(luminance(colour) - background) >= 60] or ordered[
        :3
    ]
    return good[index % len(good)]


def text_colour(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    return (0, 0, 0) if luminance(fill) > 150 else (255, 255, 255)


Rect = tuple[int, int, int, int]
"""left, top, right, bottom: plain tuples, because placing tags compares thousands of pairs."""


def _tag_spots(box: Box, width: int, height: int) -> list[Rect]:
    """Where a tag of ``width`` x ``height`` may go, best first: above the top-left corner,
    inside it, above the top-right corner, left of the box, below the bottom-left corner,
    inside the top-right corner."""
    corners = [
        (box.x, box.y - height),
        (box.x, box.y),
        (box.right - width, box.y - height),
        (box.x - width, box.y),
        (box.x, box.bottom),
        (box.right - width, box.y),
    ]
    return [(x, y, x + width, y + height) for x, y in corners]


def _on_screen(rect: Rect, screen_width: int, screen_height: int) -> Rect:
    width, height = rect[2] - rect[0], rect[3] - rect[1]
    x = min(max(0, rect[0]), max(0, screen_width - width))
    y = min(max(0, rect[1]), max(0, screen_height - height))
    return (x, y, x + width, y + height)


def _overlap(a: Rect, b: Rect) -> int:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0


def place_tags(
    marks: Sequence[Mark], sizes: Sequence[tuple[int, int]], screen: tuple[int, int]
) -> list[Box]:
    """A tag box per mark, avoiding tags already placed; the least-overlapping spot when every
    spot is taken (a crowded toolbar)."""
    placed: list[Rect] = []
    for mark, (width, height) in zip(marks, sizes, strict=True):
        spots = [_on_screen(spot, *screen) for spot in _tag_spots(mark.box, width, height)]
        # Only tags near this mark can collide with its spots.
        near = [
            other
            for other in placed
            if other[0] < mark.box.right + width
            and other[2] > mark.box.x - width
            and other[1] < mark.box.bottom + height
            and other[3] > mark.box.y - height
        ]
        overlaps = [sum(_overlap(spot, other) for other in near) for spot in spots]
        placed.append(spots[overlaps.index(min(overlaps))])
    return [Box(x=r[0], y=r[1], width=r[2] - r[0], height=r[3] - r[1]) for r in placed]


def draw_set_of_mark(screenshot: Image.Image, marks: Sequence[Mark]) -> Image.Image:
    """A copy of ``screenshot`` with each mark's box outlined and its number tagged."""
    image = screenshot.convert("RGB")  # always a copy
    draw = ImageDraw.Draw(image)
    font = _font(FONT_SIZE)
    lum = _LuminanceMap(screenshot)
    labels = [str(mark.number) for mark in marks]
    sizes = []
    for label in labels:
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        sizes.append((right - left + 4, bottom - top + 3))
    tags = place_tags(marks, sizes, image.size)
    for index, (mark, label, tag) in enumerate(zip(marks, labels, tags, strict=True)):
        box = mark.box
        surround = Box(
            x=box.x - SURROUND,
            y=box.y - SURROUND,
            width=box.width + 2 * SURROUND,
            height=box.height + 2 * SURROUND,
        )
        colour = contrasting_colour(lum.mean(surround), index)
        draw.rectangle([box.x, box.y, box.right - 1, box.bottom - 1], outline=colour, width=2)
        draw.rectangle([tag.x, tag.y, tag.right - 1, tag.bottom - 1], fill=colour)
        left, top, _, _ = draw.textbbox((0, 0), label, font=font)
        draw.text((tag.x + 2 - left, tag.y + 1 - top), label, fill=text_colour(colour), font=font)
    return image
