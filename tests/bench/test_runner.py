"""The runner with the pcagent agent (scripted models reading the real screen); the bench
commands are tested in tests/cli/test_bench.py."""

from __future__ import annotations

import json
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
        "description": "Write the two paragraphs and save them as TechCompanies in the Documents "
        "folder",
        "app": "writer",
    }
)


@pytest.mark.desktop
@pytest.mark.slow
def test_the_pcagent_agent_is_evaluated_after_every_step(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    task = load_tasks()["pc09"]
    # The run opens the word processor (by rule), the Composer writes the paragraphs, the run
    # inserts them and saves them under the subtask's name (by rule), which ends the subtask:
    # the model is never asked.
    decisions = ScriptedBackend([scripts.decision({"kind": "done"})])
    models = scripts.usual_models(decisions, WRITER_PLAN)
    models.backends["composer"] = ScriptedBackend([json.dumps({"text": PARAGRAPHS})])
    config = PcAgentConfig(
        data_dir=tmp_path, run=RunConfig(listing_limit=0, app_actions_first=False, max_steps=12)
    )
    result = run_task(task, "pcagent", desktop, Services(), config=config, models=models)
    assert result.error is None, result.error
    assert result.outcome.success, [(n.node_id, n.reason) for n in result.nodes]
    saved = result.nodes[0]
    assert saved.step == 3  # passed right after the step that saved the file
    assert result.outcome.actions == 3 and result.run_id and not decisions.requests
    assert result.outcome.planned_apps == ("writer",)
    assert result.outcome.manager_correct is True
