"""The run record: everything a run does, saved as it happens, in one SQLite file plus step files.

Why it exists: a run may be killed at any moment (SIGKILL, a closed terminal, a crashed desktop).
Each completed step is committed before the next one starts, so the run can be resumed from its
last completed step, and any run can later be listed, shown, replayed or rewound to a step.

Layout under the store's root folder (``<data_dir>/runs`` in practice)::

    runs.sqlite                       runs, steps, model calls and events (WAL mode)
    <run_id>/steps/0007/screenshot.png
    <run_id>/steps/0007/som.png       the set-of-mark image Decision saw
    <run_id>/steps/0007/listing.txt   the element listing, for reading without a database tool

What is stored is typed (:mod:`pcagent.runtime.record.models`); the file's layout and its upgrades
are in :mod:`pcagent.runtime.record.schema`, the connection in
:mod:`pcagent.runtime.record.database`, the step files in :mod:`pcagent.runtime.record.files`.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

from PIL import Image
from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from pcagent.config import validation_problems
from pcagent.errors import RecordError, RunNotFoundError, RunStateError
from pcagent.runtime.record import run_owner
from pcagent.runtime.record.database import to_json
from pcagent.runtime.record.files import (
    SCREENSHOT_FILE,
    SET_OF_MARK_FILE,
    UNSAVED_FOLDER,
    write_step_files,
    write_unsaved_files,
)
from pcagent.runtime.record.log import CallAndEventLog
from pcagent.runtime.record.models import (
    CallAttempt,
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    RunRecord,
    RunStatus,
    StepRecord,
    StepResult,
)
from pcagent.runtime.record.schema import SCHEMA_VERSION

_RUN_ID_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_STEP_COLUMNS = tuple(StepRecord.model_fields)
#: StepRecord fields stored as JSON text.
_STEP_JSON_COLUMNS = frozenset(
    {"action", "result", "reflection", "hub", "state", "apps", "unsaved"}
)


class RunStore(CallAndEventLog):
    """The run record of one data folder: create runs, append steps, calls and events, read them.

    Thread-safe (one connection, one lock); several processes may share the folder. The database
    is opened on first use, creating the folder and the file if needed. Methods taking a
    ``run_id`` want a full id; only :meth:`get_run` accepts a prefix. Use as a context manager or
    call :meth:`close`.
    """

    # --- runs --------------------------------------------------------------------------------

    def create_run(
        self,
        instruction: str,
        settings: dict[str, Any],
        *,
        parent_run: str | None = None,
        parent_step: int | None = None,
    ) -> RunRecord:
        """Record a new run with status ``running``.

        Its id is readable and sorts by creation time: UTC time plus 4 random hex digits, e.g.
        ``20261122-153012-3fa9``. Raises RunNotFoundError when ``parent_run`` is unknown.
        """
        now = time.time()
        settings_json = to_json(settings)
        with self._transaction("create a run") as conn:
            if parent_run is not None:
                self._require_run(conn, parent_run)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
            while True:
                run_id = f"{stamp}-{secrets.token_hex(2)}"
                if (
                    conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone()
                    is None
                ):
                    break
            conn.execute(
                "INSERT INTO runs (run_id, instruction, status, created_at, updated_at, settings,"
                " parent_run, parent_step) VALUES (?, ?, 'running', ?, ?, ?, ?, ?)",
                (run_id, instruction, now, now, settings_json, parent_run, parent_step),
            )
        run_owner.claim(self.run_dir(run_id))
        return self.get_run(run_id)

    def get_run(self, run_id_or_prefix: str) -> RunRecord:
        """The run with this id, or the only run whose id starts with it.

        Raises RunNotFoundError (listing the most recent ids) when none matches, RunStateError
        (listing the matches) when a prefix matches several.
        """
        wanted = run_id_or_prefix.strip()
        with self._lock, self._guard("read a run"):
            conn = self._connection()
            row = conn.execute("SELECT * FROM runs WHERE run_id = ?", (wanted,)).fetchone()
            if row is not None:
                return self._run_from_row(row)
            rows = (
                conn.execute(
                    "SELECT * FROM runs WHERE substr(run_id, 1, ?) = ? ORDER BY run_id LIMIT 11",
                    (len(wanted), wanted),
                ).fetchall()
                if wanted
                else []
            )
            if not rows:
                raise self._not_found(run_id_or_prefix, conn)
        if len(rows) > 1:
            shown = ", ".join(row["run_id"] for row in rows[:10])
            more = " ..." if len(rows) > 10 else ""
            raise RunStateError(
                f"{run_id_or_prefix!r} matches several runs: {shown}{more}; give more of the id"
            )
        return self._run_from_row(rows[0])

    def list_runs(self, limit: int = 50) -> list[RunRecord]:
        """The most recent runs, newest first."""
        rows = self._query(
            "list runs",
            "SELECT * FROM runs ORDER BY created_at DESC, run_id DESC LIMIT ?",
            (limit,),
        )
        return [self._run_from_row(row) for row in rows]

    def set_status(self, run_id: str, status: RunStatus, summary: str = "") -> None:
        """Set a run's status and summary (the summary is replaced, also by an empty one).

        Raises ValueError for an unknown status, RunNotFoundError for an unknown run.
        """
        if status not in get_args(RunStatus):
            raise ValueError(f"unknown run status {status!r}; use one of {get_args(RunStatus)}")
        with self._transaction("set a run's status") as conn:
            cursor = conn.execute(
                "UPDATE runs SET status = ?, summary = ?, updated_at = ? WHERE run_id = ?",
                (status, summary, time.time(), run_id),
            )
            if cursor.rowcount == 0:
                raise self._not_found(run_id, conn)
        if status == "running":  # resumed: this process carries it on now
            run_owner.claim(self.run_dir(run_id))

    def update_settings(self, run_id: str, settings: dict[str, Any]) -> None:
        """Merge ``settings`` into the run's settings (top-level keys replaced, like dict.update).

        Raises RunNotFoundError for an unknown run.
        """
        with self._transaction("update a run's settings") as conn:
            row = conn.execute("SELECT settings FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                raise self._not_found(run_id, conn)
            merged = {**json.loads(row["settings"]), **to_jsonable_python(settings)}
            conn.execute(
                "UPDATE runs SET settings = ?, updated_at = ? WHERE run_id = ?",
                (to_json(merged), time.time(), run_id),
            )

    def _run_from_row(self, row: sqlite3.Row) -> RunRecord:
        values = dict(row)
        values["settings"] = json.loads(values["settings"])
        if values["status"] == "running" and run_owner.owner_gone(self.run_dir(values["run_id"])):
            values["status"], values["summary"] = "interrupted", run_owner.GONE_SUMMARY
        return RunRecord.model_validate(values)

    # --- steps -------------------------------------------------------------------------------

    def run_dir(self, run_id: str) -> Path:
        """The folder of a run's files (it may not exist yet)."""
        if not _RUN_ID_SAFE.fullmatch(run_id):
            raise RunNotFoundError(f"{run_id!r} is not a run id")
        return self.root / run_id

    def step_dir(self, run_id: str, step: int) -> Path:
        """The folder of one step's files, e.g. ``<root>/<run_id>/steps/0007`` (may not exist)."""
        return self.run_dir(run_id) / "steps" / f"{step:04d}"

    def screenshot_path(self, run_id: str, step: int) -> Path:
        """Where the step's screenshot is (the file exists only if one was written)."""
        return self.step_dir(run_id, step) / SCREENSHOT_FILE

    def unsaved_path(self, run_id: str, step: int, name: str) -> Path:
        """Where the contents of one of the step's unsaved documents are (see
        :attr:`StepRecord.unsaved`)."""
        return self.step_dir(run_id, step) / UNSAVED_FOLDER / name

    def set_of_mark_path(self, run_id: str, step: int) -> Path:
        """Where the step's set-of-mark image is (the file exists only if one was written)."""
        return self.step_dir(run_id, step) / SET_OF_MARK_FILE

    def write_step(
        self,
        step: StepRecord,
        *,
        screenshot: Image.Image | None = None,
        set_of_mark: Image.Image | None = None,
        unsaved_files: Sequence[tuple[str, bytes]] = (),
    ) -> None:
        """Record a completed step, replacing any earlier record of the same step number.

        The files go first (each written under a temporary name, then renamed into place), then
        one transaction stores the row and the run's step count. When this returns, the step
        survives the death of the process. Files of an earlier record of this step that are not
        given again are removed. Raises RunNotFoundError for an unknown run, RecordError when
        the disk or the database refuses.
        """
        with self._lock, self._guard("check the run"):
            self._require_run(self._connection(), step.run_id)
        folder = self.step_dir(step.run_id, step.step)
        try:
            write_step_files(folder, screenshot, set_of_mark, step.listing)
            write_unsaved_files(folder, list(unsaved_files))
        except OSError as exc:
            raise RecordError(
                f"could not write the files of step {step.step} in {folder}: {exc}. "
                "Free some disk space or check the folder's permissions."
            ) from exc

        values = step.model_dump(mode="json")
        row = tuple(
            to_json(values[name]) if name in _STEP_JSON_COLUMNS else values[name]
            for name in _STEP_COLUMNS
        )
        with self._transaction(f"write step {step.step}") as conn:
            conn.execute(
                f"INSERT OR REPLACE INTO steps ({', '.join(_STEP_COLUMNS)}) "
                f"VALUES ({', '.join('?' for _ in _STEP_COLUMNS)})",
                row,
            )
            self._recount(conn, step.run_id)

    def steps(self, run_id: str, *, upto: int | None = None) -> list[StepRecord]:
        """The run's recorded steps in order, only those ``<= upto`` when given (empty for an
        unknown run)."""
        limit = upto if upto is not None else -1
        rows = self._query(
            "read steps",
            "SELECT * FROM steps WHERE run_id = ? AND (? < 0 OR step <= ?) ORDER BY step",
            (run_id, limit, limit),
        )
        return [self._step_from_row(row) for row in rows]

    def step(self, run_id: str, step: int) -> StepRecord:
        """One recorded step.

        Raises RunNotFoundError for an unknown run, RunStateError (naming the recorded range)
        when the run has no such step.
        """
        with self._lock, self._guard("read a step"):
            conn = self._connection()
            row = conn.execute(
                "SELECT * FROM steps WHERE run_id = ? AND step = ?", (run_id, step)
            ).fetchone()
            if row is not None:
                return self._step_from_row(row)
            self._require_run(conn, run_id)
            first, last, count = conn.execute(
                "SELECT min(step), max(step), count(*) FROM steps WHERE run_id = ?", (run_id,)
            ).fetchone()
        if count == 0:
            raise RunStateError(f"run {run_id} has no recorded steps yet, so no step {step}")
        gaps = "" if count == last - first + 1 else f" ({count} of them recorded)"
        raise RunStateError(
            f"run {run_id} has no step {step}; its recorded steps are {first} to {last}{gaps}"
        )

    def last_step(self, run_id: str) -> StepRecord | None:
        """The run's highest-numbered recorded step, None when it has none."""
        rows = self._query(
            "read the last step",
            "SELECT * FROM steps WHERE run_id = ? ORDER BY step DESC LIMIT 1",
            (run_id,),
        )
        return self._step_from_row(rows[0]) if rows else None

    def delete_steps_after(self, run_id: str, step: int) -> None:
        """Forget everything after ``step`` (for rewinding a run in place): the later steps, the
        model calls and events recorded at those steps, and their files. The run's step and token
        counts are recomputed. ``step=0`` forgets every step.

        Raises RunNotFoundError for an unknown run; RecordError when files cannot be removed
        (the rows are gone by then; the leftover folders are harmless).
        """
        if step < 0:
            raise ValueError(f"step must be 0 or more, not {step}")
        with self._transaction(f"delete the steps after {step}") as conn:
            self._require_run(conn, run_id)
            for table in ("steps", "calls", "events"):
                conn.execute(f"DELETE FROM {table} WHERE run_id = ? AND step > ?", (run_id, step))
            self._recount(conn, run_id)
        # Rows first, then files: a kill in between leaves only orphan folders, never rows whose
        # files are missing.
        steps_folder = self.run_dir(run_id) / "steps"
        if not steps_folder.is_dir():
            return
        for folder in steps_folder.iterdir():
            if folder.name.isdigit() and int(folder.name) > step:
                try:
                    shutil.rmtree(folder)
                except OSError as exc:
                    raise RecordError(
                        f"the steps after {step} of run {run_id} were forgotten, but their "
                        f"folder {folder} could not be removed: {exc}. Remove it by hand."
                    ) from exc

    @staticmethod
    def _recount(conn: sqlite3.Connection, run_id: str) -> None:
        conn.execute(
            "UPDATE runs SET"
            " steps = (SELECT count(*) FROM steps WHERE run_id = :run),"
            " tokens = (SELECT coalesce(sum(prompt_tokens + completion_tokens), 0)"
            "           FROM calls WHERE run_id = :run),"
            " updated_at = :now WHERE run_id = :run",
            {"run": run_id, "now": time.time()},
        )

    def _step_from_row(self, row: sqlite3.Row) -> StepRecord:
        values = dict(row)
        for name in _STEP_JSON_COLUMNS:
            if values[name] is not None:
                values[name] = json.loads(values[name])
        try:
            return StepRecord.model_validate(values)
        except ValidationError as error:
            raise RecordError(
                f"step {values['step']} of run {values['run_id']} in {self.db_path} cannot be "
                f"read: {validation_problems(error)}"
            ) from None


__all__ = [
    "SCHEMA_VERSION",
    "CallAttempt",
    "ModelCallRecord",
    "ReflectionRecord",
    "RunEvent",
    "RunRecord",
    "RunStatus",
    "RunStore",
    "StepRecord",
    "StepResult",
]
