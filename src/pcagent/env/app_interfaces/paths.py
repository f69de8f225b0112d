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


def _conventional_home(candidate: Path, home: Path, root: Path) -> Path:
    """A path under a home folder by convention (``/home/user/Documents/a.txt``, ``/root/a.txt``)
    that is not this HOME, read as the same path in this HOME: models write the usual Linux home
    rather than a sandbox's. It still has to stay in HOME like any other path."""
    real = Path(os.path.realpath(candidate))
    if real == root or real.is_relative_to(root):
        return candidate
    parts = candidate.parts
    if len(parts) >= 3 and parts[:2] == ("/", "home"):
        return home.joinpath(*parts[3:])
    if len(parts) >= 2 and parts[:2] == ("/", "root"):
        return home.joinpath(*parts[2:])
    return candidate


def in_home(home: Path, text: str) -> Path:
    """The path ``text`` names, inside ``home``; :class:`InvalidActionError` when it leads out.

    Links are followed to decide (a link in HOME to ``/etc`` leads out), and the path returned is
    the one written (not the link's target), so that a document keeps its name. A path in a
    conventional home folder (``/home/user/...``, ``/root/...``) means the same path in HOME.
    """
    written = text.strip()
    if not written:
        raise InvalidActionError("the path is empty; name a file or folder in HOME")
    if "\x00" in written:  # the file system's calls raise ValueError on it, not OSError
        raise InvalidActionError(f"{text!r} holds a NUL character, which no path may")
    if written == "~" or written.startswith("~/"):
        written = written[2:] if written != "~" else ""
    candidate = Path(written)
    if not candidate.is_absolute():
        candidate = home / candidate
    root = Path(os.path.realpath(home))
    candidate = _conventional_home(candidate, home, root)
    real = Path(os.path.realpath(candidate))
    if real != root and not real.is_relative_to(root):
        raise InvalidActionError(
            f"{text!r} is outside the sandbox's HOME ({home}); application actions only reach "
            'files in HOME, e.g. "Documents/name.txt"'
        )
    return Path(os.path.normpath(candidate))


#: Entries a search of HOME for a file by name looks at, at most (hidden folders are skipped).
SEARCH_LIMIT = 20_000


def files_named(home: Path, name: str, limit: int = SEARCH_LIMIT) -> list[Path]:
    """The files and folders called ``name`` anywhere in ``home`` outside hidden folders (the
    applications' own settings), sorted; at most ``limit`` entries are looked at."""
    found: list[Path] = []
    seen = 0
    for folder, folders, files in os.walk(home):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        seen += len(folders) + len(files)
        found += [Path(folder) / entry for entry in (*folders, *files) if entry == name]
        if seen >= limit:
            break
    return sorted(found)


def existing_in_home(home: Path, text: str) -> Path:
    """The existing file or folder ``text`` names in HOME. A name given without its folder
    ("memo.txt" for ``Documents/memo.txt``) is found where it is, when exactly one has that name:
    a small model often leaves the folder out. Otherwise the path as written (which may not
    exist: the caller says so, or creates it); :class:`InvalidActionError` when several match."""
    path = in_home(home, text)
    if path.exists() or path.name in ("", "."):
        return path
    matches = [match for match in files_named(home, path.name) if _stays_home(home, match)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(relative_name(home, match) for match in matches[:8])
        raise InvalidActionError(
            f"{text!r} is not in HOME, and several entries are called {path.name!r}: {names}; "
            "give the path of the one you mean"
        )
    return path


def _stays_home(home: Path, path: Path) -> bool:
    """Whether ``path`` (a link included) leads to somewhere inside HOME."""
    try:
        in_home(home, str(path))
    except InvalidActionError:
        return False
    return True


def relative_name(home: Path, path: Path) -> str:
    """``path`` as the agent should see it: relative to HOME (``Documents/a.txt``)."""
    try:
        return str(path.relative_to(home))
    except ValueError:
        return str(path)
