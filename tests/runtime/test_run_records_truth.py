"""What a run's record says matches what happened: a refused ``done`` is recorded and shown as
refused, a run an error ends (even before its first step) is failed with its error, and each
agent role's model is recorded and shown. Scripted models over the in-memory desktop: this is
the orchestration around the models, not their inference."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import MemoryDesktop
from typer.testing import CliRunner

from pcagent.cli import app
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.errors import ModelAuthenticationError
from pcagent.models.backend import BackendInfo
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.progress import Progress, Wait
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.events import DoneRefusedEvent, FinishEvent
from pcagent.runtime.record.store import RunStore
from pcagent.viewer.run_pages import model_of

PLAN = scripts.plan(
    {"id": "s1", "description": "Read the first word of notes.txt", "app": "text_editor"}
)
PLAN_WITH_OUTPUT = scripts.plan(
    {
        "id": "s1",
        "description": "Read the first word of notes.txt",
        "app": "text_editor",
        "outputs": ["word"],
    }
)


class ProfiledModels(scripts.Models):
    """Scripted models that name a profile per role, as the router does."""

    def profile_name(self, role: str) -> str:
        return "planner" if role == "manager" else "worker"


class WaitLog:
    def __init__(self) -> None:
        self.started: list[Wait] = []
        self.ended: list[tuple[Wait, str]] = []

    def wait_started(self, wait_id: int, wait: Wait) -> None:
        self.started.append(wait)

    def wait_ended(self, wait_id: int, wait: Wait, elapsed_s: float, error: str) -> None:
        self.ended.append((wait, error))


def setup(tmp_path: Path, max_steps: int) -> tuple[MemoryDesktop, RunStore, PcAgentConfig]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    run = RunConfig(
        screen_steps_doubted=False, max_steps=max_steps, listing_limit=0, app_actions_first=False
    )
    return desktop, RunStore(tmp_path / "runs"), PcAgentConfig(data_dir=tmp_path, run=run)


def models_named(decisions: ScriptedBackend, plan: str) -> ProfiledModels:
    usual = scripts.usual_models(decisions, plan)
    backends = dict(usual.backends)
    backends["manager"] = ScriptedBackend([plan], info=BackendInfo(name="scripted:big-planner"))
    return ProfiledModels(**backends)


def show(tmp_path: Path, *arguments: str) -> str:
    env = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": "", "COLUMNS": "250"}
    result = CliRunner().invoke(app, list(arguments), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_refused_done_is_recorded_and_shown_as_refused(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path, max_steps=4)
    decisions = ScriptedBackend(
        [
            scripts.decision({"kind": "done"}, "finished"),  # the word was never reported
            scripts.decision({"kind": "answer", "text": "draft"}, "the first word"),
            scripts.decision({"kind": "done"}, "finished"),
        ]
    )
    waits = WaitLog()
    session = RunSession(
        desktop, models_named(decisions, PLAN_WITH_OUTPUT), store, config, progress=Progress(waits)
    )
    outcome = session.start("Tell me the first word of notes.txt")
    assert outcome.status == "unverified", outcome.summary
    steps = store.steps(outcome.run_id)
    refused, accepted = steps[0], steps[2]
    assert refused.result is not None and accepted.result is not None
    assert refused.result.refused and not refused.result.ok and not refused.result.finished
    assert "done refused: report word" in refused.result.message
    assert accepted.result.ok and not accepted.result.refused
    events = [e.event for e in store.events(outcome.run_id)]
    assert any(isinstance(e, DoneRefusedEvent) for e in events)

    shown = show(tmp_path, "runs", "show", outcome.run_id)
    first = next(line for line in shown.splitlines() if line.strip().startswith("1 [s1"))
    assert "refused" in first and "success" not in first, first
    assert "outcome: unverified" in shown

    # every model call was a wait, named by its role and model
    asked = {(w.role, w.model, w.profile) for w in waits.started if w.kind == "model_call"}
    assert ("manager", "scripted:big-planner", "planner") in asked
    assert ("decision", "scripted", "worker") in asked
    assert len(waits.ended) == len(waits.started)


def test_each_roles_model_is_recorded_and_shown(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path, max_steps=2)
    decisions = ScriptedBackend([scripts.decision({"kind": "done"}, "finished")])
    outcome = RunSession(desktop, models_named(decisions, PLAN), store, config).start("read it")
    record = store.get_run(outcome.run_id)
    assert record.models["manager"].model == "scripted:big-planner"
    assert record.models["manager"].profile == "planner"
    assert record.models["decision"].model == "scripted"
    assert record.models["decision"].profile == "worker"
    assert "composer" not in record.models  # a role that never asked is not named
    assert model_of(record.settings) == "scripted, scripted:big-planner"

    shown = show(tmp_path, "runs", "show", outcome.run_id)
    assert "model scripted:big-planner (profile planner): manager" in shown
    assert "model scripted (profile worker): decision" in shown
    listed = show(tmp_path, "runs", "list")
    assert "scripted, scripted:big-planner" in listed


def test_an_error_before_the_first_step_fails_the_run_with_the_error(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path, max_steps=2)
    models = ProfiledModels(
        manager=ScriptedBackend([ModelAuthenticationError("the server refused the key")])
    )
    waits = WaitLog()
    session = RunSession(desktop, models, store, config, progress=Progress(waits))
    with pytest.raises(ModelAuthenticationError):
        session.start("read it")
    (record,) = store.list_runs()
    assert record.status == "failed"
    assert "ModelAuthenticationError: the server refused the key" in record.summary
    finish = [e.event for e in store.events(record.run_id) if isinstance(e.event, FinishEvent)]
    assert finish[-1].outcome == "failed"
    assert finish[-1].error == "ModelAuthenticationError: the server refused the key"
    assert store.steps(record.run_id) == []
    assert record.models["manager"].profile == "planner"  # it was asked, and failed
    # The instruction's readings come first; the Manager's wait ends with the error.
    assert [(w.role, error) for w, error in waits.ended if error] == [
        ("manager", "ModelAuthenticationError")
    ]
    assert len(waits.ended) == len(waits.started)
    assert "failed" in show(tmp_path, "runs", "list")
