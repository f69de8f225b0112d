"""Temporary folders that a killed process does not leave behind for good.

A process ended by SIGKILL (an out-of-memory kill, a Ray actor replaced, a benchmark stopped
hard) runs no ``finally`` and leaves its temporary folders in ``/tmp``: the offline web's
certificates, the local model's socket folder, a benchmark's mail and web files. Every such
folder here carries its owner's process id in its name (``pcagent-KIND-PID-XXXXXX``), and the
next process that makes one of the same kind first removes those whose owner is gone. A live
owner's folders, another user's included, are never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _owner_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _prefix(kind: str) -> str:
    return f"pcagent-{kind}-"


def remove_stale(kind: str, parent: Path | None = None) -> list[Path]:
    """Remove the ``kind`` folders whose owner process is gone; returns what was removed."""
    parent = parent or Path(tempfile.gettempdir())
    removed = []
    for folder in parent.glob(f"{_prefix(kind)}*"):
        owner = folder.name[len(_prefix(kind)) :].split("-", 1)[0]
        if owner.isdigit() and folder.is_dir() and not _owner_alive(int(owner)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def scratch_folder(kind: str, parent: Path | None = None) -> Path:
    """A new private folder named for this process (``kind`` is a word such as ``web``), after
    removing the stale ones of the same kind. The caller removes it when done."""
    if not kind.replace("-", "").isalpha():
        raise ValueError(f"a scratch folder's kind is a word, not {kind!r}")
    remove_stale(kind, parent)
    return Path(tempfile.mkdtemp(prefix=f"{_prefix(kind)}{os.getpid()}-", dir=parent))


@contextlib.contextmanager
def scratch_directory(kind: str, parent: Path | None = None) -> Iterator[Path]:
    """:func:`scratch_folder` for a ``with`` block; removed at its end."""
    folder = scratch_folder(kind, parent)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
