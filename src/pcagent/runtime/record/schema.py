"""The run database's layout and its upgrades, version by version.

The layout version is kept in ``PRAGMA user_version``. Each entry of :data:`MIGRATIONS` upgrades a
file from version *i* to *i + 1*, inside one transaction: SQL statements, or a function that
rewrites rows. A file written by any earlier pcagent is upgraded in place when it is opened; a file
from a newer pcagent is refused (see :class:`pcagent.runtime.record.store.RunStore`).

Version 1 kept steps' results and events as free-form JSON; version 2 stores them as the typed
records of :mod:`pcagent.runtime.record.models` and :mod:`pcagent.runtime.record.events`; version 3 adds
each step's list of documents with unsaved changes; version 4 the application in front when the
step was decided; version 7 keeps the checkpoint's history as typed step lines and its readings as
typed readings (rebuilt from the steps' own records, see :func:`_typed_history`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from pcagent.runtime.record.models import StepResult

SCHEMA_VERSION = 7

Migration = list[str] | Callable[[sqlite3.Connection], None]

_VERSION_1 = [
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
]

#: Version 1 told refused actions apart only by the error type's name.
_REFUSAL_TYPES = ("ActionRefusedError", "OutOfDomainError")
#: Event kinds of version 1 whose payload was one model dumped flat; version 2 nests it.
_NESTED_PAYLOADS = {"review": "review", "sensitive": "verdict"}
_VERSION_1_KINDS = frozenset(
    {
        "plan",
        "assign",
        "declined",
        "refused",
        "sensitive",
        "asked_human",
        "review",
        "escalate_progress",
        "loop",
        "replan",
        "reopened_app",
        "reopen_failed",
        "restore",
        "resume",
        "rewind",
        "finish",
    }
)


def upgrade_result(old: dict[str, Any]) -> dict[str, Any]:
    """A version-1 step result (an ActionResult dump, or ``{ok, message, error}``) as a
    :class:`StepResult`."""
    error = old.get("error")
    known = {name: old[name] for name in StepResult.model_fields if name in old}
    known["refused"] = bool(error) and str(error) in _REFUSAL_TYPES
    known.setdefault("ok", False)
    return StepResult.model_validate(known).model_dump(mode="json")


def upgrade_event(kind: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A version-1 event as a version-2 one: ``(kind, payload)``. Kinds version 1 never wrote
    (written by other tools) are kept as notes."""
    if kind not in _VERSION_1_KINDS:
        text = f"{kind}: {json.dumps(payload, ensure_ascii=False)}" if payload else kind
        return "note", {"kind": "note", "text": text}
    if kind in _NESTED_PAYLOADS:
        return kind, {"kind": kind, _NESTED_PAYLOADS[kind]: payload}
    return kind, {"kind": kind, **payload}


def _upgrade_1_to_2(conn: sqlite3.Connection) -> None:
    for run_id, step, result, state in conn.execute(
        "SELECT run_id, step, result, state FROM steps"
    ).fetchall():
        new_result = json.dumps(upgrade_result(json.loads(result))) if result else None
        new_state = state if state and json.loads(state) else "null"
        conn.execute(
            "UPDATE steps SET result = ?, state = ? WHERE run_id = ? AND step = ?",
            (new_result, new_state, run_id, step),
        )
    for event_id, kind, payload in conn.execute("SELECT id, kind, payload FROM events").fetchall():
        new_kind, new_payload = upgrade_event(kind, json.loads(payload))
        conn.execute(
            "UPDATE events SET kind = ?, payload = ? WHERE id = ?",
            (new_kind, json.dumps(new_payload, ensure_ascii=False), event_id),
        )


_VERSION_3 = ["ALTER TABLE steps ADD COLUMN unsaved TEXT NOT NULL DEFAULT '[]'"]

_VERSION_4 = ["ALTER TABLE steps ADD COLUMN front_app TEXT NOT NULL DEFAULT ''"]

_VERSION_5 = ["ALTER TABLE steps ADD COLUMN window TEXT NOT NULL DEFAULT ''"]

_VERSION_6 = ["ALTER TABLE steps ADD COLUMN environment TEXT NOT NULL DEFAULT ''"]


def _typed_history(conn: sqlite3.Connection) -> None:
    """Checkpoints of version 6 kept the subtask's history as lines of text and its readings as
    "step N, kind: text": each is rebuilt from the records of the steps it stood for (the last
    steps of the same subtask that were reflected on, as many as the history had lines), so
    nothing reads the old text back."""
    rows = conn.execute(
        "SELECT run_id, step, subtask_id, action, result, reflection, state FROM steps "
        "ORDER BY run_id, step"
    ).fetchall()
    seen: dict[str, list[tuple[Any, ...]]] = {}
    for run_id, step, subtask_id, action, result, reflection, state in rows:
        earlier = seen.setdefault(run_id, [])
        if reflection:
            earlier.append((step, subtask_id, action, result, reflection))
        checkpoint = json.loads(state) if state else None
        if not checkpoint:
            continue
        old = checkpoint.get("history") or []
        if not any(isinstance(line, str) for line in old) and not (
            {"last_output", "richest_output"} & set(checkpoint)
        ):
            continue  # already typed
        same = [entry for entry in earlier if entry[1] == subtask_id][-len(old) :] if old else []
        lines = [_step_line(*entry) for entry in same]
        checkpoint["history"] = [line for line in lines if line is not None]
        readings = [
            {"step": line["number"], "kind": line["action"]["kind"], "text": line["output"]}
            for line in checkpoint["history"]
            if line["output"] is not None and line["action"] is not None
        ]
        had_reading = bool(checkpoint.pop("last_output", ""))
        checkpoint.pop("richest_output", None)
        checkpoint["last_reading"] = readings[-1] if readings and had_reading else None
        checkpoint["richest_reading"] = (
            max(reversed(readings), key=lambda r: len(r["text"])) if had_reading else None
        )
        conn.execute(
            "UPDATE steps SET state = ? WHERE run_id = ? AND step = ?",
            (json.dumps(checkpoint, ensure_ascii=False), run_id, step),
        )


def _step_line(
    step: int, subtask_id: str, action: str | None, result: str | None, reflection: str
) -> dict[str, Any] | None:
    """One step's typed history line, from its record; None when it was not reflected on."""
    verdict = json.loads(reflection).get("verdict") if reflection else None
    if verdict is None:
        return None
    output = json.loads(result).get("output") if result else None
    return {
        "number": step,
        "action": json.loads(action) if action else None,
        "verdict": verdict,
        "output": output,
    }


MIGRATIONS: list[Migration] = [
    _VERSION_1,
    _upgrade_1_to_2,
    _VERSION_3,
    _VERSION_4,
    _VERSION_5,
    _VERSION_6,
    _typed_history,
]
"""Entry *i* upgrades a file from version *i* to *i + 1*."""


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Run every upgrade after ``from_version`` (inside the caller's transaction)."""
    for migration in MIGRATIONS[from_version:]:
        if callable(migration):
            migration(conn)
        else:
            for statement in migration:
                conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
