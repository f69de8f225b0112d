"""The files of a recorded step (screenshot, Set-of-Mark image, listing), written atomically.

The database is the source of truth: a step's files are written *before* its row is committed,
so a step row never points at missing files; files without a row (left by a kill between the
two) are harmless and get replaced when that step is written again.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from PIL import Image

SCREENSHOT_FILE = "screenshot.png"
SET_OF_MARK_FILE = "som.png"
LISTING_FILE = "listing.txt"
#: PNG compression: screenshots are written every step, speed matters more than a few kilobytes.
PNG_COMPRESS_LEVEL = 1


def write_step_files(
    folder: Path, screenshot: Image.Image | None, set_of_mark: Image.Image | None, listing: str
) -> None:
    """Write (or remove, when not given) the step's three files in ``folder``. Raises OSError."""
    files: list[tuple[str, Callable[[Path], None] | None]] = [
        (SCREENSHOT_FILE, _png_writer(screenshot)),
        (SET_OF_MARK_FILE, _png_writer(set_of_mark)),
        (LISTING_FILE, _text_writer(listing) if listing else None),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    for name, writer in files:
        if writer is None:
            (folder / name).unlink(missing_ok=True)
        else:
            write_atomically(folder / name, writer)


def read_step_images(folder: Path) -> dict[str, Image.Image]:
    """The step's images, as keyword arguments of ``RunStore.write_step`` (for copying steps)."""
    images = {}
    for name, key in ((SCREENSHOT_FILE, "screenshot"), (SET_OF_MARK_FILE, "set_of_mark")):
        if (folder / name).is_file():
            with Image.open(folder / name) as image:
                images[key] = image.copy()
    return images


def _png_writer(image: Image.Image | None) -> Callable[[Path], None] | None:
    if image is None:
        return None
    return lambda path: image.save(path, format="PNG", compress_level=PNG_COMPRESS_LEVEL)


def _text_writer(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text, encoding="utf-8")


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary name in the same folder, then rename: a reader (or a resume
    after a kill) sees the old file or the new one, never half of one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
