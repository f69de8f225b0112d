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

PARAGRAPHS = (
    "Alibaba is a technology group from Hangzhou that runs online marketplaces.\n"
    "OpenAI is a research company in San Francisco that builds language models.\n"
)
WRITER_PLAN = scripts.plan(
    {
        "id": "s1",
        "description": "Write the two paragraphs and save them as TechCompanies",
        "app": "writer",
    }
)
WRITER_ACTIONS = [
    {"kind": "open_app", "app": "writer"},
    {"kind": "type", "text": PARAGRAPHS},
    {"kind": "hotkey", "keys": ["ctrl", "s"]},
    {"kind": "wait", "seconds": 1},
    {"kind": "type", "text": "~/Documents/TechCompanies"},
    {"kind": "press", "key": "enter"},
    {"kind": "wait", "seconds": 2},
    {"kind": "done"},
]


@pytest.mark.desktop
@pytest.mark.slow
def test_the_pcagent_agent_is_evaluated_after_every_step(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    task = load_tasks()["pc09"]
    models = scripts.usual_models(
        ScriptedBackend([scripts.decision(a) for a in WRITER_ACTIONS]), WRITER_PLAN
    )
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(listing_limit=0, max_steps=12))
    result = run_task(task, "pcagent", desktop, Services(), config=config, models=models)
    assert result.error is None, result.error
    assert result.outcome.success, [(n.node_id, n.reason) for n in result.nodes]
    saved = result.nodes[0]
    assert saved.step in (6, 7)  # passed right after the step that saved the file
    assert result.outcome.actions == 8 and result.run_id
    assert result.outcome.planned_apps == ("writer",)
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
        app, ["bench", "run", "--agent", "reference", "-t", "pc09", "-t", "pc02"], env=environment
    )
    assert ran.exit_code == 0, ran.output
    assert "SR 100.0%" in ran.output and "reset median" in ran.output
    noop = runner.invoke(app, ["bench", "run", "--agent", "noop", "-t", "pc09"], env=environment)
    assert noop.exit_code == 0 and "SR 0.0%" in noop.output
    page = tmp_path / "report.html"
    reported = runner.invoke(app, ["bench", "report", "-o", str(page)], env=environment)
    assert reported.exit_code == 0, reported.output
    html = page.read_text()
    assert "<svg" in html and "Table 3 shape" in html and "pc09" in html
    summary = json.loads(runner.invoke(app, ["bench", "report", "--json"], env=environment).output)
    assert summary["agent"] == "noop" and summary["metrics"]["SR"] == 0
    assert summary["tasks"][0]["failed_nodes"]
