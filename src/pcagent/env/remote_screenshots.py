"""The screenshots a served environment keeps and sends.

An observation's screenshot is fetched separately from its JSON, in the format the client asks
for; the server keeps the latest few, so that two clients observing in turn each find their own.
"""

from __future__ import annotations

import io
import secrets
import threading
from collections import OrderedDict

from PIL import Image

from pcagent.env.remote_api import ImageFormat
from pcagent.env.remote_guard import Refusal


class RecentScreenshots:
    """The screenshots of the latest few observations, fetched by id (a few, so that two clients
    observing in turn each still find their own)."""

    def __init__(self, keep: int = 4) -> None:
        self._lock = threading.Lock()
        self._keep = keep
        self._images: OrderedDict[str, Image.Image] = OrderedDict()

    def keep(self, image: Image.Image) -> str:
        with self._lock:
            observation_id = secrets.token_hex(8)
            self._images[observation_id] = image
            while len(self._images) > self._keep:
                self._images.popitem(last=False)
            return observation_id

    def get(self, observation_id: str) -> Image.Image:
        with self._lock:
            image = self._images.get(observation_id)
        if image is None:
            raise Refusal(
                404,
                "no_such_observation",
                f"only the latest {self._keep} observations' screenshots are kept; observe again",
            )
        return image


def encode_screenshot(image: Image.Image, image_format: ImageFormat, quality: int) -> bytes:
    """The screenshot's bytes in ``image_format`` (``raw``: RGB, 3 bytes per pixel, rows top
    down). PNG is written at compression level 1: on a screen of flat colours it is nearly as
    small as level 6 and several times faster."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if image_format == "raw":
        return rgb.tobytes()
    buffer = io.BytesIO()
    if image_format == "png":
        rgb.save(buffer, format="PNG", compress_level=1)
    else:
        rgb.save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


#: The media type of each screenshot format.
MEDIA_TYPES = {"raw": "application/octet-stream", "png": "image/png", "jpeg": "image/jpeg"}
