"""The runner with the pcagent agent (scripted models reading the real screen); the bench
commands are tested in tests/cli/test_bench.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts

from pcagent.bench.task_run import Services, run_task
from pcagent.bench.tasks import load_tasks
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
# The run opens the word processor itself (its first step, by rule); the model types and saves.
WRITER_ACTIONS = [
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
    config = PcAgentConfig(
        data_dir=tmp_path, run=RunConfig(listing_limit=0, app_actions_first=False, max_steps=12)
    )
    result = run_task(task, "pcagent", desktop, Services(), config=config, models=models)
    assert result.error is None, result.error
    assert result.outcome.success, [(n.node_id, n.reason) for n in result.nodes]
    saved = result.nodes[0]
    assert saved.step in (6, 7)  # passed right after the step that saved the file
    assert result.outcome.actions == 8 and result.run_id
    assert result.outcome.planned_apps == ("writer",)
    assert result.outcome.manager_correct is True
