"""The whole run layer — start, step cap, resume, rewind, replay — over an in-memory desktop that
implements only the environment contract (tests/runtime/memory_desktop.py)."""

from __future__ import annotations

from pathlib import Path

from tests.runtime import scripts
from tests.runtime.memory_desktop import SAVE, MemoryDesktop

from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env.protocol import (
    ApplicationCatalog,
    ApplicationControl,
    Describable,
    Environment,
    LocalHome,
)
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.records import RunStore
from pcagent.runtime.replay import replay_run
from pcagent.runtime.session import RunSession

PLAN = scripts.plan({"id": "s1", "description": "Write in notes.txt", "app": "text_editor"})
SAVE_CLICK = {"kind": "click", "x": SAVE.center[0], "y": SAVE.center[1]}


def moves(*actions: dict[str, object]) -> ScriptedBackend:
    return ScriptedBackend([scripts.decision(action) for action in actions])


def setup(tmp_path: Path) -> tuple[MemoryDesktop, RunStore, PcAgentConfig]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(max_steps=3, listing_limit=0))
    return desktop, RunStore(tmp_path / "runs"), config


def test_the_memory_desktop_offers_exactly_the_contract(tmp_path: Path) -> None:
    desktop = MemoryDesktop(tmp_path)
    for capability in (Environment, ApplicationCatalog, ApplicationControl, LocalHome, Describable):
        assert isinstance(desktop, capability)


def test_start_stop_at_the_cap_resume_and_rewind(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    notes = desktop.home / "notes.txt"
    first = moves(
        {"kind": "type", "text": " one"},
        SAVE_CLICK,
        {"kind": "type", "text": " two"},
    )
    outcome = RunSession(desktop, scripts.usual_models(first, PLAN), store, config).start("write")
    assert outcome.status == "failed" and "step cap (3)" in outcome.summary
    assert notes.read_text() == "draft one"  # " two" typed, not saved
    steps = store.steps(outcome.run_id)
    assert [s.apps[0].document for s in steps] == ["notes.txt"] * 3
    assert all(s.home_snapshot for s in steps)
    settings = store.get_run(outcome.run_id).settings
    assert settings["environment"] == {"kind": "memory", "home": str(desktop.home)}

    # resume: the desktop of step 3 comes back (the file as saved, the editor on it), then on
    more = moves(SAVE_CLICK, {"kind": "done"})
    config = config.model_copy(update={"run": RunConfig(max_steps=10, listing_limit=0)})
    desktop.close_apps()
    notes.write_text("changed behind the run's back")
    resumed = RunSession(desktop, scripts.usual_models(more), store, config).resume(outcome.run_id)
    assert resumed.status == "finished", resumed.summary
    assert desktop.opened[-1] == ("text_editor", (str(notes),))
    # the restored editor held the saved text, so the unsaved " two" is gone
    assert notes.read_text() == "draft one"

    # rewind to step 1: " one" typed, not yet saved; the file is "draft" again
    again = moves({"kind": "type", "text": " three"}, SAVE_CLICK, {"kind": "done"})
    rewound = RunSession(desktop, scripts.usual_models(again), store, config).rewind(
        outcome.run_id, 1, guidance="write three"
    )
    assert rewound.status == "finished"
    assert notes.read_text() == "draft three"
    child = store.get_run(rewound.run_id)
    assert (child.parent_run, child.parent_step) == (outcome.run_id, 1)
    kinds = [e.kind for e in store.events(rewound.run_id)]
    assert kinds[:2] == ["restore", "rewind"]
    assert "Guidance from the user: write three" in scripts.prompt_texts(again)[0]
    # step 1 had typed " one" without saving: it comes back as a file, and the agents are told
    assert (desktop.home / "notes (unsaved at step 1).txt").read_text() == "draft one"
    assert "notes (unsaved at step 1).txt" in scripts.prompt_texts(again)[0]


def test_replay_re_executes_through_the_same_dispatcher(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(update={"run": RunConfig(max_steps=10, listing_limit=0)})
    script = moves({"kind": "type", "text": " one"}, SAVE_CLICK, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, PLAN), store, config).start("write")
    assert outcome.status == "finished"
    (desktop.home / "notes.txt").write_text("draft")
    desktop.close_apps()
    replayed = replay_run(store, desktop, outcome.run_id)
    assert [(s.action, s.executed) for s in replayed] == [
        ("type", True),
        ("click", True),
        ("done", False),
    ]
    assert all(s.agrees for s in replayed)
    assert (desktop.home / "notes.txt").read_text() == "draft one"
