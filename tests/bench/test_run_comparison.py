"""Two stored benchmark runs side by side: the 25 tasks in one, their rewordings in the other,
one row per original task, each run's SR and the difference in points; the same through
``pcagent bench compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.bench.comparison import compare_runs
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.results import BenchRun, BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import Task, load_reworded_tasks, load_tasks, reworded_tasks_folder
from pcagent.cli import app
from pcagent.code_version import code_version

ORIGINALS = load_tasks()
REWORDED = load_reworded_tasks()
#: pc01 passes in its own words and in both others; pc02 only in its own; pc03 only once
#: reworded; pc04 was not run reworded.
PLAIN = {"pc01": True, "pc02": True, "pc03": False, "pc04": False}
OTHER_WORDS = {
    "pc01r1": True, "pc01r2": True, "pc02r1": False, "pc02r2": False,
    "pc03r1": True, "pc03r2": False,
}  # fmt: skip


def outcome(task_id: str, success: bool) -> TaskOutcome:
    return TaskOutcome(
        task_id=task_id, success=success, completion_ratio=1.0 if success else 0.5,
        subtasks_passed=1 if success else 0, subtasks_total=1, actions=3, tokens=10,
        seconds=1.0, reset_seconds=0.1,
    )  # fmt: skip


def stored_run(
    store: BenchStore,
    tasks: dict[str, Task],
    verdicts: dict[str, bool],
    tasks_dir: str = "",
    code: str | None = None,
) -> BenchRun:
    """A run of ``verdicts`` stored as ``bench run`` stores it; ``code``: the version its
    results ran at (this process's by default)."""
    bench = store.create("pcagent", list(verdicts), "smollm2", tasks_dir=tasks_dir)
    for task_id, success in verdicts.items():
        run = TaskRun(tasks[task_id], "pcagent", outcome(task_id, success), [], [], None, None)
        run.code = run.code if code is None else code
        store.add(bench.bench_id, run)
    return bench


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory whose benchmark store holds a run of four of the 25 and a run of six of
    their rewordings, as ``bench run`` and ``bench run --tasks-dir`` store them."""
    with BenchStore(tmp_path / "bench") as store:
        stored_run(store, ORIGINALS, PLAIN)
        stored_run(store, REWORDED, OTHER_WORDS, str(reworded_tasks_folder()))
    return tmp_path


def runs(data_dir: Path) -> tuple[BenchStore, BenchRun, BenchRun]:
    store = BenchStore(data_dir / "bench")
    reworded, plain = store.runs()  # newest first
    return store, plain, reworded


def test_rewordings_meet_their_original_on_one_row(data_dir: Path) -> None:
    store, plain, reworded = runs(data_dir)
    with store:
        comparison = compare_runs(store, plain, reworded)
    rows = {row.original: row for row in comparison.tasks}
    assert list(rows) == ["pc01", "pc02", "pc03", "pc04"]
    assert [(o.task_id, o.success) for o in rows["pc01"].first] == [("pc01", True)]
    assert [(o.task_id, o.success) for o in rows["pc03"].second] == [
        ("pc03r1", True), ("pc03r2", False)
    ]  # fmt: skip
    assert rows["pc02"].second[0].completion_ratio == 0.5
    assert rows["pc04"].second == []
    assert comparison.first.tasks == 4 and comparison.first.success_rate == 0.5
    assert comparison.second.tasks == 6 and comparison.second.success_rate == 0.5
    assert comparison.second.tasks_dir.endswith("tasks_reworded")
    assert comparison.difference_points == 0.0
    assert comparison.first.codes == {code_version(): 4} and comparison.same_code is True
    # pc04 was not run reworded: over the three both ran, 2 of 3 against 3 of 6.
    shared = comparison.shared
    assert shared is not None and (shared.first_results, shared.second_results) == (3, 6)
    assert (shared.first_rate, shared.second_rate) == (0.6667, 0.5)
    assert shared.difference_points == -16.7


def test_the_difference_is_in_points_second_less_first(data_dir: Path) -> None:
    store, plain, reworded = runs(data_dir)
    with store:
        stored_run(store, ORIGINALS, {"pc01": True, "pc02": True, "pc03": True})
        better = store.latest()
        assert better is not None
        comparison = compare_runs(store, better, reworded)
        backwards = compare_runs(store, reworded, better)
        same_tasks = compare_runs(store, plain, better)
        itself = compare_runs(store, plain, plain)
    assert comparison.first.success_rate == 1.0
    assert comparison.difference_points == -50.0 and backwards.difference_points == 50.0
    # The same tasks in both runs: one task a row, its own result on either side.
    assert [row.original for row in same_tasks.tasks] == ["pc01", "pc02", "pc03", "pc04"]
    assert [o.task_id for o in same_tasks.tasks[2].second] == ["pc03"]
    assert same_tasks.difference_points == 50.0
    # A run stopped part way (pc04 never ran): over the three both ran, +33.3 points.
    assert same_tasks.shared is not None and same_tasks.shared.difference_points == 33.3
    # The same tasks on both sides: no shared line.
    assert itself.shared is None


def test_a_run_stopped_part_way_compares_over_the_tasks_both_ran(data_dir: Path) -> None:
    """Two runs of the rewordings (with and without memory, say), one stopped between pc03's
    two: over pc01r1, pc01r2 and pc03r1 alone, 3 of 3 against 1 of 3."""
    store, _, reworded = runs(data_dir)
    with store:
        folder = str(reworded_tasks_folder())
        stopped = stored_run(
            store, REWORDED, {"pc01r1": False, "pc01r2": True, "pc03r1": False}, folder
        )
        comparison = compare_runs(store, reworded, stopped)
    shared = comparison.shared
    assert shared is not None and (shared.first_results, shared.second_results) == (3, 3)
    assert (shared.first_rate, shared.second_rate) == (1.0, 0.3333)
    assert shared.difference_points == -66.7


def test_a_run_whose_task_folder_is_gone_compares_by_its_own_ids(
    data_dir: Path, tmp_path: Path
) -> None:
    store, plain, _ = runs(data_dir)
    with store:
        gone = stored_run(store, REWORDED, {"pc01r1": False}, str(tmp_path / "moved-away"))
        comparison = compare_runs(store, plain, gone)
    assert [row.original for row in comparison.tasks][-1] == "pc01r1"
    assert comparison.difference_points == -50.0


def test_bench_compare_prints_both_sets_side_by_side(data_dir: Path) -> None:
    environment = {"PCAGENT_DATA_DIR": str(data_dir), "PCAGENT_CONFIG": ""}
    store, plain, reworded = runs(data_dir)
    store.close()
    runner = CliRunner()
    shown = runner.invoke(
        app, ["bench", "compare", plain.bench_id, reworded.bench_id], env=environment
    )
    assert shown.exit_code == 0, shown.output
    pc03 = next(line for line in shown.output.splitlines() if "pc03" in line)
    assert "fail" in pc03 and "pc03r1 pass" in pc03 and "pc03r2 fail" in pc03
    assert f"{plain.bench_id}: SR 50.0% over 4 tasks" in shown.output
    assert "SR 50.0% over 6 tasks" in shown.output and "tasks_reworded" in shown.output
    assert "difference: +0.0 points" in shown.output
    assert "over the tasks both ran (3 and 6 results): SR 66.7% and 50.0%" in shown.output

    as_json = runner.invoke(
        app, ["bench", "compare", plain.bench_id, reworded.bench_id, "--json"], env=environment
    )
    data = json.loads(as_json.output)
    assert data["difference_points"] == 0.0 and len(data["tasks"]) == 4
    assert data["tasks"][0]["second"][1] == {
        "task_id": "pc01r2", "success": True, "completion_ratio": 1.0
    }  # fmt: skip


def test_bench_compare_names_an_unknown_run(data_dir: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "compare", "nonesuch", "latest"],
        env={"PCAGENT_DATA_DIR": str(data_dir), "PCAGENT_CONFIG": ""},
    )
    assert result.exit_code == 2 and "no single benchmark run 'nonesuch'" in result.output


def test_runs_at_other_code_or_at_unknown_code_are_not_one_versions(data_dir: Path) -> None:
    store, plain, _ = runs(data_dir)
    with store:
        later = stored_run(store, REWORDED, {"pc01r1": True, "pc01r2": False}, code="abc1234")
        before = stored_run(store, REWORDED, {"pc02r1": True}, code="")
        other = compare_runs(store, plain, later)
        unknown = compare_runs(store, plain, before)
        nothing = compare_runs(store, store.create("pcagent", ["pc01"]), later)
    assert other.same_code is False and other.second.codes == {"abc1234": 2}
    assert unknown.same_code is None and unknown.second.codes == {"": 1}
    # no results on one side, one version on the other: one version, of the results there are
    assert nothing.same_code is True


def test_bench_compare_says_whether_both_ran_one_version(data_dir: Path) -> None:
    environment = {"PCAGENT_DATA_DIR": str(data_dir), "PCAGENT_CONFIG": ""}
    store, plain, reworded = runs(data_dir)
    with store:
        later = stored_run(store, REWORDED, {"pc01r1": True}, code="abc1234")
    runner = CliRunner()
    same = runner.invoke(
        app, ["bench", "compare", plain.bench_id, reworded.bench_id], env=environment
    )
    assert f"both runs ran one version of the code: {code_version()}" in same.output
    assert f"code {code_version()} (4)" in same.output
    other = runner.invoke(
        app, ["bench", "compare", plain.bench_id, later.bench_id], env=environment
    )
    assert "the runs ran different versions of the code" in other.output
    assert "code abc1234 (1)" in other.output
