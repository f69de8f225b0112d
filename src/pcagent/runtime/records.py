"""The run record: everything a run does, saved as it happens, in one SQLite file plus step files.

Why it exists: a run may be killed at any moment (SIGKILL, a closed terminal, a crashed desktop).
Each completed step is committed before the next one starts, so the run can be resumed from its
last completed step, and any run can later be listed, shown, replayed or rewound to a step.

Layout under the store's root folder (``<data_dir>/runs`` in practice)::

    runs.sqlite                       runs, steps, model calls and events (WAL mode)
    <run_id>/steps/0007/screenshot.png
    <run_id>/steps/0007/som.png       the set-of-mark image Decision saw
    <run_id>/steps/0007/listing.txt   the element listing, for reading without a database tool

The database is the source of truth: a step's files are written (atomically) *before* its row is
committed, so a step row never points at missing files; files without a row (left by a kill
between the two) are harmless and get replaced when that step is written again.

Several processes may open the same file at once (a run writing, ``pcagent runs list`` reading):
WAL lets readers proceed while a writer commits, and writers wait up to :data:`BUSY_TIMEOUT_S`.
Every SQLite or file error comes out as :class:`~pcagent.errors.RecordError`, naming the file and
what to do.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, get_args

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from pcagent.errors import RecordError, RunNotFoundError, RunStateError

RunStatus = Literal["running", "finished", "failed", "stopped", "interrupted"]

#: Version of the database layout, kept in ``PRAGMA user_version``. Bump it and add a step to
#: ``_MIGRATIONS`` when the layout changes; older files are upgraded in place on open.
SCHEMA_VERSION = 1
DATABASE_FILE = "runs.sqlite"
SCREENSHOT_FILE = "screenshot.png"
SET_OF_MARK_FILE = "som.png"
LISTING_FILE = "listing.txt"
#: Seconds a writer waits for another process's write transaction before giving up.
BUSY_TIMEOUT_S = 30.0
#: PNG compression: screenshots are written every step, speed matters more than a few kilobytes.
PNG_COMPRESS_LEVEL = 1
#: How many run ids a "no such run" message suggests.
SUGGESTED_RUNS = 5

_RUN_ID_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class RunRecord(BaseModel):
    """One recorded run (a row of ``runs``), as it was when read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    instruction: str
    status: RunStatus
    #: Unix seconds.
    created_at: float
    updated_at: float
    #: How the run was configured: mode, ablation, model names, limits... (JSON).
    settings: dict[str, Any]
    #: Final outcome in words; empty while running.
    summary: str = ""
    #: For a run created by rewinding another: that run, and the step it continued from.
    parent_run: str | None = None
    parent_step: int | None = None
    #: Number of completed steps recorded.
    steps: int = 0
    #: Prompt + completion tokens of every recorded model call.
    tokens: int = 0


class StepRecord(BaseModel):
    """One completed step: what was seen, decided, done and judged, and the state to resume from."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    #: 1-based.
    step: int = Field(ge=1)
    subtask_id: str = ""
    role: str = ""
    #: The Decision agent's reasoning.
    thought: str = ""
    #: ``action.model_dump(mode="json")``.
    action: dict[str, Any] | None = None
    #: The ActionResult dump, or ``{"ok": False, "message": ..., "error": <exception type>}``.
    result: dict[str, Any] | None = None
    #: ``{"verdict": ..., "reason": ..., "diff": {...}}``.
    reflection: dict[str, Any] | None = None
    progress: str = ""
    hub: dict[str, str] = Field(default_factory=dict)
    #: The agents' checkpoint (opaque JSON): what resume and rewind restore.
    state: dict[str, Any] = Field(default_factory=dict)
    #: The element listing shown to Decision.
    listing: str = ""
    #: Open applications after the step, e.g. ``{"app": "writer", "document": ..., "title": ...}``.
    apps: list[dict[str, Any]] = Field(default_factory=list)
    #: Id of the HOME snapshot taken after the step (see :mod:`pcagent.runtime.home_snapshot`).
    home_snapshot: str | None = None
    #: Unix seconds.
    started_at: float = 0.0
    duration_ms: float = 0.0
    tokens: int = 0
    error: str | None = None


class ModelCallRecord(BaseModel):
    """One structured model call: one agent asking once, with every attempt it took."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    #: The step the call belongs to; 0 for calls before the first step (the first plan).
    step: int = Field(ge=0)
    #: ``"manager"``, ``"decision"``, ``"reflection"``...
    agent: str
    #: Each ``{"request": ChatRequest.to_record(), "completion": Completion.to_record(),
    #: "failure": str | None}``.
    attempts: list[dict[str, Any]]
    ok: bool
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    #: Unix seconds; 0 means "now" when added.
    created_at: float = 0.0


class RunEvent(BaseModel):
    """Something that happened around the steps: human interaction, refusals, escalations,
    rewinds, resumes."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    #: The step it happened at (0: before the first step).
    step: int = Field(ge=0)
    kind: str
    payload: dict[str, Any] = Field(default_factory=dict)
    #: Unix seconds; 0 means "now" when added.
    created_at: float = 0.0


# --- schema ----------------------------------------------------------------------------------------

# Each entry upgrades the file from version i to i + 1 (a list of statements, run in one
# transaction together with the new user_version).
_MIGRATIONS: list[list[str]] = [
    [
        """
        CREATE TABLE runs (
            run_id      TEXT PRIMARY KEY,
            instruction TEXT NOT NULL,
            status      TEXT NOT NULL,
            created_at  REAL NOT NULL,
            updated_at  REAL NOT NULL,
            settings    TEXT NOT NULL,
            summary     TEXT NOT NULL DEFAULT '',
            parent_run  TEXT REFERENCES runs(run_id) ON DELETE SET NULL,
            parent_step INTEGER,
            steps       INTEGER NOT NULL DEFAULT 0,
            tokens      INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX runs_by_creation ON runs(created_at)",
        """
        CREATE TABLE steps (
            run_id        TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            step          INTEGER NOT NULL CHECK (step >= 1),
            subtask_id    TEXT NOT NULL,
            role          TEXT NOT NULL,
            thought       TEXT NOT NULL,
            action        TEXT,
            result        TEXT,
            reflection    TEXT,
            progress      TEXT NOT NULL,
            hub           TEXT NOT NULL,
            state         TEXT NOT NULL,
            listing       TEXT NOT NULL,
            apps          TEXT NOT NULL,
            home_snapshot TEXT,
            started_at    REAL NOT NULL,
            duration_ms   REAL NOT NULL,
            tokens        INTEGER NOT NULL,
            error         TEXT,
            PRIMARY KEY (run_id, step)
        )
        """,
        """
        CREATE TABLE calls (
            id                INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id            TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            step              INTEGER NOT NULL,
            agent             TEXT NOT NULL,
            attempts          TEXT NOT NULL,
            ok                INTEGER NOT NULL,
            prompt_tokens     INTEGER NOT NULL,
            completion_tokens INTEGER NOT NULL,
            latency_s         REAL NOT NULL,
            created_at        REAL NOT NULL
        )
        """,
        "CREATE INDEX calls_by_step ON calls(run_id, step)",
        """
        CREATE TABLE events (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id     TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            step       INTEGER NOT NULL,
            kind       TEXT NOT NULL,
            payload    TEXT NOT NULL,
            created_at REAL NOT NULL
        )
        """,
        "CREATE INDEX events_by_step ON events(run_id, step)",
    ],
]

_STEP_COLUMNS = tuple(StepRecord.model_fields)
#: StepRecord fields stored as JSON text (NULL stays NULL).
_STEP_JSON_COLUMNS = frozenset({"action", "result", "reflection", "hub", "state", "apps"})


def _to_json(value: Any) -> str:
    return json.dumps(to_jsonable_python(value), ensure_ascii=False, separators=(",", ":"))


def _advice(error: sqlite3.Error) -> str:
    """What the user can do about an SQLite error, in words."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return (
            f"Another pcagent process kept it locked for more than {BUSY_TIMEOUT_S:.0f} s; "
            "wait for that process to finish (or stop it) and try again."
        )
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return (
            "The file is damaged. Move it aside (its runs will no longer be listed; the step "
            "folders next to it stay readable) and try again."
        )
    if "full" in text or "disk i/o" in text:
        return "Free some disk space and try again."
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return "Check that the folder exists and is writable, or point PCAGENT_DATA_DIR to another one."
    return "Check the file, its permissions and the free disk space."


class RunStore:
    """The run record of one data folder: create runs, append steps, calls and events, read them.

    Thread-safe (one connection, one lock); several processes may share the folder. The database
    is opened on first use, creating the folder and the file if needed. Methods taking a
    ``run_id`` want a full id; only :meth:`get_run` accepts a prefix. Use as a context manager or
    call :meth:`close`.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.db_path = self.root / DATABASE_FILE
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    # --- connection --------------------------------------------------------------------------

    def __enter__(self) -> RunStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the database. Safe to call twice; the store cannot be used afterwards."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                conn, self._conn = self._conn, None
                try:
                    conn.close()
                except sqlite3.Error as exc:
                    raise self._record_error("close", exc) from exc

    def _record_error(self, doing: str, error: sqlite3.Error) -> RecordError:
        return RecordError(
            f"could not {doing} in the run record {self.db_path}: {error}. {_advice(error)}"
        )

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise self._record_error(doing, exc) from exc

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise RecordError(f"the run store at {self.root} was closed; open a new RunStore")
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordError(
                f"could not create the run record folder {self.root}: {exc}. Check the "
                "permissions, or point PCAGENT_DATA_DIR to a writable folder."
            ) from exc
        with self._guard("open the database"):
            # Autocommit mode (isolation_level=None): transactions are explicit, BEGIN IMMEDIATE
            # ... COMMIT, so a write never waits halfway for a lock held by another process.
            conn = sqlite3.connect(
                self.db_path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            try:
                conn.row_factory = sqlite3.Row
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise RecordError(
                        f"the run record {self.db_path} cannot use write-ahead logging (journal "
                        f"mode stays {mode!r}); keep PCAGENT_DATA_DIR on a local file system."
                    )
                # Durability: a committed step must survive the death of this process (SIGKILL,
                # crash). In WAL mode every commit is written to the -wal file before COMMIT
                # returns, and the operating system keeps it even if the process dies at once;
                # NORMAL only skips the fsync, so only a power loss or kernel crash could lose
                # the last commits. FULL would add an fsync per step for that case alone, while
                # the step's image files are not fsynced either: NORMAL is the consistent choice.
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA foreign_keys=ON")
                self._migrate(conn)
            except BaseException:
                conn.close()
                raise
        return conn

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = self._schema_version(conn)
        if version == SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have created or upgraded the file while we waited for the lock.
            version = self._schema_version(conn)
            for statements in _MIGRATIONS[version:]:
                for statement in statements:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _schema_version(self, conn: sqlite3.Connection) -> int:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise RecordError(
                f"the run record {self.db_path} was written by a newer pcagent (schema version "
                f"{version}; this one reads up to {SCHEMA_VERSION}). Upgrade pcagent, or point "
                "PCAGENT_DATA_DIR to another folder."
            )
        return version

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction; taken at once (IMMEDIATE) so it cannot deadlock halfway."""
        with self._lock, self._guard(doing):
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _query(self, doing: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock, self._guard(doing):
            return self._connection().execute(sql, parameters).fetchall()

    def _require_run(self, conn: sqlite3.Connection, run_id: str) -> None:
        if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
            raise self._not_found(run_id, conn)

    def _not_found(self, wanted: str, conn: sqlite3.Connection) -> RunNotFoundError:
        recent = [
            row[0]
            for row in conn.execute(
                "SELECT run_id FROM runs ORDER BY created_at DESC, run_id DESC LIMIT ?",
                (SUGGESTED_RUNS,),
            )
        ]
        where = f"in {self.db_path}"
        if not recent:
            return RunNotFoundError(
                f"no recorded run matches {wanted!r}: there are no runs {where}"
            )
        return RunNotFoundError(
            f"no recorded run matches {wanted!r} {where}; the most recent are: "
            f"{', '.join(recent)} (see `pcagent runs list`)"
        )

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
        settings_json = _to_json(settings)
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
                (_to_json(merged), time.time(), run_id),
            )

    @staticmethod
    def _run_from_row(row: sqlite3.Row) -> RunRecord:
        values = dict(row)
        values["settings"] = json.loads(values["settings"])
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

    def set_of_mark_path(self, run_id: str, step: int) -> Path:
        """Where the step's set-of-mark image is (the file exists only if one was written)."""
        return self.step_dir(run_id, step) / SET_OF_MARK_FILE

    def write_step(
        self,
        step: StepRecord,
        *,
        screenshot: Image.Image | None = None,
        set_of_mark: Image.Image | None = None,
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
        files: list[tuple[str, Callable[[Path], None] | None]] = [
            (SCREENSHOT_FILE, _png_writer(screenshot)),
            (SET_OF_MARK_FILE, _png_writer(set_of_mark)),
            (LISTING_FILE, _text_writer(step.listing) if step.listing else None),
        ]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for name, writer in files:
                if writer is None:
                    (folder / name).unlink(missing_ok=True)
                else:
                    _write_atomically(folder / name, writer)
        except OSError as exc:
            raise RecordError(
                f"could not write the files of step {step.step} in {folder}: {exc}. "
                "Free some disk space or check the folder's permissions."
            ) from exc

        values = step.model_dump(mode="json")
        row = tuple(
            _to_json(values[name])
            if name in _STEP_JSON_COLUMNS and values[name] is not None
            else values[name]
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

    @staticmethod
    def _step_from_row(row: sqlite3.Row) -> StepRecord:
        values = dict(row)
        for name in _STEP_JSON_COLUMNS:
            if values[name] is not None:
                values[name] = json.loads(values[name])
        return StepRecord.model_validate(values)

    # --- model calls and events --------------------------------------------------------------

    def add_call(self, call: ModelCallRecord) -> None:
        """Record one model call and add its tokens to the run's total.

        Raises RunNotFoundError for an unknown run.
        """
        with self._transaction("record a model call") as conn:
            now = time.time()
            cursor = conn.execute(
                "UPDATE runs SET tokens = tokens + ?, updated_at = ? WHERE run_id = ?",
                (call.prompt_tokens + call.completion_tokens, now, call.run_id),
            )
            if cursor.rowcount == 0:
                raise self._not_found(call.run_id, conn)
            conn.execute(
                "INSERT INTO calls (run_id, step, agent, attempts, ok, prompt_tokens,"
                " completion_tokens, latency_s, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    call.run_id,
                    call.step,
                    call.agent,
                    _to_json(call.attempts),
                    int(call.ok),
                    call.prompt_tokens,
                    call.completion_tokens,
                    call.latency_s,
                    call.created_at or now,
                ),
            )

    def calls(self, run_id: str, step: int | None = None) -> list[ModelCallRecord]:
        """The run's model calls in the order they were added; only one step's when given."""
        rows = self._query(
            "read model calls",
            "SELECT * FROM calls WHERE run_id = ? AND (? IS NULL OR step = ?) ORDER BY id",
            (run_id, step, step),
        )
        calls = []
        for row in rows:
            values = dict(row)
            del values["id"]
            values["attempts"] = json.loads(values["attempts"])
            values["ok"] = bool(values["ok"])
            calls.append(ModelCallRecord.model_validate(values))
        return calls

    def add_event(self, event: RunEvent) -> None:
        """Record one event. Raises RunNotFoundError for an unknown run."""
        with self._transaction(f"record a {event.kind!r} event") as conn:
            now = time.time()
            cursor = conn.execute(
                "UPDATE runs SET updated_at = ? WHERE run_id = ?", (now, event.run_id)
            )
            if cursor.rowcount == 0:
                raise self._not_found(event.run_id, conn)
            conn.execute(
                "INSERT INTO events (run_id, step, kind, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    event.run_id,
                    event.step,
                    event.kind,
                    _to_json(event.payload),
                    event.created_at or now,
                ),
            )

    def events(self, run_id: str) -> list[RunEvent]:
        """The run's events in the order they were added."""
        rows = self._query(
            "read events", "SELECT * FROM events WHERE run_id = ? ORDER BY id", (run_id,)
        )
        events = []
        for row in rows:
            values = dict(row)
            del values["id"]
            values["payload"] = json.loads(values["payload"])
            events.append(RunEvent.model_validate(values))
        return events


# --- files -----------------------------------------------------------------------------------------


def _png_writer(image: Image.Image | None) -> Callable[[Path], None] | None:
    if image is None:
        return None
    return lambda path: image.save(path, format="PNG", compress_level=PNG_COMPRESS_LEVEL)


def _text_writer(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text, encoding="utf-8")


def _write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary name in the same folder, then rename: a reader (or a resume
    after a kill) sees the old file or the new one, never half of one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
