"""Which applications are open on which documents, and putting a desktop back that way.

A run record keeps, after every step, the open applications and the document each one shows (read
from window titles, matched against the files in HOME). Together with the HOME snapshot that is
what resume and rewind restore: the same files, the same applications on the same documents.
What is *not* restored: unsaved edits, scroll positions, selections, dialogs, window geometry.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pcagent.env.apps import APPS, app_of_window
from pcagent.env.observation import WindowInfo
from pcagent.errors import PcAgentError, RunStateError
from pcagent.runtime.home_snapshot import HomeSnapshots

#: Folders under HOME that never hold a user's documents (profiles, caches, settings).
_SKIPPED_DIRS = {".cache", ".config", ".local", ".mozilla", ".thunderbird", ".pki", "snap"}
#: Looking for a document name in HOME stops after this many files (a HOME is small here).
_MAX_FILES = 20_000


def app_window_present(windows: Iterable[WindowInfo], app: str) -> bool:
    return any(app_of_window(window) == app for window in windows)


def _documents_in(home: Path) -> dict[str, Path]:
    """File name -> path of the user's files under ``home`` (first found wins)."""
    found: dict[str, Path] = {}
    count = 0
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            count += 1
            if count > _MAX_FILES:
                return found
            if not name.startswith(".~lock"):
                found.setdefault(name, Path(root) / name)
    return found


def _document_of(title: str, documents: dict[str, Path]) -> Path | None:
    """The file a window title names, e.g. "notes.txt - Mousepad" or "*report.odt - LibreOffice
    Writer" (a leading ``*`` marks unsaved changes)."""
    candidates = [name for name in documents if name in title]
    if not candidates:
        return None
    return documents[max(candidates, key=len)]


def open_applications(windows: Sequence[WindowInfo], home: Path) -> list[dict[str, Any]]:
    """One entry per window of a known application: ``{"app", "title", "document"}``, where
    ``document`` is a path relative to HOME or "" when the window shows none."""
    documents = _documents_in(home) if home.is_dir() else {}
    entries = []
    for window in windows:
        app = app_of_window(window)
        if not app:
            continue
        document = _document_of(window.title, documents)
        entries.append(
            {
                "app": app,
                "title": window.title,
                "document": str(document.relative_to(home)) if document else "",
            }
        )
    return entries


class DesktopRestoreError(PcAgentError):
    """An application could not be reopened while restoring a recorded desktop."""


def reopen_applications(open_app: Any, home: Path, entries: Sequence[dict[str, Any]]) -> list[str]:
    """Open each recorded application again (once per app and document), on its document when
    the file still exists. ``open_app(name, files)`` is the sandbox's launcher. Returns what was
    opened, for the record; raises :class:`DesktopRestoreError` naming the app that failed."""
    opened: list[str] = []
    seen: set[tuple[str, str]] = set()
    for entry in entries:
        key = (entry.get("app", ""), entry.get("document", ""))
        if not key[0] or key in seen or key[0] not in APPS:
            continue
        seen.add(key)
        files = []
        if key[1] and (home / key[1]).is_file():
            files = [str(home / key[1])]
        try:
            open_app(key[0], files)
        except PcAgentError as error:
            raise DesktopRestoreError(
                f"could not reopen {key[0]} ({key[1] or 'no document'}): {error}"
            ) from error
        opened.append(f"{key[0]}: {key[1]}" if key[1] else key[0])
    return opened


def restore_desktop(
    environment: object,
    snapshots: HomeSnapshots,
    snapshot_id: str | None,
    apps: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """Put a sandbox back as recorded: close its applications, restore HOME from the snapshot,
    reopen the applications on their documents. Returns what was done, for the record.

    Raises :class:`RunStateError` for an environment without HOME or a launcher (a remote or
    attached desktop), and :class:`DesktopRestoreError` when an application does not reopen.
    """
    home = getattr(environment, "home", None)
    close_apps = getattr(environment, "close_apps", None)
    open_app = getattr(environment, "open_app", None)
    if home is None or close_apps is None or open_app is None:
        raise RunStateError(
            "this environment cannot be restored (it has no HOME or cannot open apps); "
            "resume, rewind and replay need the sandbox desktop"
        )
    close_apps()
    written = removed = 0
    if snapshot_id:
        report = snapshots.restore(Path(home), snapshot_id)
        written, removed = len(report.written), len(report.removed)
    opened = reopen_applications(open_app, Path(home), apps)
    return {"files_written": written, "files_removed": removed, "apps": opened}


__all__ = [
    "DesktopRestoreError",
    "app_of_window",
    "app_window_present",
    "open_applications",
    "reopen_applications",
    "restore_desktop",
]
