"""``pcagent bench list|run|report``: input checked before any sandbox starts, and the commands
end to end on the real desktop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.cli import app


def test_bench_list_json() -> None:
    result = CliRunner().invoke(app, ["bench", "tasks", "--json"])
    assert result.exit_code == 0, result.output
    tasks = json.loads(result.output)
    assert len(tasks) == 25
    assert {"id", "apps", "subtasks", "subgoals", "instruction"} <= set(tasks[0])


def test_bench_report_without_runs_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["bench", "report"], env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    )
    assert result.exit_code == 2 and "bench run" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--ablation", "bogus"],
            "unknown ablation 'bogus'; valid ablations: none, no_perception, no_manager, "
            "no_reflection, single_agent",
        ),
        (
            ["--agent", "robot"],
            "unknown agent 'robot'; use one of: pcagent, reference, reference-api, noop",
        ),
        (
            ["--ray", "local", "--parallel", "2"],
            "--parallel runs threads on this machine; with --ray use --actors",
        ),
        (
            ["--ray", "local", "--agent", "reference", "--record-to", "/tmp/x"],
            "--record-to records on this machine; leave out --ray",
        ),
        (
            ["--model-url", "http://127.0.0.1:9/v1", "--model-name", "m"],
            "cannot reach the model server at http://127.0.0.1:9/v1",
        ),
        (
            ["--resume", "latest"],
            "--resume takes the tasks of the stored run; leave out --tasks",
        ),
    ],
)
def test_bench_run_refuses_bad_input_before_any_sandbox_starts(
    environment: dict[str, str],
    desktop_starts: list[str],
    arguments: list[str],
    message: str,
) -> None:
    result = CliRunner().invoke(app, ["bench", "run", "-t", "pc01", *arguments], env=environment)
    assert result.exit_code == 2, result.output
    assert f"error: {message}" in result.output
    assert desktop_starts == []
    # and no benchmark run was recorded
    reported = CliRunner().invoke(app, ["bench", "report"], env=environment)
    assert reported.exit_code == 2 and "no benchmark run yet" in reported.output


def test_a_resumed_run_keeps_its_step_cap(
    environment: dict[str, str], desktop_starts: list[str], tmp_path: Path
) -> None:
    """The rest of a benchmark run is measured as it began: a resumed run with the default
    cap of 40 steps ran the tasks of a run begun with 15."""
    from pcagent.bench.results import BenchStore

    with BenchStore(tmp_path / "bench") as store:
        bench = store.create("pcagent", ["pc01"], max_steps=15)
    other = CliRunner().invoke(
        app, ["bench", "run", "--resume", bench.bench_id, "--max-steps", "20"], env=environment
    )
    assert other.exit_code == 2, other.output
    assert f"benchmark run {bench.bench_id} runs with --max-steps 15" in other.output
    assert desktop_starts == []


def test_resume_without_a_stored_run_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "run", "--resume", "latest"],
        env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""},
    )
    assert result.exit_code == 2 and "no benchmark run to resume yet" in result.output


@pytest.mark.desktop
@pytest.mark.slow
def test_bench_run_and_report(tmp_path: Path) -> None:
    environment = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    runner = CliRunner()
    ran = runner.invoke(
        app, ["bench", "run", "--agent", "reference", "-t", "pc09", "-t", "pc02"], env=environment
    )
    assert ran.exit_code == 0, ran.output
    assert "SR 100.0%" in ran.output and "reset median" in ran.output
    noop = runner.invoke(
        app, ["bench", "run", "--agent", "noop", "-t", "pc09", "--json"], env=environment
    )
    assert noop.exit_code == 0, noop.output
    events = [json.loads(line) for line in noop.stdout.splitlines()]  # JSON alone
    waited = [e["kind"] for e in events if e["event"] == "wait_start"]
    assert "sandbox_start" in waited and "benchmark_task" in waited
    (task,) = [e for e in events if e["event"] == "task_result"]
    assert task["task"] == "pc09" and task["success"] is False
    assert events[-1]["event"] == "result" and events[-1]["metrics"]["SR"] == 0
    page = tmp_path / "report.html"
    reported = runner.invoke(app, ["bench", "report", "-o", str(page)], env=environment)
    assert reported.exit_code == 0, reported.output
    html = page.read_text()
    assert "<svg" in html and "Table 3 shape" in html and "pc09" in html
    summary = json.loads(runner.invoke(app, ["bench", "report", "--json"], env=environment).output)
    assert summary["agent"] == "noop" and summary["metrics"]["SR"] == 0
    assert summary["tasks"][0]["failed_nodes"]


def test_ray_without_an_address_means_a_local_instance() -> None:
    from pcagent.cli import bare_ray_means_local

    assert bare_ray_means_local(["bench", "run", "--ray"]) == ["bench", "run", "--ray", "local"]
    assert bare_ray_means_local(["bench", "run", "--ray", "--actors", "2"]) == [
        "bench", "run", "--ray", "local", "--actors", "2"
    ]  # fmt: skip
    assert bare_ray_means_local(["bench", "run", "--ray", "auto"]) == [
        "bench", "run", "--ray", "auto"
    ]  # fmt: skip


def test_a_run_resumed_at_other_code_says_its_figures_mix_versions(
    environment: dict[str, str], desktop_starts: list[str], tmp_path: Path
) -> None:
    """A run stopped, then resumed after the code changed: the rest of its tasks run, and the
    line that starts them says which versions its results so far ran at."""
    from pcagent.bench.metrics import TaskOutcome
    from pcagent.bench.results import BenchStore
    from pcagent.bench.task_run import TaskRun
    from pcagent.bench.tasks import load_tasks
    from pcagent.code_version import code_version

    failed = TaskOutcome(
        task_id="pc01", success=False, completion_ratio=0.0, subtasks_passed=0,
        subtasks_total=2, actions=0, tokens=0, seconds=1.0, reset_seconds=0.1,
    )  # fmt: skip
    with BenchStore(tmp_path / "bench") as store:
        bench = store.create("noop", ["pc01"], code="abc1234")
        done = TaskRun(load_tasks()["pc01"], "noop", failed, [], [], None, None)
        done.code = "abc1234"
        store.add(bench.bench_id, done)
    resumed = CliRunner().invoke(app, ["bench", "run", "--resume", "latest"], env=environment)
    assert resumed.exit_code == 0, resumed.output
    assert f"benchmark run {bench.bench_id} resumed: 1 tasks done, 0 to run" in resumed.output
    assert f"the code is now {code_version()} and its results so far ran at abc1234 (1)" in (
        " ".join(resumed.output.split())
    )
    assert desktop_starts == []
