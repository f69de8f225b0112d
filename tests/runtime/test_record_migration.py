"""A run database written by the previous record layout (version 1, free-form JSON results and
events) opens as typed records: the checked-in file was written by that version's own code."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from pcagent import actions as act
from pcagent.errors import RecordError
from pcagent.runtime.record.events import PlanEvent, RefusedEvent, ReviewEvent
from pcagent.runtime.record.schema import SCHEMA_VERSION, upgrade_event, upgrade_result
from pcagent.runtime.record.store import RunStore

VERSION_1 = Path(__file__).with_name("data") / "runs_v1.sqlite"


@pytest.fixture
def old_store(tmp_path: Path) -> RunStore:
    root = tmp_path / "runs"
    root.mkdir()
    shutil.copy(VERSION_1, root / "runs.sqlite")
    with closing(sqlite3.connect(root / "runs.sqlite")) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    return RunStore(root)


def test_a_version_1_database_is_upgraded_in_place(old_store: RunStore) -> None:
    runs = {run.instruction: run for run in old_store.list_runs()}
    assert set(runs) == {"count", "count twice", "count once"}
    with closing(sqlite3.connect(old_store.db_path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION

    looped = old_store.steps(runs["count"].run_id)
    assert [s.action.kind for s in looped] == ["click"] * 4 + ["done"]  # type: ignore[union-attr]
    assert looped[0].action == act.Click(x=600, y=400)
    assert looped[0].reflection is not None and looped[0].reflection.verdict == "no_change"
    assert looped[-1].state is not None and looped[-1].state.status == {
        "s1": "failed",
        "s1r": "done",
    }
    kinds = [e.kind for e in old_store.events(runs["count"].run_id)]
    assert kinds.count("replan") == 1 and "loop" in kinds and "escalate_progress" in kinds
    plan = old_store.events(runs["count"].run_id)[0].event
    assert isinstance(plan, PlanEvent) and plan.subtasks[0].id == "s1"


def test_refusals_and_reviews_keep_their_meaning(old_store: RunStore) -> None:
    runs = {run.instruction: run for run in old_store.list_runs()}
    refused_run = old_store.steps(runs["count once"].run_id)
    results = [s.result for s in refused_run]
    assert [r.refused for r in results if r is not None] == [False, True, False, False]
    refused = next(
        e.event for e in old_store.events(runs["count once"].run_id) if e.kind == "refused"
    )
    assert isinstance(refused, RefusedEvent) and refused.action == act.Hotkey(keys=("alt", "f4"))
    reviews = [e.event for e in old_store.events(runs["count twice"].run_id) if e.kind == "review"]
    assert [r.review.decision for r in reviews if isinstance(r, ReviewEvent)] == ["guide", "stop"]
    assert old_store.calls(runs["count twice"].run_id)[0].attempts[0].request


def test_the_upgrade_of_single_values() -> None:
    refused = upgrade_result({"ok": False, "message": "no", "error": "OutOfDomainError"})
    assert refused["refused"] is True and refused["error"] == "OutOfDomainError"
    failed = upgrade_result({"ok": False, "message": "gone", "error": "AppLaunchError"})
    assert failed["refused"] is False
    assert upgrade_result({"ok": True, "changed": 1})["ok"] is True
    assert upgrade_event("sensitive", {"allowed": False})[1] == {
        "kind": "sensitive",
        "verdict": {"allowed": False},
    }
    assert upgrade_event("somebody_elses", {"n": 1}) == (
        "note",
        {"kind": "note", "text": 'somebody_elses: {"n": 1}'},
    )


def test_an_unreadable_step_is_a_record_error_naming_it(old_store: RunStore) -> None:
    run = old_store.list_runs()[0]
    old_store.steps(run.run_id)  # upgrade first
    with closing(sqlite3.connect(old_store.db_path)) as conn:
        conn.execute('UPDATE steps SET action = \'{"kind": "fly"}\' WHERE step = 1')
        conn.commit()
    with pytest.raises(RecordError, match="step 1 of run"):
        old_store.steps(run.run_id)


def test_the_history_of_old_checkpoints_is_rebuilt_typed_from_the_steps(
    old_store: RunStore,
) -> None:
    """Version 6 and earlier kept the history as text; the typed lines are rebuilt from the
    steps' own records and render as the same text."""
    with closing(sqlite3.connect(VERSION_1)) as conn:
        old = {
            (run_id, step): json.loads(state)["history"]
            for run_id, step, state in conn.execute("SELECT run_id, step, state FROM steps")
            if state and json.loads(state)
        }
    rebuilt = {
        (run.run_id, step.step): [line.text() for line in step.state.history]
        for run in old_store.list_runs()
        for step in old_store.steps(run.run_id)
        if step.state is not None
    }
    assert rebuilt == old and any(len(lines) > 1 for lines in rebuilt.values())
