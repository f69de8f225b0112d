"""Bringing back the unsaved work a run recorded: every step keeps the contents of documents that
had unsaved changes after it, so what an agent threw away (or a crash lost) can be written out
again as files."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath

from pcagent.errors import RunStateError
from pcagent.runtime.record.models import StepRecord
from pcagent.runtime.record.store import RunStore


def step_with_unsaved(store: RunStore, run_id: str, step: int | None = None) -> StepRecord:
    """Step ``step`` of the run, or its last step that recorded unsaved documents;
    :class:`RunStateError` when there is none."""
    if step is not None:
        record = store.step(run_id, step)
        if not record.unsaved:
            raise RunStateError(f"step {step} of run {run_id} recorded no unsaved documents")
        return record
    for record in reversed(store.steps(run_id)):
        if record.unsaved:
            return record
    raise RunStateError(f"run {run_id} recorded no unsaved documents at any step")


def restore_unsaved(
    store: RunStore, run_id: str, target: Path, step: int | None = None
) -> list[Path]:
    """Write the unsaved documents of a step into ``target`` (created if needed), named after
    their documents: ``notes (unsaved at step 7).txt``. Existing files are never overwritten (a
    number is added). Returns the files written."""
    record = step_with_unsaved(store, run_id, step)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for entry in record.unsaved:
        source = store.unsaved_path(run_id, record.step, entry.file)
        if not source.is_file():
            raise RunStateError(f"the recorded contents {source} are missing")
        name = PurePosixPath(entry.document).name if entry.document else entry.title.lstrip("*")
        stem = PurePosixPath(name).stem.strip() or "untitled"
        suffix = PurePosixPath(entry.file).suffix
        path = target / f"{stem} (unsaved at step {record.step}){suffix}"
        number = 2
        while path.exists():
            path = target / f"{stem} (unsaved at step {record.step}, {number}){suffix}"
            number += 1
        shutil.copyfile(source, path)
        written.append(path)
    return written
