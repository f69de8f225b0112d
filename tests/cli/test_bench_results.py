"""``pcagent bench list`` and ``pcagent bench report`` on a real result store: which run, which
agent and model, each task's outcome and failure cause, and an HTML report whose tables hold
the run they report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.cli import app
from pcagent.code_version import code_version


def _outcome(task_id: str, success: bool, causes: tuple[str, ...] = ()) -> TaskOutcome:
    return TaskOutcome(
        task_id=task_id, success=success, completion_ratio=1.0 if success else 0.5,
        subtasks_passed=2 if success else 1, subtasks_total=2, actions=7, tokens=100,
        seconds=12.0, reset_seconds=0.2, failure_causes=causes,
        model_decisions=3, code_decisions=1,
    )  # fmt: skip


def _store_two_runs(data: Path) -> tuple[str, str]:
    """A reference run of pc01 (passed) and a pcagent run of pc01 and pc02 (one passed, one
    failed with a cause and a failed sub-goal, run at another version of the code, as a run
    resumed after a change), the second the latest."""
    tasks = load_tasks()
    with BenchStore(data / "bench") as store:
        first = store.create("reference", ["pc01"])
        store.add(first.bench_id, TaskRun(tasks["pc01"], "reference", _outcome("pc01", True),
                                          [], [], None, None))  # fmt: skip
        second = store.create("pcagent", ["pc01", "pc02", "pc03"], "qwen-box")
        store.add(second.bench_id, TaskRun(tasks["pc01"], "pcagent", _outcome("pc01", True),
                                           [], [], "run-a", None))  # fmt: skip
        causes = ("loop", "false_done")
        failed = TaskRun(tasks["pc02"], "pcagent", _outcome("pc02", False, causes), [], [],
                         "run-b", "the model server stopped answering")  # fmt: skip
        failed.code = "abc1234"
        store.add(second.bench_id, failed)
    return first.bench_id, second.bench_id


def test_bench_list_shows_every_run_with_its_rates(environment: dict[str, str]) -> None:
    first, second = _store_two_runs(Path(environment["PCAGENT_DATA_DIR"]))
    listed = CliRunner().invoke(app, ["bench", "list", "--json"], env=environment)
    assert listed.exit_code == 0, listed.output
    rows = {row["bench_id"]: row for row in json.loads(listed.output)}
    assert rows[second]["model"] == "qwen-box" and rows[second]["agent"] == "pcagent"
    assert (rows[second]["tasks_done"], rows[second]["tasks_total"]) == (2, 3)
    assert rows[second]["success_rate"] == 0.5 and rows[second]["subtask_success_rate"] == 0.75
    assert rows[first]["success_rate"] == 1.0 and rows[first]["model"] == "(configured)"
    assert rows[first]["code"] == code_version() and rows[first]["codes"] == {code_version(): 1}
    assert rows[second]["codes"] == {code_version(): 1, "abc1234": 1}
    table = CliRunner().invoke(app, ["bench", "list"], env={**environment, "COLUMNS": "120"})
    line = next(row for row in table.output.splitlines() if second in row)
    assert "pcagent" in line and "qwen-box" in line and "2/3" in line and "50.0%" in line
    assert "abc1234 (1)" in table.output


def test_bench_report_names_its_run_and_each_task_outcome(
    environment: dict[str, str], tmp_path: Path
) -> None:
    _, second = _store_two_runs(Path(environment["PCAGENT_DATA_DIR"]))
    page = tmp_path / "report.html"
    reported = CliRunner().invoke(
        app, ["bench", "report", "-o", str(page)], env={**environment, "COLUMNS": "200"}
    )
    assert reported.exit_code == 0, reported.output
    text = reported.output
    assert f"benchmark run {second}" in text and "agent pcagent, model qwen-box" in text
    assert "pc01 passed" in text and "pc02 failed" in text
    assert "causes: loop" in text and "the model server stopped answering" in text
    assert "no result yet: pc03" in text
    assert f"code {code_version()} (1), abc1234 (1)" in text
    assert "its results ran at 2 versions of the code" in text
    assert "model decisions 75.0%" in text and "said done but failed 1" in text
    html = page.read_text(encoding="utf-8")
    assert f"code {code_version()} (1), abc1234 (1)</p>" in html
    assert "no pcagent run" not in html  # the run reported is a row of its own tables
    assert "<td>pcagent (qwen-box)</td><td>2</td><td>50.0%</td>" in html
    assert "<td>reference</td><td>1</td><td>100.0%</td>" in html
    assert "no result yet: pc03" in html


def test_bench_report_writes_its_page_into_the_data_folder_by_default(
    environment: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = Path(environment["PCAGENT_DATA_DIR"])
    _, second = _store_two_runs(data)
    monkeypatch.chdir(tmp_path)
    reported = CliRunner().invoke(app, ["bench", "report"], env={**environment, "COLUMNS": "200"})
    assert reported.exit_code == 0, reported.output
    page = data / "bench" / "reports" / f"{second}.html"
    assert "no result yet: pc03" in page.read_text(encoding="utf-8")
    assert list(tmp_path.glob("*.html")) == []  # nothing in the folder it was run from
