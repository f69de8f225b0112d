"""The layout of a run's export archive, and reading one back safely.

The export (:mod:`pcagent.runtime.record.export`) writes these names and the import
(:mod:`pcagent.runtime.record.importer`) reads them: everything under one folder named after the
run, ``manifest.json`` (:data:`ARCHIVE_FORMAT`, :data:`ARCHIVE_VERSION`), ``run.json``,
``steps.json``, ``calls.json``, ``events.json`` and the step files under ``steps/``. Exports made
before the manifest existed (the same files without it) are read as version 0.

An archive comes from elsewhere, so nothing in it is trusted: every row is validated through the
record models, member names that would leave the run's folder (``../``, absolute paths) are
refused, and sizes are capped both by what the archive declares and by what is actually read.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from pcagent.config import validation_problems
from pcagent.errors import RecordError
from pcagent.runtime.record.models import ModelCallRecord, RunEvent, RunRecord, StepRecord

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


@dataclass
class Archive:
    """A checked archive: its rows, validated, and the step files still to unpack."""

    run: RunRecord
    steps: list[StepRecord]
    calls: list[ModelCallRecord]
    events: list[RunEvent]
    #: ``(member, path inside the run's folder)`` of every step file.
    files: list[tuple[zipfile.ZipInfo, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class Budget:
    """Counts the bytes actually unpacked, whatever the archive declares."""

    left: int

    def take(self, count: int, name: str, limit: int) -> None:
        self.left -= count
        if self.left < 0:
            raise RunImportError(
                f"the archive unpacks to more than {limit} bytes (reached at {name!r}); it is "
                "not an export of one run, or it is damaged"
            )


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


def read_archive(
    archive: zipfile.ZipFile,
    path: Path,
    budget: Budget,
    max_total_bytes: int,
    max_member_bytes: int,
) -> Archive:
    """The archive's rows, validated, and its step files, checked before anything is unpacked:
    :class:`RunImportError` for an unsafe, oversized or foreign archive."""
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
    return Archive(run, steps, calls, events, files)


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
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget, limit: int
) -> bytes:
    return b"".join(member_chunks(archive, member, budget, limit))


def member_chunks(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget, limit: int
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


def renamed(archive: Archive, new_id: str) -> Archive:
    """The same archive with every row under ``new_id`` (an import with ``--as``)."""

    def moved(row: Any) -> Any:
        return row.model_copy(update={"run_id": new_id})

    return Archive(
        moved(archive.run),
        [moved(step) for step in archive.steps],
        [moved(call) for call in archive.calls],
        [moved(event) for event in archive.events],
        archive.files,
    )
