"""Bringing a run exported as a zip (:func:`pcagent.runtime.record_export.export_run`) into a run store.

The archive's layout is defined here, next to the store it is read into, and the export writes
it from these names: everything under one folder named after the run, ``manifest.json``
(:data:`ARCHIVE_FORMAT`, :data:`ARCHIVE_VERSION`), ``run.json``, ``steps.json``, ``calls.json``,
``events.json`` and the step files under ``steps/``. Exports made before the manifest existed
(the same files without it) are read as version 0.

An archive comes from elsewhere, so nothing in it is trusted: every row is validated through
the record models, member names that would leave the run's folder (``../``, absolute paths) are
refused, and sizes are capped both by what the archive declares and by what is actually read.
The import is all or nothing: the files are unpacked into a hidden folder of the store, the rows
go in one transaction, and the folder is renamed into place just before that transaction commits.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sqlite3
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from pcagent.config import validation_problems
from pcagent.errors import RecordError, RunNotFoundError
from pcagent.runtime.record_database import to_json
from pcagent.runtime.record_models import ModelCallRecord, RunEvent, RunRecord, StepRecord
from pcagent.runtime.records import _STEP_COLUMNS, _STEP_JSON_COLUMNS, RunStore

#: What ``manifest.json`` says an archive is.
ARCHIVE_FORMAT = "pcagent-run-export"
#: The layout version the export writes; 0 is an export from before the manifest.
ARCHIVE_VERSION = 1
MANIFEST_FILE = "manifest.json"
RUN_FILE = "run.json"
STEPS_FILE = "steps.json"
CALLS_FILE = "calls.json"
EVENTS_FILE = "events.json"
ROW_FILES = (RUN_FILE, STEPS_FILE, CALLS_FILE, EVENTS_FILE)
#: The folder (inside the run's) holding the step files.
STEPS_FOLDER = "steps"

#: The most an archive may unpack to, all members together, in bytes.
MAX_TOTAL_BYTES = 2 * 1024**3
#: The most one member may unpack to, in bytes (a screenshot is a few hundred kilobytes).
MAX_MEMBER_BYTES = 512 * 1024**2

_CHUNK = 1024 * 1024
_DRIVE = re.compile(r"[A-Za-z]:")
_STEP_NUMBER = re.compile(r"\d{1,9}")
_STEPS: TypeAdapter[list[StepRecord]] = TypeAdapter(list[StepRecord])
_CALLS: TypeAdapter[list[ModelCallRecord]] = TypeAdapter(list[ModelCallRecord])
_EVENTS: TypeAdapter[list[RunEvent]] = TypeAdapter(list[RunEvent])


class RunImportError(RecordError):
    """An archive that cannot be imported: not a zip, not a run export, unsafe or too large, or
    a run that is already in the store. Nothing has been written when it is raised."""


class ExportManifest(BaseModel):
    """``manifest.json``: what the archive is and which run it holds."""

    format: str
    version: int
    run_id: str


@dataclass(frozen=True)
class ImportedRun:
    """What :func:`import_run` wrote."""

    run: RunRecord
    #: The step files unpacked.
    files: int
    #: The run it was rewound from, when that run is not in this store (the link is dropped).
    missing_parent: str | None = None


@dataclass
class _Archive:
    """A checked archive: its rows, validated, and the step files still to unpack."""

    run: RunRecord
    steps: list[StepRecord]
    calls: list[ModelCallRecord]
    events: list[RunEvent]
    #: ``(member, path inside the run's folder)`` of every step file.
    files: list[tuple[zipfile.ZipInfo, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class _Unpacked:
    """Where the step files are unpacked, where they go, and whether they went there."""

    staging: Path
    final: Path
    moved: bool = False


@dataclass
class _Budget:
    """Counts the bytes actually unpacked, whatever the archive declares."""

    left: int

    def take(self, count: int, name: str, limit: int) -> None:
        self.left -= count
        if self.left < 0:
            raise RunImportError(
                f"the archive unpacks to more than {limit} bytes (reached at {name!r}); it is "
                "not an export of one run, or it is damaged"
            )


def import_run(
    store: RunStore,
    archive_path: Path,
    *,
    new_id: str | None = None,
    max_total_bytes: int = MAX_TOTAL_BYTES,
    max_member_bytes: int = MAX_MEMBER_BYTES,
) -> ImportedRun:
    """Write the run exported in ``archive_path`` into ``store``: its row, steps, calls, events
    and step files, under its own id or ``new_id``.

    Raises RunImportError (a RecordError) for a file that is not a zip or not a run export, a
    member that would be written outside the run's folder, an archive larger than the caps, or
    a run id already in the store; RecordError when the disk or the database refuses. On any
    error nothing of the run is left in the store.
    """
    archive_path = Path(archive_path)
    try:
        opened = zipfile.ZipFile(archive_path)
    except FileNotFoundError:
        raise RunImportError(f"{archive_path} does not exist") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise RunImportError(
            f"{archive_path} is not a zip file ({exc}); give the zip of a run exported from the "
            "viewer (/runs/RUN/export.zip)"
        ) from None
    with opened:
        budget = _Budget(max_total_bytes)
        archive = _read_archive(opened, archive_path, budget, max_total_bytes, max_member_bytes)
        if new_id is not None:
            archive = _renamed(archive, new_id)
        run_id = archive.run.run_id
        try:
            final = store.run_dir(run_id)
        except RunNotFoundError:
            raise RunImportError(
                f"{run_id!r} cannot be a run id: use letters, digits, '.', '_' and '-', starting "
                "with a letter or digit"
            ) from None
        _refuse_existing(store, run_id, final)
        store.root.mkdir(parents=True, exist_ok=True)
        unpacked = _Unpacked(store.root / f".import-{run_id}-{secrets.token_hex(4)}", final)
        try:
            _unpack(opened, archive.files, unpacked.staging, budget, max_total_bytes)
            missing_parent = _write_rows(store, archive, unpacked)
        except BaseException:
            # The rows were rolled back (or never written): the files must go too. A failure
            # while removing them cannot be reported better than the one being raised.
            if unpacked.moved:
                shutil.rmtree(final, ignore_errors=True)
            raise
        finally:
            if unpacked.staging.exists():
                shutil.rmtree(unpacked.staging, ignore_errors=True)
    return ImportedRun(store.get_run(run_id), len(archive.files), missing_parent)


# --- reading --------------------------------------------------------------------------------------


def _member_parts(name: str) -> tuple[str, ...]:
    """The parts of a member's name, refusing one that could be written outside its folder."""
    if (
        "\\" in name
        or "\x00" in name
        or name.startswith("/")
        or _DRIVE.match(name)
        or any(part in ("", ".", "..") for part in name.rstrip("/").split("/"))
    ):
        raise RunImportError(
            f"the archive holds a member named {name!r}, which would be written outside the "
            "run's folder; it was not made by the export and is not imported"
        )
    return tuple(name.rstrip("/").split("/"))


def _read_archive(
    archive: zipfile.ZipFile,
    path: Path,
    budget: _Budget,
    max_total_bytes: int,
    max_member_bytes: int,
) -> _Archive:
    members = archive.infolist()
    if not members:
        raise RunImportError(f"{path} is an empty zip, not a run export")
    named: dict[tuple[str, ...], zipfile.ZipInfo] = {}
    declared = 0
    for member in members:
        parts = _member_parts(member.filename)
        if member.flag_bits & 0x1:
            raise RunImportError(f"{member.filename!r} in {path} is encrypted; exports never are")
        if member.file_size > max_member_bytes:
            raise RunImportError(
                f"{member.filename!r} in {path} declares {member.file_size} bytes, more than the "
                f"{max_member_bytes} one member of an export may hold"
            )
        declared += member.file_size
        if not member.is_dir():
            named[parts] = member
    if declared > max_total_bytes:
        raise RunImportError(
            f"{path} declares {declared} bytes in all, more than the {max_total_bytes} an export "
            "may unpack to"
        )
    prefixes = {parts[0] for parts in named}
    if len(prefixes) != 1:
        raise RunImportError(
            f"{path} is not a run export: an export holds one folder named after the run, this "
            f"holds {sorted(prefixes)[:5]}"
        )
    (prefix,) = prefixes

    def text(name: str) -> str:
        member = named.get((prefix, name))
        if member is None:
            raise RunImportError(f"{path} is not a run export: it has no {prefix}/{name}")
        try:
            return _read_member(archive, member, budget, max_total_bytes).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RunImportError(f"{prefix}/{name} in {path} is not UTF-8 text: {exc}") from None

    version = _version(named, prefix, path, text)
    run = _validated(RunRecord, text(RUN_FILE), RUN_FILE, path)
    steps = _validated(_STEPS, text(STEPS_FILE), STEPS_FILE, path)
    calls = _validated(_CALLS, text(CALLS_FILE), CALLS_FILE, path)
    events = _validated(_EVENTS, text(EVENTS_FILE), EVENTS_FILE, path)
    if run.run_id != prefix:
        raise RunImportError(f"{path} holds run {run.run_id} in a folder named {prefix!r}")
    for kind, rows in (("step", steps), ("model call", calls), ("event", events)):
        others = {row.run_id for row in rows} - {run.run_id}
        if others:
            raise RunImportError(
                f"{path} is damaged: a {kind} of run {run.run_id} names run {sorted(others)[0]}"
            )
    known = {MANIFEST_FILE, *ROW_FILES} if version else set(ROW_FILES)
    files = []
    for parts, member in sorted(named.items()):
        inside = parts[1:]
        if len(inside) == 1 and inside[0] in known:
            continue
        if len(inside) < 3 or inside[0] != STEPS_FOLDER or not _STEP_NUMBER.fullmatch(inside[1]):
            raise RunImportError(
                f"{path} holds {member.filename!r}, which is no part of a run export (step files "
                f"are under {prefix}/{STEPS_FOLDER}/NNNN/)"
            )
        files.append((member, inside))
    return _Archive(run, steps, calls, events, files)


def _version(
    named: dict[tuple[str, ...], zipfile.ZipInfo],
    prefix: str,
    path: Path,
    text: Callable[[str], str],
) -> int:
    """The archive's layout version: its manifest's, or 0 for an export made before manifests
    (which has every row file)."""
    if (prefix, MANIFEST_FILE) not in named:
        if all((prefix, name) in named for name in ROW_FILES):
            return 0
        raise RunImportError(
            f"{path} is not a run export: it has no {prefix}/{MANIFEST_FILE}; give the zip of a "
            "run exported from the viewer (/runs/RUN/export.zip)"
        )
    manifest = _validated(ExportManifest, text(MANIFEST_FILE), MANIFEST_FILE, path)
    if manifest.format != ARCHIVE_FORMAT:
        raise RunImportError(
            f"{path} is a {manifest.format!r} archive, not a {ARCHIVE_FORMAT!r} run export"
        )
    if not 1 <= manifest.version <= ARCHIVE_VERSION:
        raise RunImportError(
            f"{path} is a run export of layout version {manifest.version}; this pcagent reads "
            f"versions up to {ARCHIVE_VERSION}. Upgrade pcagent to import it."
        )
    if manifest.run_id != prefix:
        raise RunImportError(f"{path} names run {manifest.run_id} but holds folder {prefix!r}")
    return manifest.version


def _validated(model: Any, text: str, name: str, path: Path) -> Any:
    adapter = model if isinstance(model, TypeAdapter) else TypeAdapter(model)
    try:
        return adapter.validate_json(text)
    except ValidationError as error:
        raise RunImportError(
            f"{name} in {path} cannot be read: {validation_problems(error)}"
        ) from None


def _read_member(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: _Budget, limit: int
) -> bytes:
    return b"".join(_chunks(archive, member, budget, limit))


def _chunks(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: _Budget, limit: int
) -> Iterator[bytes]:
    """The member's bytes, counted against its declared size and the archive's budget as they
    are unpacked (a zip's declared sizes may lie)."""
    read = 0
    try:
        with archive.open(member) as source:
            while chunk := source.read(_CHUNK):
                read += len(chunk)
                if read > member.file_size:
                    raise RunImportError(
                        f"{member.filename!r} unpacks to more than the {member.file_size} bytes "
                        "it declares; the archive is damaged or forged"
                    )
                budget.take(len(chunk), member.filename, limit)
                yield chunk
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise RunImportError(f"{member.filename!r} cannot be unpacked: {exc}") from None


def _renamed(archive: _Archive, new_id: str) -> _Archive:
    def moved(row: Any) -> Any:
        return row.model_copy(update={"run_id": new_id})

    return _Archive(
        moved(archive.run),
        [moved(step) for step in archive.steps],
        [moved(call) for call in archive.calls],
        [moved(event) for event in archive.events],
        archive.files,
    )


# --- writing --------------------------------------------------------------------------------------


def _refuse_existing(store: RunStore, run_id: str, folder: Path) -> None:
    if store._query("look for the run", "SELECT 1 FROM runs WHERE run_id = ?", (run_id,)):
        raise RunImportError(
            f"run {run_id} is already in {store.db_path}; import it under another id with "
            "--as NEW_ID"
        )
    if folder.exists():
        raise RunImportError(
            f"{folder} already exists though no run {run_id} is recorded; move it aside or "
            "import under another id with --as NEW_ID"
        )


def _unpack(
    archive: zipfile.ZipFile,
    files: list[tuple[zipfile.ZipInfo, tuple[str, ...]]],
    staging: Path,
    budget: _Budget,
    limit: int,
) -> None:
    staging.mkdir()
    root = staging.resolve()
    for member, inside in files:
        target = staging.joinpath(*inside)
        # The names were checked part by part; this is the last word on where a file goes.
        if not target.resolve().is_relative_to(root):
            raise RunImportError(f"{member.filename!r} would be written outside {staging}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("xb") as out:
                for chunk in _chunks(archive, member, budget, limit):
                    out.write(chunk)
        except OSError as exc:
            raise RecordError(
                f"could not unpack {member.filename!r} into {staging}: {exc}. Free some disk "
                "space or check the folder's permissions."
            ) from exc


def _write_rows(store: RunStore, archive: _Archive, unpacked: _Unpacked) -> str | None:
    """Insert every row in one transaction and move the files into place before it commits.
    Returns the parent run whose link was dropped, if any."""
    run = archive.run
    # The store's own transaction: a failure anywhere in here rolls every row back.
    with store._transaction(f"import run {run.run_id}") as conn:
        if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run.run_id,)).fetchone():
            raise RunImportError(
                f"run {run.run_id} is already in {store.db_path}; import it under another id "
                "with --as NEW_ID"
            )
        missing_parent = None
        if run.parent_run is not None and not _has_run(conn, run.parent_run):
            # The rewound run's parent stayed on the other machine; the link cannot point at it.
            missing_parent = run.parent_run
            run = run.model_copy(update={"parent_run": None, "parent_step": None})
        values = run.model_dump(mode="json")
        values["settings"] = to_json(values["settings"])
        columns = tuple(RunRecord.model_fields)
        _insert(conn, "runs", columns, tuple(values[name] for name in columns))
        for step in archive.steps:
            dumped = step.model_dump(mode="json")
            _insert(
                conn,
                "steps",
                _STEP_COLUMNS,
                tuple(
                    to_json(dumped[name]) if name in _STEP_JSON_COLUMNS else dumped[name]
                    for name in _STEP_COLUMNS
                ),
            )
        for call in archive.calls:
            _insert(
                conn,
                "calls",
                ("run_id", "step", "agent", "attempts", "ok", "prompt_tokens",
                 "completion_tokens", "latency_s", "created_at"),
                (call.run_id, call.step, call.agent,
                 to_json([attempt.model_dump(mode="json") for attempt in call.attempts]),
                 int(call.ok), call.prompt_tokens, call.completion_tokens, call.latency_s,
                 call.created_at),
            )  # fmt: skip
        for event in archive.events:
            _insert(
                conn,
                "events",
                ("run_id", "step", "kind", "payload", "created_at"),
                (event.run_id, event.step, event.kind,
                 to_json(event.event.model_dump(mode="json")), event.created_at),
            )  # fmt: skip
        # Last before the commit: a failure before this leaves no folder; a failed commit after
        # it is undone by the caller, which removes the folder.
        try:
            os.rename(unpacked.staging, unpacked.final)
        except OSError as exc:
            raise RecordError(
                f"could not move the imported files from {unpacked.staging} to "
                f"{unpacked.final}: {exc}"
            ) from exc
        unpacked.moved = True
    return missing_parent


def _has_run(conn: sqlite3.Connection, run_id: str) -> bool:
    return conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is not None


def _insert(
    conn: sqlite3.Connection, table: str, columns: tuple[str, ...], row: tuple[Any, ...]
) -> None:
    conn.execute(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
        row,
    )


__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "MANIFEST_FILE",
    "ExportManifest",
    "ImportedRun",
    "RunImportError",
    "import_run",
]
