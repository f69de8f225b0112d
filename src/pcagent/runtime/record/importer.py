"""Bringing a run exported as a zip (:func:`pcagent.runtime.record.export.export_run`) into a run store.

The archive's layout, and reading it without trusting it, live in
:mod:`pcagent.runtime.record.archive`. The import is all or nothing: the files are unpacked into
a hidden folder of the store, the rows go in one transaction, and the folder is renamed into
place just before that transaction commits.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcagent.errors import RecordError, RunNotFoundError
from pcagent.runtime.record.archive import (
    MAX_MEMBER_BYTES,
    MAX_TOTAL_BYTES,
    Archive,
    Budget,
    RunImportError,
    member_chunks,
    read_archive,
    renamed,
)
from pcagent.runtime.record.database import to_json
from pcagent.runtime.record.models import RunRecord
from pcagent.runtime.record.store import _STEP_COLUMNS, _STEP_JSON_COLUMNS, RunStore


@dataclass(frozen=True)
class ImportedRun:
    """What :func:`import_run` wrote."""

    run: RunRecord
    #: The step files unpacked.
    files: int
    #: The run it was rewound from, when that run is not in this store (the link is dropped).
    missing_parent: str | None = None


@dataclass
class _Unpacked:
    """Where the step files are unpacked, where they go, and whether they went there."""

    staging: Path
    final: Path
    moved: bool = False


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
        budget = Budget(max_total_bytes)
        archive = read_archive(opened, archive_path, budget, max_total_bytes, max_member_bytes)
        if new_id is not None:
            archive = renamed(archive, new_id)
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
    budget: Budget,
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
                for chunk in member_chunks(archive, member, budget, limit):
                    out.write(chunk)
        except OSError as exc:
            raise RecordError(
                f"could not unpack {member.filename!r} into {staging}: {exc}. Free some disk "
                "space or check the folder's permissions."
            ) from exc


def _write_rows(store: RunStore, archive: Archive, unpacked: _Unpacked) -> str | None:
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


__all__ = ["ImportedRun", "RunImportError", "import_run"]
