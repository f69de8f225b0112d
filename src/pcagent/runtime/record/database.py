"""The SQLite file under a run record: opening it safely, upgrading its layout, transactions.

Several processes may open the same file at once (a run writing, ``pcagent runs list`` reading):
WAL lets readers proceed while a writer commits, and writers wait up to :data:`BUSY_TIMEOUT_S`.
Every SQLite error comes out as :class:`~pcagent.errors.RecordError`, naming the file and what to
do about it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic_core import to_jsonable_python

from pcagent.errors import RecordError, RunNotFoundError
from pcagent.lifecycle import Closes
from pcagent.runtime.record.schema import SCHEMA_VERSION, migrate

DATABASE_FILE = "runs.sqlite"
#: Seconds a writer waits for another process's write transaction before giving up.
BUSY_TIMEOUT_S = 30.0
#: How many run ids a "no such run" message suggests.
SUGGESTED_RUNS = 5


def to_json(value: Any) -> str:
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


class RecordDatabase(Closes):
    """One connection to ``<root>/runs.sqlite``, opened on first use, shared under a lock."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.db_path = self.root / DATABASE_FILE
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    # --- connection --------------------------------------------------------------------------

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
            if version != SCHEMA_VERSION:
                migrate(conn, version)
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
