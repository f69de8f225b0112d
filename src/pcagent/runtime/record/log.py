"""The model calls and events of a run record (a part of :class:`~pcagent.runtime.record.store.RunStore`)."""

from __future__ import annotations

import json
import sqlite3
import time

from pydantic import TypeAdapter, ValidationError

from pcagent.config import validation_problems
from pcagent.errors import RecordError
from pcagent.runtime.record.database import RecordDatabase, to_json
from pcagent.runtime.record.events import Event
from pcagent.runtime.record.models import ModelCallRecord, RunEvent

_EVENT: TypeAdapter[Event] = TypeAdapter(Event)


class CallAndEventLog(RecordDatabase):
    """Appends and reads the ``calls`` and ``events`` tables."""

    def _touch(self, conn: sqlite3.Connection, run_id: str, tokens: int = 0) -> float:
        """Mark the run as updated now (adding ``tokens`` to its total) before a row is added to
        it, so that a row never names a missing run; the time it was marked."""
        now = time.time()
        cursor = conn.execute(
            "UPDATE runs SET tokens = tokens + ?, updated_at = ? WHERE run_id = ?",
            (tokens, now, run_id),
        )
        if cursor.rowcount == 0:
            raise self._not_found(run_id, conn)
        return now

    def add_call(self, call: ModelCallRecord) -> None:
        """Record one model call and add its tokens to the run's total.

        Raises RunNotFoundError for an unknown run.
        """
        with self._transaction("record a model call") as conn:
            now = self._touch(conn, call.run_id, call.prompt_tokens + call.completion_tokens)
            conn.execute(
                "INSERT INTO calls (run_id, step, agent, attempts, ok, prompt_tokens,"
                " completion_tokens, latency_s, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    call.run_id,
                    call.step,
                    call.agent,
                    to_json([attempt.model_dump(mode="json") for attempt in call.attempts]),
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
            now = self._touch(conn, event.run_id)
            conn.execute(
                "INSERT INTO events (run_id, step, kind, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    event.run_id,
                    event.step,
                    event.kind,
                    to_json(event.event.model_dump(mode="json")),
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
            try:
                event = _EVENT.validate_json(row["payload"])
            except ValidationError as error:
                raise RecordError(
                    f"a {row['kind']!r} event of run {run_id} in {self.db_path} cannot be read: "
                    f"{validation_problems(error)}"
                ) from None
            events.append(
                RunEvent(
                    run_id=row["run_id"],
                    step=row["step"],
                    event=event,
                    created_at=row["created_at"],
                )
            )
        return events
