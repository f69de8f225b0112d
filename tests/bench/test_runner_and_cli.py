"""The runner with the pcagent agent (scripted models reading the real screen), and the bench
commands (list, run, report) end to end on the real desktop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.runtime import scripts
from typer.testing import CliRunner

from pcagent.bench.runner import Services, run_task
from pcagent.bench.tasks import load_tasks
from pcagent.cli import app
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.models.backends.scripted import ScriptedBackend

TODO_PLAN = scripts.plan(
    {
        "id": "s1",
        "description": "Write the to-do list and save it as todo.txt",
        "app": "text_editor",
    }
)
TODO_ACTIONS = [
    {"kind": "open_app", "app": "text_editor"},
    {"kind": "type", "text": "Book the meeting room\nSend the agenda\nOrder coffee\n"},
    {"kind": "hotkey", "keys": ["ctrl", "s"]},
    {"kind": "wait", "seconds": 1},
    {"kind": "hotkey", "keys": ["ctrl", "a"]},
    {"kind": "type", "text": "~/Documents/todo.txt"},
    {"kind": "press", "key": "enter"},
    {"kind": "done"},
]


@pytest.mark.desktop
@pytest.mark.slow
def test_the_pcagent_agent_is_evaluated_after_every_step(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    task = load_tasks()["pc04"]
    models = scripts.usual_models(
        ScriptedBackend([scripts.decision(a) for a in TODO_ACTIONS]), TODO_PLAN
    )
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(listing_limit=0, max_steps=12))
    result = run_task(task, "pcagent", desktop, Services(), config=config, models=models)
    assert result.error is None, result.error
    assert result.outcome.success, [(n.node_id, n.reason) for n in result.nodes]
    saved = result.nodes[0]
    assert saved.step == 7  # passed right after the step that saved the file
    assert result.outcome.actions == 8 and result.run_id
    assert result.outcome.planned_apps == ("text_editor",)
    assert result.outcome.manager_correct is True


def test_bench_list_json() -> None:
    result = CliRunner().invoke(app, ["bench", "list", "--json"])
    assert result.exit_code == 0, result.output
    tasks = json.loads(result.output)
    assert len(tasks) == 25
    assert {"id", "apps", "subtasks", "subgoals", "instruction"} <= set(tasks[0])


def test_bench_report_without_runs_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["bench", "report"], env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    )
    assert result.exit_code == 2 and "bench run" in result.output


@pytest.mark.desktop
@pytest.mark.slow
def test_bench_run_and_report(tmp_path: Path) -> None:
    environment = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    runner = CliRunner()
    ran = runner.invoke(
        app, ["bench", "run", "--agent", "reference", "-t", "pc05", "-t", "pc04"], env=environment
    )
    assert ran.exit_code == 0, ran.output
    assert "SR 100.0%" in ran.output and "reset median" in ran.output
    noop = runner.invoke(app, ["bench", "run", "--agent", "noop", "-t", "pc05"], env=environment)
    assert noop.exit_code == 0 and "SR 0.0%" in noop.output
    page = tmp_path / "report.html"
    reported = runner.invoke(app, ["bench", "report", "-o", str(page)], env=environment)
    assert reported.exit_code == 0, reported.output
    html = page.read_text()
    assert "<svg" in html and "Table 3 shape" in html and "pc05" in html
    summary = json.loads(runner.invoke(app, ["bench", "report", "--json"], env=environment).output)
    assert summary["agent"] == "noop" and summary["metrics"]["SR"] == 0
    assert summary["tasks"][0]["failed_nodes"]
