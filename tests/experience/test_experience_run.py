"""A run guided by experience, end to end over the in-memory desktop: a first run is recorded,
a graph is built from its record with the real encoder, and a second run with ``run.experience``
shows Decision what the first one did from the same page, while ``no_experience`` shows nothing.
(Scripted models: this tests the wiring; the retrieval itself is tested in test_page_graph.py.)"""

from __future__ import annotations

from pathlib import Path

from tests.runtime import scripts
from tests.runtime.memory_desktop import MemoryDesktop

from pcagent.config import PcAgentConfig, RunConfig, load_config
from pcagent.experience.build import build_graph
from pcagent.experience.embedding import SentenceEncoder
from pcagent.experience.loading import open_experience
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore

PLAN = scripts.plan({"id": "s1", "description": "Add a word to notes.txt", "app": "text_editor"})


def moves() -> ScriptedBackend:
    return ScriptedBackend(
        [
            scripts.decision(a)
            # saved through the editor's own action, which checks its effect: the run is
            # "finished" (verified), and only such runs are learned from
            for a in (
                {"kind": "type", "text": " one"},
                {"kind": "editor_save_as", "path": "notes.txt"},
                {"kind": "done"},
            )
        ]
    )


def test_a_second_run_is_told_what_the_first_did(
    tmp_path: Path, shared_encoder: SentenceEncoder
) -> None:
    (tmp_path / "models").symlink_to(load_config().models_dir)
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    store = RunStore(tmp_path / "runs")
    config = PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(
            screen_steps_doubted=False, max_steps=5, listing_limit=0, app_actions_first=False
        ),
    )
    first = RunSession(desktop, scripts.usual_models(moves(), PLAN), store, config).start("write")
    assert first.status == "finished", first.summary

    graph = tmp_path / "graph.db"
    build_graph(shared_encoder, DEFAULT_EMBEDDING_PACK, [store.root]).save(graph)
    guided = config.updated("run", experience=str(graph))
    experience = open_experience(graph, guided.models_dir)
    for ablation, expected in (("none", True), ("no_experience", False)):
        decisions = moves()
        desktop.close_apps()
        (home / "notes.txt").write_text("draft")
        desktop.open_app("text_editor", [home / "notes.txt"])
        session = RunSession(
            desktop,
            scripts.usual_models(decisions, PLAN),
            store,
            guided,
            ablation=ablation,
            experience=experience,
        )
        assert session.start("write").status == "finished"
        prompt = decisions.requests[0].messages[-1].text
        assert ("Earlier runs, from a page like this one" in prompt) is expected, prompt
        if expected:
            assert "type the text" in prompt and "(achieved: Add a word to <file>)" in prompt
