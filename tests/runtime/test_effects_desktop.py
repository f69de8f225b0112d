"""Safety by effect on the real sandbox: unsaved text thrown away in the real editor comes back.

The keystroke guard puts the close and the "Don't Save" to the person (passive mode), who lets
both through; the effect check behind it then sees the unsaved changes gone and asks again; the
person says no, so the text is written back into HOME and the record keeps it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.runtime import scripts

from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.runtime.loop.human import ScriptedHuman
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.events import EffectEvent
from pcagent.runtime.record.store import RunStore
from pcagent.runtime.safety.unsaved_restore import restore_unsaved

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TYPED = "a line the agent then throws away"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "runs") as run_store:
        yield run_store


def test_discarded_text_in_the_editor_is_written_back(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    notes = desktop.home / "notes.txt"
    notes.write_text("kept\n")
    give_to_owner(notes, desktop.home)  # the editor's own file, as HOME's files are
    desktop.open_app("text_editor", [notes])
    moves = iter(["type", "close", "dont_save", "done"])

    def decisions(request: object) -> str:
        prompt = scripts.prompt_of(request)  # type: ignore[arg-type]
        move = next(moves)
        if move == "type":
            return scripts.decision({"kind": "type", "text": TYPED}, "write")
        if move == "close":
            return scripts.decision({"kind": "hotkey", "keys": ["ctrl", "q"]}, "close it")
        if move == "dont_save":
            labels = re.findall(r'^\d+ button "([^"]+)"', prompt, re.MULTILINE)
            label = next(name for name in labels if "save" in name.lower() and "n" in name.lower())
            x, y = scripts.button(prompt, label)
            return scripts.decision({"kind": "click", "x": x, "y": y}, "do not save")
        return scripts.decision({"kind": "done"}, "finished")

    plan = scripts.plan({"id": "s1", "description": "Tidy up the editor", "app": "text_editor"})
    # yes to the close, yes to "Don't Save" (keystroke guard); no to keeping the discard (effects)
    human = ScriptedHuman(confirms=[True, True, False])
    config = PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(
            screen_steps_doubted=False, listing_limit=0, app_actions_first=False, mode="passive"
        ),
    )
    session = RunSession(desktop, scripts.usual_models(decisions, plan), store, config, human=human)
    outcome = session.start("tidy up")
    assert outcome.status == "unverified", outcome.summary

    assert notes.read_text() == "kept\n"  # the file itself was never saved
    recovered = desktop.home / "notes (recovered).txt"
    # the editor's caret was at the start of the file: the typed line came first
    assert recovered.read_text().rstrip("\n") == TYPED + "kept"
    assert recovered.stat().st_uid == desktop.home.stat().st_uid  # the editor's to open again
    events = [e.event for e in store.events(outcome.run_id) if isinstance(e.event, EffectEvent)]
    assert [(e.category, e.kept) for e in events] == [("discard_changes", False)]
    assert "Keep that change" in human.questions[-1]
    written = restore_unsaved(store, outcome.run_id, tmp_path / "out")
    assert written and TYPED in written[0].read_text()
