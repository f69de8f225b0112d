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
from typing import Any

from PIL import Image

SCREENSHOT_FILE = "screenshot.png"
SET_OF_MARK_FILE = "som.png"
LISTING_FILE = "listing.txt"
#: Sub-folder of a step holding the contents of documents with unsaved changes.
UNSAVED_FOLDER = "unsaved"
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


def read_step_files(folder: Path) -> dict[str, Any]:
    """The step's images and unsaved documents, as keyword arguments of
    ``RunStore.write_step`` (for copying steps to a rewound run)."""
    files: dict[str, Any] = {}
    for name, key in ((SCREENSHOT_FILE, "screenshot"), (SET_OF_MARK_FILE, "set_of_mark")):
        if (folder / name).is_file():
            with Image.open(folder / name) as image:
                files[key] = image.copy()
    unsaved = folder / UNSAVED_FOLDER
    if unsaved.is_dir():
        files["unsaved_files"] = [
            (path.name, path.read_bytes()) for path in sorted(unsaved.iterdir())
        ]
    return files


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


def unsaved_file_name(index: int, title: str, suffix: str) -> str:
    """A safe file name for the ``index``-th unsaved document of a step."""
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in title.lstrip("*").strip())
    return f"{index:02d}-{stem[:60] or 'untitled'}{suffix}"


def write_unsaved_files(folder: Path, files: list[tuple[str, bytes]]) -> None:
    """Write each ``(name, contents)`` under ``folder/unsaved`` (replacing what was there)."""
    target = folder / UNSAVED_FOLDER
    if target.is_dir():
        for old in target.iterdir():
            old.unlink()
    if not files:
        return
    target.mkdir(parents=True, exist_ok=True)
    for name, contents in files:
        write_atomically(target / name, lambda path, data=contents: path.write_bytes(data))
