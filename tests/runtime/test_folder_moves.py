"""Making a folder and moving the named files into it, by rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts

from pcagent import app_actions
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import default_pool
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.runtime.folder_moves import filed, folder_move, folder_plan
from pcagent.runtime.records import RunStore
from pcagent.runtime.session import RunSession

POOL = default_pool(["file_manager", "text_editor"], frozenset({"files_make_folder", "files_move"}))
WORDS = (
    "In the file manager, create a folder Archive2 in the Documents folder and move "
    "boat_list.txt and tide_times.csv into it."
)


def test_the_folder_and_the_files_are_read_off_the_words() -> None:
    assert folder_plan(WORDS) == ("Documents/Archive2", ["boat_list.txt", "tide_times.csv"])
    assert folder_plan("Make a new folder named 'Trips' and move plan.docx into that folder") == (
        "Trips",
        ["plan.docx"],
    )
    # a folder alone, files moved somewhere named, or moving before making: not this rule
    assert folder_plan("Create a folder Trips in the Documents folder") is None
    assert folder_plan("Move notes.txt into the Trips folder") is None
    assert folder_plan("Move a.txt into it, then create a folder B") is None


def test_the_run_makes_the_folder_then_moves_each_file_then_the_subtask_is_done() -> None:
    role = POOL.for_app("file_manager")
    assert role is not None
    spec = SubtaskSpec(id="s1", description=WORDS, app="file_manager")
    home = {
        "boat_list.txt": "Documents/boat_list.txt",
        "tide_times.csv": "Documents/tide_times.csv",
    }
    history: list[str] = []

    def step() -> app_actions.AppAction | None:
        move = folder_move(spec, role, history, lambda: dict(home))
        if move is None:
            return None
        assert move.reasoning.startswith("[run]")
        return move.action  # type: ignore[return-value]

    # only the file manager's role is served (its actions need no window in front)
    editor = POOL.for_app("text_editor")
    assert editor is not None and folder_move(spec, editor, history, lambda: home) is None
    made = step()
    assert made == app_actions.FilesMakeFolder(path="Documents/Archive2")
    history.append("1: files_make_folder(path='Documents/Archive2') -> success")
    for number, name in enumerate(["boat_list.txt", "tide_times.csv"], start=2):
        assert not filed(WORDS, history)
        source = f"Documents/{name}"
        assert step() == app_actions.FilesMove(source=source, target="Documents/Archive2")
        history.append(
            f"{number}: files_move(source='{source}', target='Documents/Archive2') -> success"
        )
        home[name] = f"Documents/Archive2/{name}"
    assert filed(WORDS, history)
    assert step() is None  # nothing is left to do


def test_a_failed_step_or_a_missing_file_leaves_the_choice_to_the_model() -> None:
    role = POOL.for_app("file_manager")
    assert role is not None
    spec = SubtaskSpec(id="s1", description=WORDS, app="file_manager")
    failed_make = ["1: files_make_folder(path='Documents/Archive2') -> no_change"]
    assert folder_move(spec, role, failed_make, lambda: {}) is None
    made = ["1: files_make_folder(path='Documents/Archive2') -> success"]
    assert folder_move(spec, role, made, lambda: {}) is None  # not in HOME
    failed_move = [
        *made,
        "2: files_move(source='Documents/boat_list.txt', target='Documents/Archive2') -> no_change",
    ]
    home = {"boat_list.txt": "Documents/boat_list.txt"}
    assert folder_move(spec, role, failed_move, lambda: home) is None
    assert not filed(WORDS, failed_move)


@pytest.mark.desktop
def test_a_run_makes_the_folder_and_moves_the_files_in_the_real_file_manager(
    desktop: SandboxDesktop, tmp_path: Path
) -> None:
    documents = desktop.home / "Documents"
    for name in ("boat_list.txt", "tide_times.csv"):
        (documents / name).write_text(f"{name}\n")
        give_to_owner(documents / name, desktop.home)
    asked: list[str] = []

    def decisions(request: object) -> str:
        asked.append(scripts.prompt_of(request))  # type: ignore[arg-type]
        return scripts.decision({"kind": "fail", "reason": "the rule should have acted"}, "")

    plan = scripts.plan({"id": "s1", "description": WORDS, "app": "file_manager"})
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(listing_limit=0))
    with RunStore(tmp_path / "runs") as store:
        outcome = RunSession(desktop, scripts.usual_models(decisions, plan), store, config).start(
            WORDS
        )
        events = [e.event for e in store.events(outcome.run_id) if e.kind == "auto_done"]
    assert outcome.status == "finished", outcome.summary
    assert not asked, asked[:1]
    assert sorted(p.name for p in (documents / "Archive2").iterdir()) == [
        "boat_list.txt",
        "tide_times.csv",
    ]
    assert not (documents / "boat_list.txt").exists()
    assert any("every file it names moved" in getattr(e, "reason", "") for e in events)
