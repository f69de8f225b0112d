"""Benchmark results in SQLite: one row per benchmark run, one per task result.

Kept apart from the run records (``runs.sqlite``): a task result points at its agent run by id
(``run_id``), so the report can link a failed sub-goal to the steps that led there.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.task_run import TaskRun
from pcagent.code_version import code_version
from pcagent.errors import RecordError
from pcagent.lifecycle import Closes
from pcagent.models.served import ServedModel

_SCHEMA = """
CREATE TABLE IF NOT EXISTS bench_runs (
    bench_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    ablation TEXT NOT NULL DEFAULT 'none',
    tasks TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS task_results (
    bench_id TEXT NOT NULL REFERENCES bench_runs(bench_id),
    task_id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    nodes TEXT NOT NULL,
    answers TEXT NOT NULL,
    run_id TEXT,
    error TEXT,
    PRIMARY KEY (bench_id, task_id)
);
"""


class BenchRun(BaseModel):
    bench_id: str
    created_at: float
    agent: str
    model: str = ""
    ablation: str = "none"
    tasks: list[str]
    #: The folder the task files came from ("" for the built-in tasks).
    tasks_dir: str = ""
    #: The page graph that guided the agents ("" for none).
    experience: str = ""
    #: The model given by its server's address (``--model-url``; ``model`` is then its name),
    #: kept so that ``--resume`` asks the same server. None: ``model`` is a profile name.
    model_server: ServedModel | None = None
    #: The step cap its tasks run with, kept so that ``--resume`` runs the rest with it too.
    #: None: not stored (a run begun before the cap was kept).
    max_steps: int | None = None
    #: The version of pcagent's code that started it (``pcagent.code_version``; "" for a run
    #: begun before versions were kept). Each result keeps its own: a resumed run may differ.
    code: str = ""


#: Columns added after the first release, added to older files when they are opened.
_ADDED_COLUMNS = {
    "tasks_dir": "ALTER TABLE bench_runs ADD COLUMN tasks_dir TEXT NOT NULL DEFAULT ''",
    "experience": "ALTER TABLE bench_runs ADD COLUMN experience TEXT NOT NULL DEFAULT ''",
    "model_server": "ALTER TABLE bench_runs ADD COLUMN model_server TEXT NOT NULL DEFAULT ''",
    "max_steps": "ALTER TABLE bench_runs ADD COLUMN max_steps INTEGER",
    "code": "ALTER TABLE bench_runs ADD COLUMN code TEXT NOT NULL DEFAULT ''",
}
#: The same for task results.
_ADDED_RESULT_COLUMNS = {
    "attempts": "ALTER TABLE task_results ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1",
    "code": "ALTER TABLE task_results ADD COLUMN code TEXT NOT NULL DEFAULT ''",
}
_RUN_COLUMNS = (
    "bench_id, created_at, agent, model, ablation, tasks, tasks_dir, experience, model_server, "
    "max_steps, code"
)


class StoredResult(BaseModel):
    bench_id: str
    task_id: str
    outcome: dict[str, Any]
    nodes: list[dict[str, Any]]
    answers: list[str]
    run_id: str | None = None
    error: str | None = None
    #: How many times the task was started: more than 1 when a worker died under it and it was
    #: run again on another (the Ray runner).
    attempts: int = 1
    #: The version of pcagent's code the task ran with ("" for a result stored before).
    code: str = ""

    def task_outcome(self) -> TaskOutcome:
        data = dict(self.outcome)
        for key in ("flagged_steps", "task_apps", "failure_causes"):
            data[key] = tuple(data.get(key) or ())
        data["completion_history"] = tuple(tuple(p) for p in data.get("completion_history") or ())
        if data.get("planned_apps") is not None:
            data["planned_apps"] = tuple(data["planned_apps"])
        return TaskOutcome(**data)


class BenchStore(Closes):
    """``bench.sqlite`` under the data directory's ``bench/`` folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.path = root / "bench.sqlite"
        try:
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            with self._db:
                for table, added in (
                    ("bench_runs", _ADDED_COLUMNS),
                    ("task_results", _ADDED_RESULT_COLUMNS),
                ):
                    present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                    for column, statement in added.items():
                        if column not in present:
                            self._db.execute(statement)
        except sqlite3.Error as error:
            raise RecordError(f"cannot open the benchmark results {self.path}: {error}") from error

    def close(self) -> None:
        self._db.close()

    def create(
        self,
        agent: str,
        tasks: list[str],
        model: str = "",
        ablation: str = "none",
        *,
        tasks_dir: str = "",
        experience: str = "",
        model_server: ServedModel | None = None,
        max_steps: int | None = None,
        code: str | None = None,
    ) -> BenchRun:
        """A new benchmark run, stored; ``code`` defaults to this process's version."""
        run = BenchRun(
            bench_id=time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2),
            created_at=time.time(),
            agent=agent,
            model=model,
            ablation=ablation,
            tasks=tasks,
            tasks_dir=tasks_dir,
            experience=experience,
            model_server=model_server,
            max_steps=max_steps,
            code=code_version() if code is None else code,
        )
        with self._db:
            self._db.execute(
                f"INSERT INTO bench_runs ({_RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run.bench_id,
                    run.created_at,
                    agent,
                    model,
                    ablation,
                    json.dumps(tasks),
                    tasks_dir,
                    experience,
                    model_server.model_dump_json() if model_server is not None else "",
                    max_steps,
                    run.code,
                ),
            )
        return run

    def add(self, bench_id: str, result: TaskRun) -> None:
        """Store one task result as soon as it exists (a crash loses no finished task)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO task_results (bench_id, task_id, outcome, nodes, answers, "
                "run_id, error, attempts, code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    bench_id,
                    result.task.id,
                    json.dumps(asdict(result.outcome)),
                    json.dumps([asdict(n) for n in result.nodes]),
                    json.dumps(result.answers),
                    result.run_id,
                    result.error,
                    result.attempts,
                    result.code,
                ),
            )

    def runs(self) -> list[BenchRun]:
        rows = self._db.execute(
            f"SELECT {_RUN_COLUMNS} FROM bench_runs ORDER BY created_at DESC"
        ).fetchall()
        return [
            BenchRun(
                bench_id=r[0],
                created_at=r[1],
                agent=r[2],
                model=r[3],
                ablation=r[4],
                tasks=json.loads(r[5]),
                tasks_dir=r[6],
                experience=r[7],
                model_server=ServedModel.model_validate_json(r[8]) if r[8] else None,
                max_steps=r[9],
                code=r[10],
            )
            for r in rows
        ]

    def latest(self) -> BenchRun | None:
        runs = self.runs()
        return runs[0] if runs else None

    def get(self, bench_id: str) -> BenchRun:
        matches = [r for r in self.runs() if r.bench_id.startswith(bench_id)]
        if len(matches) != 1:
            known = ", ".join(r.bench_id for r in self.runs()[:5]) or "none yet"
            raise RecordError(f"no single benchmark run {bench_id!r}; recent: {known}")
        return matches[0]

    def results(self, bench_id: str) -> list[StoredResult]:
        rows = self._db.execute(
            "SELECT bench_id, task_id, outcome, nodes, answers, run_id, error, attempts, code "
            "FROM task_results "
            "WHERE bench_id = ? ORDER BY task_id",
            (bench_id,),
        ).fetchall()
        return [
            StoredResult(
                bench_id=r[0],
                task_id=r[1],
                outcome=json.loads(r[2]),
                nodes=json.loads(r[3]),
                answers=json.loads(r[4]),
                run_id=r[5],
                error=r[6],
                attempts=r[7],
                code=r[8],
            )
            for r in rows
        ]
