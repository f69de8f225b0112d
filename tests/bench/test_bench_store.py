"""The benchmark result store remembers where a run's tasks came from and which page graph
guided it: the report shows generated tasks' instructions and keeps runs with and without
experience apart; a store written before those columns existed is upgraded on open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pcagent.bench.generate import generate_tasks, write_task_files
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.report import render_html
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks


def outcome(task_id: str, success: bool) -> TaskOutcome:
    return TaskOutcome(
        task_id=task_id, success=success, completion_ratio=1.0 if success else 0.0,
        subtasks_passed=1 if success else 0, subtasks_total=1, actions=3, tokens=10,
        seconds=1.0, reset_seconds=0.1,
    )  # fmt: skip


def test_generated_tasks_are_reported_with_their_instructions(tmp_path: Path) -> None:
    folder = tmp_path / "training"
    task = generate_tasks(1, 5)[0]
    write_task_files([task], folder)
    with BenchStore(tmp_path / "bench") as store:
        bench = store.create("reference", [task.id], tasks_dir=str(folder))
        store.add(
            bench.bench_id, TaskRun(task, "reference", outcome(task.id, True), [], [], None, None)
        )
        page = render_html(store, store.get(bench.bench_id))
    assert task.instruction.split()[0] in page and task.id in page
    # The tables are of the same task folder: this reference run is a row, and no pcagent run
    # of these tasks exists yet.
    assert "<td>reference</td><td>1</td><td>100.0%</td>" in page
    assert "no pcagent run on these tasks yet" in page


def test_runs_with_and_without_experience_are_separate_rows(tmp_path: Path) -> None:
    task = load_tasks()["pc01"]
    with BenchStore(tmp_path) as store:
        for experience, success in (("", False), ("/graphs/training.db", True)):
            bench = store.create("pcagent", ["pc01"], experience=experience)
            store.add(
                bench.bench_id,
                TaskRun(task, "pcagent", outcome("pc01", success), [], [], None, None),
            )
        page = render_html(store, bench)
        assert [r.experience for r in store.runs()] == ["/graphs/training.db", ""]
    assert "pcagent + experience training.db" in page
    assert page.count("<td>pcagent: none</td>") == 1


def test_an_older_store_gets_the_new_columns(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "bench.sqlite") as db:
        db.execute(
            "CREATE TABLE bench_runs (bench_id TEXT PRIMARY KEY, created_at REAL NOT NULL, "
            "agent TEXT NOT NULL, model TEXT NOT NULL DEFAULT '', ablation TEXT NOT NULL "
            "DEFAULT 'none', tasks TEXT NOT NULL)"
        )
        db.execute("INSERT INTO bench_runs VALUES ('old-1', 1.0, 'reference', '', 'none', '[]')")
    db.close()
    with BenchStore(tmp_path) as store:
        (old,) = store.runs()
        assert old.bench_id == "old-1" and old.tasks_dir == "" and old.experience == ""
        assert old.max_steps is None and old.code == ""
        new = store.create("noop", [], tasks_dir="/t", max_steps=15)
        assert store.get(new.bench_id).code == new.code != ""
        assert store.get(new.bench_id).tasks_dir == "/t"
        assert store.get(new.bench_id).max_steps == 15


def test_a_retried_task_keeps_its_attempts_and_the_report_says_so(tmp_path: Path) -> None:
    task = load_tasks()["pc01"]
    with sqlite3.connect(tmp_path / "bench.sqlite") as db:  # a store from before attempts
        db.execute(
            "CREATE TABLE task_results (bench_id TEXT NOT NULL, task_id TEXT NOT NULL, "
            "outcome TEXT NOT NULL, nodes TEXT NOT NULL, answers TEXT NOT NULL, run_id TEXT, "
            "error TEXT, PRIMARY KEY (bench_id, task_id))"
        )
    db.close()
    with BenchStore(tmp_path) as store:
        bench = store.create("reference", ["pc01"])
        run = TaskRun(task, "reference", outcome("pc01", True), [], [], None, None, attempts=3)
        store.add(bench.bench_id, run)
        (kept,) = store.results(bench.bench_id)
        page = render_html(store, bench)
    assert kept.attempts == 3 and kept.code == run.code != ""
    assert "retried: 3 attempts" in page


def test_a_pcagent_run_on_a_task_folder_is_in_its_own_reports_tables(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    task = generate_tasks(1, 3)[0]
    write_task_files([task], folder)
    with BenchStore(tmp_path / "bench") as store:
        built_in = store.create("pcagent", ["pc01"])
        store.add(
            built_in.bench_id,
            TaskRun(load_tasks()["pc01"], "pcagent", outcome("pc01", True), [], [], None, None),
        )
        bench = store.create("pcagent", [task.id], tasks_dir=str(folder))
        store.add(
            bench.bench_id, TaskRun(task, "pcagent", outcome(task.id, False), [], [], None, None)
        )
        page = render_html(store, store.get(bench.bench_id))
    assert "no pcagent run" not in page
    # its row, and not the built-in run's: another task set is another benchmark
    assert page.count("<td>pcagent: none</td><td>1</td><td>0.0%</td>") == 1
    assert "<td>100.0%</td>" not in page
