"""Safety by effect: whatever key or click deleted or overwrote a document, the step after it
puts the file back (auto mode), or asks the person (passive), or lets it be when allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import MemoryDesktop

from pcagent.config import PcAgentConfig, RunConfig, SafetyConfig
from pcagent.env.protocol import UnsavedDocument
from pcagent.errors import RunStateError
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.effects import discarded_documents, unasked_changes
from pcagent.runtime.events import EffectEvent, MailEvent
from pcagent.runtime.home_manifest import FileEntry, HomeManifest
from pcagent.runtime.human import ScriptedHuman
from pcagent.runtime.records import RunStore
from pcagent.runtime.session import RunSession
from pcagent.runtime.unsaved_restore import restore_unsaved


def manifest(**files: str) -> HomeManifest:
    """Paths (``__`` for ``/``) -> a content letter, as a manifest."""
    return HomeManifest(
        files={
            path.replace("__", "/"): FileEntry(sha256=content * 64, size=1, mode=0o644)
            for path, content in files.items()
        }
    )


def test_deletions_moves_and_overwrites_are_told_apart() -> None:
    before = manifest(a_txt="a", b_txt="b", Documents__c_txt="c", d_txt="d")
    after = manifest(b_txt="e", Documents__moved_txt="c", d_txt="f")
    before = HomeManifest(files={k.replace("_txt", ".txt"): v for k, v in before.files.items()})
    after = HomeManifest(files={k.replace("_txt", ".txt"): v for k, v in after.files.items()})
    changes = unasked_changes(before, after, "write a poem", open_documents=["d.txt"])
    # a.txt is gone for good; Documents/c.txt was moved (its content lives on); b.txt changed
    # behind the subtask's back; d.txt is the open document (saving it is the work)
    assert changes.deleted == ("a.txt",)
    assert changes.overwritten == ("b.txt",)


def test_asked_for_changes_and_hidden_files_are_not_flagged() -> None:
    before = HomeManifest(
        files={
            "old.txt": FileEntry(sha256="a" * 64, size=1, mode=0o644),
            "notes.txt": FileEntry(sha256="b" * 64, size=1, mode=0o644),
            ".config/app/prefs.js": FileEntry(sha256="c" * 64, size=1, mode=0o644),
        }
    )
    after = HomeManifest(files={"notes.txt": FileEntry(sha256="d" * 64, size=1, mode=0o644)})
    changes = unasked_changes(before, after, "Delete old.txt, then update notes.txt", [])
    assert not changes
    assert unasked_changes(before, after, "update notes.txt", []).deleted == ("old.txt",)


def run(
    tmp_path: Path, *actions: dict[str, object], **options: object
) -> tuple[MemoryDesktop, RunStore, str]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    (home / "other.txt").write_text("keep me")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    safety = SafetyConfig(allow=list(options.pop("allow", [])))  # type: ignore[call-overload]
    human = ScriptedHuman(confirms=options.pop("confirms", []))  # type: ignore[arg-type]
    run_config = RunConfig(listing_limit=0, app_actions_first=False, **options)  # type: ignore[arg-type]
    config = PcAgentConfig(data_dir=tmp_path, run=run_config, safety=safety)
    plan = scripts.plan(
        {"id": "s1", "description": "Add a line to notes.txt", "app": "text_editor"}
    )
    decisions = ScriptedBackend([scripts.decision(action) for action in actions])
    store = RunStore(tmp_path / "runs")
    session = RunSession(desktop, scripts.usual_models(decisions, plan), store, config, human=human)
    outcome = session.start("add a line")
    return desktop, store, outcome.run_id


DELETE = {"kind": "hotkey", "keys": ["ctrl", "delete"]}
DONE = {"kind": "done"}


def test_auto_mode_puts_a_deleted_document_back(tmp_path: Path) -> None:
    desktop, store, run_id = run(tmp_path, DELETE, DONE)
    assert (desktop.home / "notes.txt").read_text() == "draft"
    effects = [e.event for e in store.events(run_id) if isinstance(e.event, EffectEvent)]
    assert [(e.category, e.paths, e.kept) for e in effects] == [
        ("delete_files", ["notes.txt"], False)
    ]
    first = store.steps(run_id)[0]
    assert first.state is not None and "without being asked to; put back" in first.state.reflection
    # the step's record holds HOME as it is after the repair
    assert first.home_snapshot == store.steps(run_id)[1].home_snapshot


def test_auto_mode_puts_overwritten_documents_back(tmp_path: Path) -> None:
    overwrite = {"kind": "hotkey", "keys": ["ctrl", "o"]}
    desktop, store, run_id = run(tmp_path, {"kind": "type", "text": " more"}, overwrite, DONE)
    assert (desktop.home / "other.txt").read_text() == "keep me"
    kinds = [e.event.category for e in store.events(run_id) if isinstance(e.event, EffectEvent)]
    assert kinds == ["overwrite_files"]


@pytest.mark.parametrize(("confirms", "kept"), [([True], True), ([False], False)])
def test_passive_mode_asks_the_person(tmp_path: Path, confirms: list[bool], kept: bool) -> None:
    desktop, store, run_id = run(tmp_path, DELETE, DONE, mode="passive", confirms=confirms)
    assert (desktop.home / "notes.txt").exists() == (not kept)
    effect = next(e.event for e in store.events(run_id) if isinstance(e.event, EffectEvent))
    assert effect.kept == kept


def test_an_allowed_category_is_kept(tmp_path: Path) -> None:
    desktop, store, run_id = run(tmp_path, DELETE, DONE, allow=["delete_files"])
    assert not (desktop.home / "notes.txt").exists()
    effect = next(e.event for e in store.events(run_id) if isinstance(e.event, EffectEvent))
    assert effect.kept and "allow" in effect.reason


def test_without_snapshots_the_run_says_effect_checks_are_off(tmp_path: Path) -> None:
    desktop, store, run_id = run(tmp_path, DELETE, DONE, snapshot_home=False)
    assert not (desktop.home / "notes.txt").exists()
    assert store.get_run(run_id).settings["effect_checks"] == {"files": False, "mail": True}


CLOSE_WITHOUT_SAVING = {"kind": "hotkey", "keys": ["ctrl", "k"]}


def test_discarded_unsaved_work_is_told_apart_from_saved_and_still_open_work() -> None:
    def doc(document: str, title: str) -> UnsavedDocument:
        return UnsavedDocument(
            app="text_editor", title=title, document=document, suffix=".txt", contents=b"x"
        )

    notes, new = doc("notes.txt", "*notes.txt - Mousepad"), doc("", "*Untitled 1 - Mousepad")
    # closed, not saved: both lost
    assert discarded_documents([notes, new], [], [], []) == [notes, new]
    # still unsaved, or its window still open, or saved (its file written / a new file written)
    assert discarded_documents([notes], [notes], [], []) == []
    assert discarded_documents([notes], [], ["notes.txt - Mousepad"], []) == []
    assert discarded_documents([notes], [], [], ["notes.txt"]) == []
    assert discarded_documents([new], [], [], ["Documents/poem.txt"]) == []


def test_auto_mode_writes_discarded_changes_back_and_the_record_keeps_them(
    tmp_path: Path,
) -> None:
    typed = {"kind": "type", "text": " and more"}
    desktop, store, run_id = run(tmp_path, typed, CLOSE_WITHOUT_SAVING, DONE)
    assert (desktop.home / "notes.txt").read_text() == "draft"
    recovered = desktop.home / "notes (recovered).txt"
    assert recovered.read_text() == "draft and more"
    effect = next(e.event for e in store.events(run_id) if isinstance(e.event, EffectEvent))
    assert (effect.category, effect.paths, effect.kept) == (
        "discard_changes",
        ["notes.txt"],
        False,
    )
    first = store.steps(run_id)[0]
    assert [(u.app, u.document) for u in first.unsaved] == [("text_editor", "notes.txt")]
    written = restore_unsaved(store, run_id, tmp_path / "out")
    assert [p.name for p in written] == ["notes (unsaved at step 1).txt"]
    assert written[0].read_text() == "draft and more"


def test_passive_mode_lets_the_person_keep_a_discard(tmp_path: Path) -> None:
    typed = {"kind": "type", "text": " and more"}
    desktop, store, run_id = run(
        tmp_path, typed, CLOSE_WITHOUT_SAVING, DONE, mode="passive", confirms=[True]
    )
    assert not (desktop.home / "notes (recovered).txt").exists()
    with pytest.raises(RunStateError, match="step 3"):
        restore_unsaved(store, run_id, tmp_path / "out", step=3)


SEND = {"kind": "hotkey", "keys": ["ctrl", "m"]}


@pytest.mark.parametrize(
    ("options", "sent"),
    [
        ({}, False),
        ({"allow": ["send_mail"]}, True),
        ({"mode": "passive", "confirms": [True]}, True),
        ({"mode": "passive", "confirms": [False]}, False),
    ],
)
def test_mail_waits_at_the_relay_until_the_mode_allows_it(
    tmp_path: Path, options: dict[str, object], sent: bool
) -> None:
    desktop, store, run_id = run(tmp_path, SEND, DONE, **options)
    assert (desktop.delivered, desktop.rejected) == ((["m1"], []) if sent else ([], ["m1"]))
    assert desktop.held == []
    mail = [e.event for e in store.events(run_id) if isinstance(e.event, MailEvent)]
    assert [(m.message_id, m.recipients, m.sent) for m in mail] == [
        ("m1", ["boss@example.org"], sent)
    ]
