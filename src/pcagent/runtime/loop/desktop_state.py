"""The run layer's view of an environment's optional capabilities, and putting a desktop back.

A run record keeps, after every step, the open application windows and the document each one
shows (read from window titles, matched against the user's files in HOME). Together with the HOME
snapshot that is what resume and rewind restore: the same files, the same applications on the
same documents. What is *not* restored: unsaved edits, scroll positions, selections, dialogs,
window geometry.

:class:`DesktopAccess` asks the environment once which capabilities it has
(:mod:`pcagent.env.protocol`); everything here works through them, so an environment that offers
fewer (a remote one, an attached desktop) gets a clear error or a smaller record, never a crash.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pcagent.agents.existing_files import FileCheck
from pcagent.env.app_interfaces.paths import existing_in_home
from pcagent.env.observation import WindowInfo
from pcagent.env.protocol import (
    AppInfo,
    ApplicationCatalog,
    ApplicationControl,
    ApplicationInterfaces,
    Describable,
    Desktops,
    Environment,
    LocalHome,
    OpenWindow,
    OutgoingMail,
    UnsavedDocument,
    UnsavedWork,
)
from pcagent.errors import InvalidActionError, PcAgentError, RunStateError
from pcagent.runtime.safety.home_snapshot import HomeManifest, HomeSnapshots

#: Folders under HOME that never hold a user's documents (profiles, caches, settings).
_SKIPPED_DIRS = {".cache", ".config", ".local", ".mozilla", ".thunderbird", ".pki", "snap"}
#: Looking for a document name in HOME stops after this many files (a HOME is small here).
_MAX_FILES = 20_000


class DesktopRestoreError(PcAgentError):
    """An application could not be reopened while restoring a recorded desktop."""


def is_document(relative: str) -> bool:
    """Whether a path relative to HOME is a user's document (not in a profile, cache or hidden
    folder, not a lock file)."""
    path = PurePosixPath(relative)
    folders = path.parts[:-1]
    if any(part in _SKIPPED_DIRS or part.startswith(".") for part in folders):
        return False
    return not path.name.startswith(".~lock")


def _walk_order(relative: str) -> tuple[tuple[int, str], ...]:
    """Sort key giving the order of a top-down walk: a folder's files before its sub-folders."""
    parts = PurePosixPath(relative).parts
    return (*((1, folder) for folder in parts[:-1]), (0, parts[-1]))


def documents_of_manifest(manifest: HomeManifest) -> dict[str, str]:
    """File name -> path relative to HOME, from a snapshot (first in walk order wins)."""
    found: dict[str, str] = {}
    for relative in sorted([*manifest.files, *manifest.skipped], key=_walk_order):
        if is_document(relative):
            found.setdefault(PurePosixPath(relative).name, relative)
    return found


def documents_in(home: Path) -> dict[str, str]:
    """File name -> path relative to ``home`` of the user's files (first found wins)."""
    found: dict[str, str] = {}
    count = 0
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            count += 1
            if count > _MAX_FILES:
                return found
            if not name.startswith(".~lock"):
                found.setdefault(name, str((Path(root) / name).relative_to(home)))
    return found


def _document_of(title: str, documents: Mapping[str, str]) -> str:
    """The file a window title names, e.g. "notes.txt - Mousepad" or "*report.odt - LibreOffice
    Writer" (a leading ``*`` marks unsaved changes); "" when none."""
    candidates = [name for name in documents if name in title]
    return documents[max(candidates, key=len)] if candidates else ""


@dataclass(frozen=True)
class DesktopAccess:
    """The capabilities of one environment, looked up once.

    ``home`` is the environment's local HOME, or None when it has none (whether the run
    snapshots it is the run's setting, see :class:`~pcagent.runtime.record.recorder.StepRecorder`).
    """

    environment: Environment
    catalog: ApplicationCatalog | None
    control: ApplicationControl | None
    home: Path | None
    unsaved: UnsavedWork | None = None
    outgoing: OutgoingMail | None = None

    @classmethod
    def of(cls, environment: Environment) -> DesktopAccess:
        catalog = environment if isinstance(environment, ApplicationCatalog) else None
        control = environment if isinstance(environment, ApplicationControl) else None
        home = environment.home if isinstance(environment, LocalHome) else None
        unsaved = environment if isinstance(environment, UnsavedWork) else None
        outgoing = environment if isinstance(environment, OutgoingMail) else None
        path = Path(home) if home is not None else None
        return cls(environment, catalog, control, path, unsaved, outgoing)

    def current_home(self) -> Path | None:
        """Where the current subtask's files are: with several desktops, the one it works on
        (its HOME on this machine, if it has one here); otherwise ``home``."""
        if isinstance(self.environment, Desktops):
            return self.environment.current_home()
        return self.home

    def unsaved_documents(self) -> list[UnsavedDocument]:
        """Documents open with unsaved changes ([] when the environment cannot tell)."""
        return self.unsaved.unsaved_documents() if self.unsaved is not None else []

    def app_action_kinds(self) -> frozenset[str]:
        """The application actions the environment can carry out (none without the capability)."""
        if isinstance(self.environment, ApplicationInterfaces):
            return frozenset(self.environment.app_action_kinds())
        return frozenset()

    def describe(self) -> dict[str, object]:
        """The environment's own description, for the run's settings ({} when it has none)."""
        if isinstance(self.environment, Describable):
            return dict(self.environment.describe())
        return {}

    def applications(self) -> list[AppInfo]:
        return list(self.catalog.applications()) if self.catalog is not None else []

    def app_of(self, window: WindowInfo | None) -> str:
        if window is None or self.catalog is None:
            return ""
        return self.catalog.app_of_window(window)

    def app_window_present(self, windows: Iterable[WindowInfo], app: str) -> bool:
        return any(self.app_of(window) == app for window in windows)

    def open_windows(
        self, windows: Sequence[WindowInfo], documents: Mapping[str, str]
    ) -> list[OpenWindow]:
        """One entry per window of a known application, with the document its title names."""
        entries = []
        for window in windows:
            app = self.app_of(window)
            if app:
                entries.append(
                    OpenWindow(
                        app=app, title=window.title, document=_document_of(window.title, documents)
                    )
                )
        return entries

    def reopen(self, entries: Sequence[OpenWindow]) -> list[str]:
        """Open each recorded application again (once per app and document), on its document
        when the file still exists. Returns what was opened, for the record; raises
        :class:`DesktopRestoreError` naming the application that failed."""
        control = self._require_control()
        known = {app.name for app in self.applications()}
        opened: list[str] = []
        seen: set[tuple[str, str]] = set()
        for entry in entries:
            key = (entry.app, entry.document)
            if key in seen or (known and entry.app not in known):
                continue
            seen.add(key)
            files = []
            if entry.document and self.home is not None and (self.home / entry.document).is_file():
                files = [str(self.home / entry.document)]
            try:
                control.open_app(entry.app, files)
            except PcAgentError as error:
                raise DesktopRestoreError(
                    f"could not reopen {entry.app} ({entry.document or 'no document'}): {error}"
                ) from error
            opened.append(f"{entry.app}: {entry.document}" if entry.document else entry.app)
        return opened

    def restore(
        self, snapshots: HomeSnapshots, snapshot_id: str | None, apps: Sequence[OpenWindow]
    ) -> tuple[int, int, list[str]]:
        """Put the desktop back as recorded: close its applications, restore HOME from the
        snapshot, reopen the applications on their documents. Returns (files written, files
        removed, applications opened).

        Raises :class:`RunStateError` for an environment that cannot open and close applications,
        or has no HOME to put a recorded snapshot back into; :class:`DesktopRestoreError` when an
        application does not reopen.
        """
        control = self._require_control()
        if snapshot_id and self.home is None:
            raise RunStateError(
                "the run recorded HOME snapshots but this environment has no local HOME to "
                "restore them into"
            )
        control.close_apps()
        written = removed = 0
        if snapshot_id and self.home is not None:
            report = snapshots.restore(self.home, snapshot_id)
            written, removed = len(report.written), len(report.removed)
        return written, removed, self.reopen(apps)

    def _require_control(self) -> ApplicationControl:
        if self.control is None:
            raise RunStateError(
                "this environment cannot open and close applications for the run layer; "
                "resume, rewind and replay need an environment that can (the sandbox desktop)"
            )
        return self.control


def home_file_check(environment: Environment) -> FileCheck | None:
    """Whether a path names a file in ``environment``'s HOME on this machine, found as the
    application actions that read it find it (a bare name in the one folder that holds it);
    None when it has no HOME here."""
    home = environment.home if isinstance(environment, LocalHome) else None
    if home is None:
        return None
    root = Path(home)

    def is_file(path: str) -> bool:
        try:
            return existing_in_home(root, path).is_file()
        except InvalidActionError:  # out of HOME, or several files of that name
            return False

    return is_file
