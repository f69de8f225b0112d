"""Paths an application action names, held inside the sandbox's HOME.

A model writes ``Documents/report.docx``, ``~/Documents/report.docx`` or
``/tmp/pcagent-…/home/Documents/report.docx``; all three are the same file. Anything that leads
out of HOME (``..``, an absolute path elsewhere, a link pointing out) is refused before any
application is touched.
"""

from __future__ import annotations

import os
from pathlib import Path

from pcagent.errors import InvalidActionError


def in_home(home: Path, text: str) -> Path:
    """The path ``text`` names, inside ``home``; :class:`InvalidActionError` when it leads out.

    Links are followed to decide (a link in HOME to ``/etc`` leads out), and the path returned is
    the one written (not the link's target), so that a document keeps its name.
    """
    written = text.strip()
    if not written:
        raise InvalidActionError("the path is empty; name a file or folder in HOME")
    if written == "~" or written.startswith("~/"):
        written = written[2:] if written != "~" else ""
    candidate = Path(written)
    if not candidate.is_absolute():
        candidate = home / candidate
    root = Path(os.path.realpath(home))
    real = Path(os.path.realpath(candidate))
    if real != root and not real.is_relative_to(root):
        raise InvalidActionError(
            f"{text!r} is outside the sandbox's HOME ({home}); application actions only reach "
            'files in HOME, e.g. "Documents/name.txt"'
        )
    return Path(os.path.normpath(candidate))


def relative_name(home: Path, path: Path) -> str:
    """``path`` as the agent should see it: relative to HOME (``Documents/a.txt``)."""
    try:
        return str(path.relative_to(home))
    except ValueError:
        return str(path)
