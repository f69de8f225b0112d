"""Content-addressed snapshots of the sandbox's HOME folder, so a rewind can put the files back.

Why content-addressed: a snapshot is taken after every step, and between two steps little
changes. Each file's content is stored once, under its SHA-256, in ``<store>/blobs/ab/abc...``;
a snapshot is only a manifest (path -> hash, size, mode) in ``<store>/manifests/<id>.json``,
whose id is the SHA-256 of its canonical JSON. An unchanged HOME costs a directory walk and no
writes; files whose size, modification time and inode are unchanged are not even read again.
What is left out (and never touched by a restore) is described in
:mod:`pcagent.runtime.safety.home_manifest`.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import ValidationError

from pcagent.env.ownership import give_to_owner
from pcagent.errors import RecordError, RunStateError
from pcagent.runtime.safety.home_manifest import (
    DEFAULT_EXCLUDES,
    HASH_CHUNK,
    RACY_WINDOW_NS,
    SHA256_PATTERN,
    CaptureStats,
    Excludes,
    FileEntry,
    HomeManifest,
    RestoreReport,
    canonical_json,
    check_relative,
    checked_home,
    is_under,
    make_folders,
    open_regular,
    remove_empty_folders,
    scan_home,
)


class HomeSnapshots:
    """Captures and restores HOME folders, storing contents once per distinct file content.

    One object remembers the hashes of the files it has seen, so keep it for the whole run.
    Several objects (and processes) may share a store folder: every file in it is written under a
    temporary name and renamed into place, and never changed afterwards.
    """

    def __init__(
        self,
        store_dir: Path,
        *,
        max_file_bytes: int = 50_000_000,
        exclude: Sequence[str] = DEFAULT_EXCLUDES,
    ) -> None:
        """``max_file_bytes``: bigger files are left out (0 leaves out every non-empty file).
        ``exclude``: glob patterns, see :data:`DEFAULT_EXCLUDES`."""
        self.store_dir = Path(store_dir)
        #: Each distinct file content once, named by its sha256 (see :meth:`blob_path`).
        self.blobs_dir = self.store_dir / "blobs"
        #: One manifest per snapshot, named by the snapshot's id (see :meth:`manifest_path`).
        self.manifests_dir = self.store_dir / "manifests"
        self.max_file_bytes = max_file_bytes
        self.exclude = tuple(exclude)
        self._excludes = Excludes(self.exclude)
        #: Absolute path -> (size, mtime_ns, inode, sha256) of files hashed before.
        self._known: dict[str, tuple[int, int, int, str]] = {}
        #: What the last :meth:`capture` cost, and what it found (so a caller that needs the
        #: list of files right after a capture does not walk HOME a second time).
        self.last_capture: CaptureStats | None = None
        self.last_manifest: HomeManifest | None = None

    def blob_path(self, sha256: str) -> Path:
        """Where the content with this hash is stored."""
        return self.blobs_dir / sha256[:2] / sha256

    def manifest_path(self, snapshot_id: str) -> Path:
        """Where the manifest of this snapshot is stored."""
        return self.manifests_dir / f"{snapshot_id}.json"

    # --- capture -----------------------------------------------------------------------------

    def capture(self, home: Path) -> str:
        """Snapshot ``home`` and return the snapshot's id (a SHA-256 in hex).

        Identical trees give the same id and write nothing. Files that cannot be read are listed
        as skipped, not raised. Raises RunStateError when ``home`` is not a folder, RecordError
        when the store cannot be written (disk full, permissions).
        """
        started = time.monotonic()
        home = checked_home(home, create=False)
        stats = CaptureStats()
        found, skipped = scan_home(home, self._excludes)
        files: dict[str, FileEntry] = {}
        unstored: dict[str, FileEntry] = {}
        for relative, status in sorted(found.items()):
            try:
                if status.st_size > self.max_file_bytes:
                    skipped[relative] = (
                        f"too big ({status.st_size} bytes; the limit is {self.max_file_bytes})"
                    )
                    unstored[relative] = self._store_file(
                        home / relative, status, stats, keep=False
                    )
                else:
                    files[relative] = self._store_file(home / relative, status, stats)
            except OSError as exc:
                skipped[relative] = f"unreadable: {exc.strerror or exc}"
        manifest = HomeManifest(files=files, skipped=skipped, unstored=unstored)
        data = canonical_json(manifest)
        snapshot_id = hashlib.sha256(data).hexdigest()
        path = self.manifest_path(snapshot_id)
        if not path.exists():
            self._write_store_file(path, data)
        stats.files = len(files)
        stats.skipped = len(skipped)
        stats.seconds = time.monotonic() - started
        self.last_capture = stats
        self.last_manifest = manifest
        return snapshot_id

    def _store_file(
        self, path: Path, status: os.stat_result, stats: CaptureStats, *, keep: bool = True
    ) -> FileEntry:
        """The entry of one regular file, storing its content if it is new (OSError: unreadable).
        ``keep=False`` (a file too big to store) hashes it only: its loss can then still be told."""
        key = str(path)
        signature = (status.st_size, status.st_mtime_ns, status.st_ino)
        known = self._known.get(key)
        if (
            known is not None
            and known[:3] == signature
            and (not keep or self.blob_path(known[3]).exists())
        ):
            return FileEntry(sha256=known[3], size=status.st_size, mode=status.st_mode & 0o777)

        hashed_at = time.time_ns()
        with open_regular(path) as file:
            sha256 = hashlib.file_digest(file, "sha256").hexdigest()
        stats.hashed_files += 1
        stats.hashed_bytes += status.st_size
        if keep and not self.blob_path(sha256).exists():
            # The file may have changed since it was hashed: the copy hashes what it copies, and
            # that is what the entry records.
            sha256, size = self._copy_into_store(path)
            stats.new_blobs += 1
            stats.new_blob_bytes += size
            status = os.stat(path, follow_symlinks=False)
            signature = (size, status.st_mtime_ns, status.st_ino)
        if status.st_mtime_ns < hashed_at - RACY_WINDOW_NS:
            self._known[key] = (*signature, sha256)
        else:
            self._known.pop(key, None)
        return FileEntry(sha256=sha256, size=signature[0], mode=status.st_mode & 0o777)

    def _copy_into_store(self, source: Path) -> tuple[str, int]:
        """Copy a file into the blob store; returns the hash and size of what was copied.

        OSError: the source could not be read; RecordError: the store could not be written.
        """
        temporary = self.blobs_dir / f".{os.getpid()}-{secrets.token_hex(6)}.tmp"
        digest = hashlib.sha256()
        size = 0
        try:
            with open_regular(source) as file:
                try:
                    self.blobs_dir.mkdir(parents=True, exist_ok=True)
                    # Not a with-block here: only opening and writing mean "the store failed".
                    target = open(temporary, "xb")  # noqa: SIM115
                except OSError as exc:
                    raise self._store_error(temporary, exc) from exc
                with target:
                    while chunk := file.read(HASH_CHUNK):
                        digest.update(chunk)
                        size += len(chunk)
                        try:
                            target.write(chunk)
                        except OSError as exc:
                            raise self._store_error(temporary, exc) from exc
            sha256 = digest.hexdigest()
            final = self.blob_path(sha256)
            if final.exists():
                temporary.unlink()
            else:
                try:
                    final.parent.mkdir(exist_ok=True)
                    # Blobs never change once stored; read-only guards against accidents.
                    temporary.chmod(0o444)
                    os.replace(temporary, final)
                except OSError as exc:
                    raise self._store_error(final, exc) from exc
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return sha256, size

    def _write_store_file(self, path: Path, data: bytes) -> None:
        temporary = path.with_name(f".{os.getpid()}-{secrets.token_hex(6)}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError as exc:
            temporary.unlink(missing_ok=True)
            raise self._store_error(path, exc) from exc

    def _store_error(self, path: Path, error: OSError) -> RecordError:
        return RecordError(
            f"could not write {path} in the HOME snapshot store {self.store_dir}: "
            f"{error.strerror or error}. Free some disk space or check the folder's permissions."
        )

    # --- reading and restoring ---------------------------------------------------------------

    def manifest(self, snapshot_id: str) -> HomeManifest:
        """The manifest of a snapshot.

        Raises RunStateError when the id is malformed or unknown, RecordError when the manifest
        file is damaged.
        """
        if not SHA256_PATTERN.fullmatch(snapshot_id):
            raise RunStateError(f"{snapshot_id!r} is not a HOME snapshot id (64 hex digits)")
        path = self.manifest_path(snapshot_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise RunStateError(
                f"no HOME snapshot {snapshot_id} in {self.store_dir}; it was taken with another "
                "store, or the store was deleted"
            ) from None
        except OSError as exc:
            raise RecordError(f"could not read {path}: {exc.strerror or exc}") from exc
        if hashlib.sha256(data).hexdigest() != snapshot_id:
            raise RecordError(
                f"the HOME snapshot manifest {path} is damaged (its content does not match its "
                "id); this snapshot cannot be used"
            )
        try:
            return HomeManifest.model_validate(json.loads(data))
        except (ValueError, ValidationError) as exc:
            raise RecordError(f"the HOME snapshot manifest {path} is unreadable: {exc}") from exc

    def restore(self, home: Path, snapshot_id: str) -> RestoreReport:
        """Make ``home`` hold exactly the snapshot's files.

        Files that differ are rewritten (content and permissions), missing ones created, files
        not in the snapshot removed (with the folders that leaves empty). Excluded paths, paths
        the snapshot skipped, symbolic links and special files elsewhere are left alone, and no
        link is ever followed. Raises RunStateError for an unknown snapshot or one naming a path
        outside HOME, RecordError when stored contents are missing; nothing is changed then.
        Files that cannot be written are reported in ``skipped``.
        """
        manifest = self.manifest(snapshot_id)
        for relative in manifest.files:
            check_relative(relative, snapshot_id)
        missing = [
            relative
            for relative, entry in manifest.files.items()
            if not self.blob_path(entry.sha256).is_file()
        ]
        if missing:
            raise RecordError(
                f"HOME snapshot {snapshot_id} cannot be restored: the stored contents of "
                f"{len(missing)} file(s) are missing from {self.blobs_dir} (e.g. {missing[0]!r}); "
                "the snapshot store was damaged"
            )
        home = checked_home(home, create=True)
        reasons = dict(manifest.skipped)
        left_alone = set(manifest.skipped)
        wanted: dict[str, FileEntry] = {}
        for relative, entry in manifest.files.items():
            pattern = self._excludes.match_path(relative)
            if pattern is None:
                wanted[relative] = entry
            else:
                reasons[relative] = f"excluded ({pattern})"

        current, _ = scan_home(home, self._excludes)
        removed: list[str] = []
        emptied: set[Path] = set()
        for relative in sorted(current):
            if relative in wanted or is_under(relative, left_alone):
                continue
            try:
                (home / relative).unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                reasons[relative] = f"could not remove it: {exc.strerror or exc}"
                continue
            removed.append(relative)
            emptied.add((home / relative).parent)
        remove_empty_folders(home, emptied)

        written: list[str] = []
        unchanged = 0
        for relative, entry in sorted(wanted.items()):
            target = home / relative
            try:
                if self._matches(target, current.get(relative), entry):
                    if current[relative].st_mode & 0o777 == entry.mode:
                        unchanged += 1
                        continue
                    target.chmod(entry.mode)
                else:
                    self._write_from_store(home, relative, entry)
            except OSError as exc:
                reasons[relative] = f"could not write it: {exc.strerror or exc}"
                continue
            written.append(relative)
        return RestoreReport(
            written=written,
            removed=removed,
            unchanged=unchanged,
            skipped=sorted(reasons),
            reasons=reasons,
        )

    def _matches(self, path: Path, status: os.stat_result | None, entry: FileEntry) -> bool:
        """Whether the current regular file at ``path`` already has the entry's content."""
        if status is None or status.st_size != entry.size:
            return False
        known = self._known.get(str(path))
        if known is not None and known[:3] == (status.st_size, status.st_mtime_ns, status.st_ino):
            return known[3] == entry.sha256
        try:
            with open_regular(path) as file:
                return hashlib.file_digest(file, "sha256").hexdigest() == entry.sha256
        except OSError:
            return False

    def put_back(self, home: Path, snapshot_id: str, paths: Iterable[str]) -> list[str]:
        """Write the given files (paths relative to HOME) as the snapshot holds them, leaving
        everything else alone; returns those written. Paths the snapshot does not hold are
        skipped. Raises like :meth:`restore`."""
        manifest = self.manifest(snapshot_id)
        home = checked_home(home, create=True)
        written = []
        for relative in sorted(set(paths) & set(manifest.files)):
            check_relative(relative, snapshot_id)
            self._write_from_store(home, relative, manifest.files[relative])
            written.append(relative)
        return written

    def _write_from_store(self, home: Path, relative: str, entry: FileEntry) -> None:
        target = home / relative
        make_folders(home, relative)
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.pcagent-tmp")
        try:
            shutil.copyfile(self.blob_path(entry.sha256), temporary)
            temporary.chmod(entry.mode)
            # Renaming replaces whatever is at the target (a file, a link), never what a link
            # points to.
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        # HOME's applications may run as another user, who must be able to save over it.
        give_to_owner(target, home)
