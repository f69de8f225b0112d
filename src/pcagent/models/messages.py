"""Chat messages as typed data: text parts and image parts, in the order the model sees them.

Why bytes for images: a message must be serialisable and hashable (the recording backend keys on
it, run records store it), and encoded images are what every provider wants anyway. Use
:meth:`ImagePart.from_image` to build one from a Pillow image.
"""

from __future__ import annotations

import hashlib
import io
from typing import Annotated, Literal

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant"]


class TextPart(BaseModel):
    """Plain text."""

    model_config = ConfigDict(frozen=True)

    type: Literal["text"] = "text"
    text: str


class ImagePart(BaseModel):
    """An encoded image (PNG or JPEG bytes), in the pixel space of whoever made it (the screen).

    ``alt_text`` is what a text-only model gets instead (for a screenshot: the element listing).
    The model layer downscales the image to the model's limits; see
    :class:`pcagent.models.images.ImageScaling` for mapping coordinates back.
    """

    model_config = ConfigDict(frozen=True)

    type: Literal["image"] = "image"
    data: bytes
    media_type: Literal["image/png", "image/jpeg"] = "image/png"
    alt_text: str = ""

    @classmethod
    def from_image(cls, image: Image.Image, alt_text: str = "") -> ImagePart:
        """Encode a Pillow image losslessly as PNG."""
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return cls(data=buffer.getvalue(), media_type="image/png", alt_text=alt_text)

    def open(self) -> Image.Image:
        """Decode the image (Pillow)."""
        return Image.open(io.BytesIO(self.data))

    @property
    def sha256(self) -> str:
        """Hash of the encoded bytes: how records refer to the image without storing it twice."""
        return hashlib.sha256(self.data).hexdigest()


Part = Annotated[TextPart | ImagePart, Field(discriminator="type")]


class Message(BaseModel):
    """One chat message: a role and its parts."""

    model_config = ConfigDict(frozen=True)

    role: Role
    parts: tuple[Part, ...]

    @classmethod
    def system(cls, text: str) -> Message:
        return cls(role="system", parts=(TextPart(text=text),))

    @classmethod
    def user(cls, *parts: str | TextPart | ImagePart) -> Message:
        """A user message; plain strings become text parts."""
        return cls(role="user", parts=tuple(_as_part(part) for part in parts))

    @classmethod
    def assistant(cls, text: str) -> Message:
        return cls(role="assistant", parts=(TextPart(text=text),))

    @property
    def text(self) -> str:
        """The text parts joined by blank lines (images left out)."""
        return "\n\n".join(part.text for part in self.parts if isinstance(part, TextPart))

    @property
    def images(self) -> tuple[ImagePart, ...]:
        return tuple(part for part in self.parts if isinstance(part, ImagePart))


def _as_part(part: str | TextPart | ImagePart) -> TextPart | ImagePart:
    return TextPart(text=part) if isinstance(part, str) else part
