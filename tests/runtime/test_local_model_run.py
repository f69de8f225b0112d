"""The whole loop with the real local model (smollm2-135m): every agent is asked through the real
inference path with schema-constrained output, and the run ends cleanly at its step cap.

smollm2's answers are meaningless; what is checked is that they are valid, typed, recorded with
their tokens, and that nothing in the loop breaks on them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pcagent.cli.wait_display import JsonEvents
from pcagent.config import ModelProfile, ModelsConfig, PcAgentConfig, RunConfig, load_config
from pcagent.env import SandboxDesktop
from pcagent.models import ModelRouter
from pcagent.models.installer import install_pack
from pcagent.runtime.loop.progress import Progress
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.models import RoleModel
from pcagent.runtime.record.store import RunStore

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


# One step asks every agent once; on two shared cores that takes minutes when another sandbox is
# busy beside it, too close to the suite's default limit.
@pytest.mark.timeout(600)
def test_smollm2_drives_the_loop_until_the_step_cap(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    base = load_config(environ={})
    install_pack("smollm2-135m", base.models_dir, report=print)
    # Short replies, no re-asks and one program asked for keep the smoke run near a minute: smollm2 fills whatever
    # output budget it gets. The pack is named: unnamed, the best installed pack would answer.
    models = ModelsConfig(
        profiles={"local": ModelProfile(max_output_tokens=200, pack="smollm2-135m")},
        validation_retries=0,
    )
    config = PcAgentConfig(
        data_dir=base.data_dir,
        models=models,
        run=RunConfig(max_steps=1, listing_limit=15, program_attempts=1),
    )
    desktop.open_app("calculator")
    events = io.StringIO()
    with ModelRouter(config) as router, RunStore(tmp_path / "runs") as store:
        session = RunSession(desktop, router, store, config, progress=Progress(JsonEvents(events)))
        outcome = session.start(
            "Compute 12 times 11 in the calculator and write the result in the text editor"
        )
        steps = store.steps(outcome.run_id)
        calls = store.calls(outcome.run_id)
        record = store.get_run(outcome.run_id)
    assert outcome.status in ("finished", "unverified", "failed")
    assert len(steps) == 1
    if outcome.status == "failed":
        assert "step cap" in outcome.summary or "failed" in outcome.summary
    assert record.status == outcome.status
    for call in calls:
        print(
            call.step,
            call.agent,
            call.prompt_tokens,
            call.completion_tokens,
            round(call.latency_s, 1),
        )
    assert "manager" in {call.agent for call in calls}
    assert all(call.prompt_tokens > 0 for call in calls)
    assert record.tokens == outcome.tokens > 0
    # the record names the model that answered, as the router loaded it
    assert record.models["manager"] == RoleModel(profile="local", model="local:smollm2-135m")
    asked = {call.agent for call in calls} & {"manager", "decision", "reflection", "progress"}
    assert asked <= set(record.models)
    # the waits, as --json prints them: one JSON object a line, each model call begun and ended
    told = [json.loads(line) for line in events.getvalue().splitlines()]
    calls_told = [e for e in told if e["event"] == "wait_start" and e["kind"] == "model_call"]
    # the instruction's readings may come first; the Manager's call is told with its model
    manager_told = next(e for e in calls_told if e["role"] == "manager")
    assert manager_told["model"] == "local:smollm2-135m"
    ended = {e["id"]: e for e in told if e["event"] == "wait_end"}
    assert all(ended[e["id"]]["ok"] and ended[e["id"]]["elapsed_s"] > 0 for e in calls_told)
    assert len(calls_told) >= len(calls)  # every recorded call was told as a wait
    # each step was decided by the Decision model, by the Manager's program (a skill call,
    # marked "[plan]"), or by the run opening a step's application (marked "[run]")
    decided = {call.step for call in calls if call.agent == "decision"}
    for step in steps:
        assert step.action is not None or step.error
        chosen = step.thought.startswith(("[run]", "[plan]"))
        assert step.step in decided or chosen, step.thought
