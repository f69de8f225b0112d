"""Step images for the viewer: their sizes, and small copies for the timeline, kept in memory.

The run folder is only read, never written: a thumbnail is made on first request and kept in a
bounded in-memory cache keyed by the file, its modification time and the width asked for, so a
step rewritten by a rewind gets a new one.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from pathlib import Path

from PIL import Image

from pcagent.env.observation import Box

#: The widths a thumbnail may be asked for (a fixed set keeps the cache small and useful); 160
#: is the run page's filmstrip.
THUMBNAIL_WIDTHS = (160, 320, 640, 960)
DEFAULT_THUMBNAIL_WIDTH = 640


class ImageCache:
    """Thumbnails (PNG bytes) and image sizes, at most ``max_thumbnails`` thumbnails kept.

    Thread-safe: the web server answers image requests from several threads.
    """

    def __init__(self, max_thumbnails: int = 256) -> None:
        self.max_thumbnails = max_thumbnails
        self._thumbnails: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._sizes: dict[tuple[str, int], tuple[int, int]] = {}
        self._lock = threading.Lock()

    def size(self, path: Path) -> tuple[int, int] | None:
        """The image's width and height in pixels (read from its header), None when there is
        no readable image."""
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return None
        key = (str(path), stamp)
        with self._lock:
            known = self._sizes.get(key)
        if known is not None:
            return known
        try:
            with Image.open(path) as image:
                size = image.size
        except (OSError, ValueError):
            return None
        with self._lock:
            if len(self._sizes) >= self.max_thumbnails * 64:
                self._sizes.clear()  # a few bytes each; cleared rarely, only to stay bounded
            self._sizes[key] = size
        return size

    def thumbnail(
        self, path: Path, width: int = DEFAULT_THUMBNAIL_WIDTH, region: Box | None = None
    ) -> bytes:
        """A PNG of the image, cut to ``region`` (image pixels) when one is given, scaled down
        to ``width`` pixels wide (never up).

        Raises FileNotFoundError when the file is missing, OSError when it is not an image.
        """
        stamp = path.stat().st_mtime_ns
        cut = None if region is None else (region.x, region.y, region.right, region.bottom)
        key = (str(path), stamp, width, cut)
        with self._lock:
            cached = self._thumbnails.get(key)
            if cached is not None:
                self._thumbnails.move_to_end(key)
                return cached
        with Image.open(path) as image:
            image.load()
            small = image.convert("RGB")
        if cut is not None:
            small = small.crop(cut)
        if small.width > width:
            small.thumbnail((width, max(1, round(small.height * width / small.width))))
        buffer = io.BytesIO()
        small.save(buffer, format="PNG", optimize=False, compress_level=3)
        data = buffer.getvalue()
        with self._lock:
            self._thumbnails[key] = data
            while len(self._thumbnails) > self.max_thumbnails:
                self._thumbnails.popitem(last=False)
        return data
