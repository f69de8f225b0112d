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

PARAGRAPHS = [
    "Alibaba is a technology group from Hangzhou that runs online marketplaces.",
    "OpenAI is a research company in San Francisco that builds language models.",
]
WRITER_PROGRAM = json.dumps(
    {
        "steps": [
            {
                "id": "s1",
                "skill": "compose_text",
                "args": {"request": "an introduction of two companies", "paragraphs": 2},
            },
            {
                "id": "s2",
                "skill": "write_document",
                "args": {"path": "Documents/TechCompanies.docx", "text": {"from": "s1"}},
            },
        ]
    }
)


@pytest.mark.desktop
@pytest.mark.slow
def test_the_pcagent_agent_is_evaluated_after_every_step(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    task = load_tasks()["pc09"]
    # The program (scripted here) composes the text, then writes and saves the document with
    # the word processor's own actions, each checked: the Decision model is never asked.
    decisions = ScriptedBackend([scripts.decision({"kind": "done"})])
    models = scripts.usual_models(decisions, WRITER_PROGRAM)
    models.backends["composer"] = ScriptedBackend([json.dumps({"paragraphs": PARAGRAPHS})])
    config = PcAgentConfig(
        data_dir=tmp_path, run=RunConfig(listing_limit=0, app_actions_first=False, max_steps=12)
    )
    result = run_task(task, "pcagent", desktop, Services(), config=config, models=models)
    assert result.error is None, result.error
    assert result.outcome.success, [(n.node_id, n.reason) for n in result.nodes]
    saved = result.nodes[0]
    assert saved.step == 2  # passed right after the step that saved the file
    assert result.outcome.actions == 2 and result.run_id and not decisions.requests
    assert (result.outcome.model_decisions, result.outcome.code_decisions) == (2, 0)
    assert result.outcome.planned_apps == ("writer",)
    assert result.outcome.manager_correct is True


@pytest.mark.desktop
@pytest.mark.slow
def test_a_fault_of_pcagent_s_own_fails_the_task_and_not_the_runner(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    def broken(request: object) -> str:
        raise ValueError("a fault nobody foresaw")

    models = scripts.usual_models(ScriptedBackend([]), WRITER_PROGRAM)
    models.backends["manager"] = ScriptedBackend([broken])
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(listing_limit=0, max_steps=3))
    result = run_task(
        load_tasks()["pc09"], "pcagent", desktop, Services(), config=config, models=models
    )
    assert result.error == "internal error: ValueError: a fault nobody foresaw"
    assert not result.outcome.success
    assert "internal_error" in result.outcome.failure_causes
