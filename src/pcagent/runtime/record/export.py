"""A run as one zip file: its rows as JSON and its step files.

Layout inside the archive (``<run_id>/`` first; the names and the version are
:mod:`pcagent.runtime.record.archive`'s, which reads the archive back)::

    manifest.json {"format": "pcagent-run-export", "version": 1, "run_id": ...}
    run.json      the run (RunRecord)
    steps.json    every step (StepRecord, checkpoint included)
    calls.json    every model call with its attempts
    events.json   every event
    steps/0007/screenshot.png, som.png, listing.txt, unsaved/...   the step files as recorded
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from typing import IO, Any

from pcagent.runtime.record.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    CALLS_FILE,
    EVENTS_FILE,
    MANIFEST_FILE,
    RUN_FILE,
    STEPS_FILE,
    ExportManifest,
)
from pcagent.runtime.record.store import RunStore

#: Files stored without compression (already compressed).
_STORED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gz", ".zip")


def _json(rows: Any) -> str:
    return json.dumps(rows, ensure_ascii=False, indent=1)


def export_run(store: RunStore, run_id: str) -> IO[bytes]:
    """The zip of run ``run_id`` (a full id), as a temporary file positioned at its start; the
    caller closes it (which deletes it). Raises RunNotFoundError for an unknown run."""
    run = store.get_run(run_id)
    folder = store.run_dir(run.run_id)
    archive_file = tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024)  # noqa: SIM115
    prefix = run.run_id
    with zipfile.ZipFile(archive_file, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        manifest = ExportManifest(format=ARCHIVE_FORMAT, version=ARCHIVE_VERSION, run_id=prefix)
        archive.writestr(f"{prefix}/{MANIFEST_FILE}", _json(manifest.model_dump(mode="json")))
        archive.writestr(f"{prefix}/{RUN_FILE}", _json(run.model_dump(mode="json")))
        archive.writestr(
            f"{prefix}/{STEPS_FILE}",
            _json([s.model_dump(mode="json") for s in store.steps(run.run_id)]),
        )
        archive.writestr(
            f"{prefix}/{CALLS_FILE}",
            _json([c.model_dump(mode="json") for c in store.calls(run.run_id)]),
        )
        archive.writestr(
            f"{prefix}/{EVENTS_FILE}",
            _json([e.model_dump(mode="json") for e in store.events(run.run_id)]),
        )
        steps_folder = folder / "steps"
        if steps_folder.is_dir():
            for path in sorted(steps_folder.rglob("*")):
                if not path.is_file() or path.is_symlink():
                    continue
                compression = (
                    zipfile.ZIP_STORED
                    if path.suffix.lower() in _STORED_SUFFIXES
                    else zipfile.ZIP_DEFLATED
                )
                archive.write(
                    path,
                    f"{prefix}/{path.relative_to(folder).as_posix()}",
                    compress_type=compression,
                )
    archive_file.seek(0)
    return archive_file
