"""Fitting screenshots to a model's image limits, and mapping its coordinates back exactly.

The contract (tested): a model that sees a downscaled image answers in the downscaled image's
pixels; :meth:`ImageScaling.to_screen` turns such a point into the screen pixel whose centre is
nearest the centre of that model pixel, and :meth:`ImageScaling.to_model` is its inverse:
``to_model(to_screen(p)) == p`` for every pixel ``p`` of the model image. Integer arithmetic only,
so there is no rounding drift. Images are only ever shrunk, never enlarged.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image

from pcagent.models.messages import ImagePart


@dataclass(frozen=True)
class ImageLimits:
    """The largest image a model accepts: longest side and total pixels."""

    max_side: int = 1568
    max_pixels: int = 1_150_000


@dataclass(frozen=True)
class ImageScaling:
    """How a screen-sized image (``screen_*``) was shrunk to what the model saw (``model_*``)."""

    screen_width: int
    screen_height: int
    model_width: int
    model_height: int

    def __post_init__(self) -> None:
        if min(self.screen_width, self.screen_height, self.model_width, self.model_height) < 1:
            raise ValueError(f"image sizes must be positive: {self}")
        if self.model_width > self.screen_width or self.model_height > self.screen_height:
            raise ValueError(f"an ImageScaling only shrinks: {self}")

    @classmethod
    def fit(cls, width: int, height: int, limits: ImageLimits) -> ImageScaling:
        """The largest size within ``limits`` with (nearly) the same aspect ratio; unchanged when
        the image already fits."""
        factor = min(
            1.0,
            limits.max_side / max(width, height),
            math.sqrt(limits.max_pixels / (width * height)),
        )
        model_width = max(1, min(width, math.floor(width * factor)))
        model_height = max(1, min(height, math.floor(height * factor)))
        # A side clamped up to 1 pixel (extreme aspect ratios) can push the area over the limit.
        if model_width * model_height > limits.max_pixels:
            if model_width >= model_height:
                model_width = max(1, limits.max_pixels // model_height)
            else:
                model_height = max(1, limits.max_pixels // model_width)
        return cls(width, height, model_width, model_height)

    @property
    def is_identity(self) -> bool:
        return (self.model_width, self.model_height) == (self.screen_width, self.screen_height)

    def contains_model_point(self, x: int, y: int) -> bool:
        return 0 <= x < self.model_width and 0 <= y < self.model_height

    def to_screen(self, x: int, y: int) -> tuple[int, int]:
        """Screen pixel for model-image pixel ``(x, y)``.

        Raises ``ValueError`` when the point lies outside the model image, so a caller can re-ask
        the model rather than click somewhere it never saw.
        """
        if not self.contains_model_point(x, y):
            raise ValueError(
                f"point ({x}, {y}) is outside the {self.model_width}x{self.model_height} image"
            )
        return (
            ((2 * x + 1) * self.screen_width) // (2 * self.model_width),
            ((2 * y + 1) * self.screen_height) // (2 * self.model_height),
        )

    def to_model(self, x: int, y: int) -> tuple[int, int]:
        """Model-image pixel that screen pixel ``(x, y)`` falls in (for drawing prompts, marks)."""
        if not (0 <= x < self.screen_width and 0 <= y < self.screen_height):
            raise ValueError(
                f"point ({x}, {y}) is outside the {self.screen_width}x{self.screen_height} screen"
            )
        return (
            ((2 * x + 1) * self.model_width) // (2 * self.screen_width),
            ((2 * y + 1) * self.model_height) // (2 * self.screen_height),
        )


def image_scaling(part: ImagePart, limits: ImageLimits) -> ImageScaling:
    """The scaling :func:`fit_image` applies to ``part``, without resizing anything: lets a
    caller write its prompt in the pixels the model will see (only the image header is read)."""
    with part.open() as image:
        return ImageScaling.fit(image.width, image.height, limits)


def fit_image(part: ImagePart, limits: ImageLimits) -> tuple[ImagePart, ImageScaling]:
    """Downscale an image part to ``limits``; returns the part the model gets and the scaling.

    An image that already fits is passed through byte for byte.
    """
    image = part.open()
    scaling = ImageScaling.fit(image.width, image.height, limits)
    if scaling.is_identity:
        return part, scaling
    resized = image.convert("RGB").resize(
        (scaling.model_width, scaling.model_height), Image.Resampling.LANCZOS
    )
    buffer = io.BytesIO()
    resized.save(buffer, format="PNG")
    return (
        ImagePart(data=buffer.getvalue(), media_type="image/png", alt_text=part.alt_text),
        scaling,
    )
