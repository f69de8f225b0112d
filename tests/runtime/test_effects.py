"""Safety by effect: whatever key or click deleted or overwrote a document, the step after it
puts the file back (auto mode), or asks the person (passive), or lets it be when allowed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import MemoryDesktop

from pcagent.agents.plan import SubtaskSpec
from pcagent.config import PcAgentConfig, RunConfig, SafetyConfig
from pcagent.env.protocol import UnsavedDocument
from pcagent.errors import RunStateError
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.human import ScriptedHuman
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.events import EffectEvent, MailEvent
from pcagent.runtime.record.store import RunStore
from pcagent.runtime.safety.effects import (
    FileChanges,
    FileEffectGuard,
    StepFiles,
    asked_files,
    discarded_documents,
    unasked_changes,
)
from pcagent.runtime.safety.home_manifest import FileEntry, HomeManifest
from pcagent.runtime.safety.home_snapshot import HomeSnapshots
from pcagent.runtime.safety.unsaved_restore import restore_unsaved
from pcagent.skills import default_catalog


def files(**paths: str) -> HomeManifest:
    """Paths -> a content hex digit, as a manifest (``files(**{"a/b.txt": "x"})``)."""
    return HomeManifest(
        files={path: FileEntry(sha256=c * 64, size=1, mode=0o644) for path, c in paths.items()}
    )


def test_deletions_moves_and_overwrites_are_told_apart() -> None:
    before = files(**{"a.txt": "a", "b.txt": "b", "Documents/c.txt": "c", "d.txt": "d"})
    after = files(**{"b.txt": "e", "Documents/moved.txt": "c", "d.txt": "f"})
    changes = unasked_changes(before, after, StepFiles(open_before=frozenset({"d.txt"})))
    # a.txt is gone for good; Documents/c.txt was moved (its content lives on); b.txt changed
    # behind the step's back; d.txt was the open document (saving it is the work)
    assert changes.deleted == ("a.txt",)
    assert changes.overwritten == ("b.txt",)


def test_what_the_plan_names_may_change_and_hidden_files_are_not_watched() -> None:
    before = files(**{"old.txt": "a", "notes.txt": "b", ".config/app/prefs.js": "c"})
    after = files(**{"notes.txt": "d"})
    asked = StepFiles(asked=frozenset({"old.txt", "notes.txt"}))
    assert not unasked_changes(before, after, asked)
    only_notes = unasked_changes(before, after, StepFiles(asked=frozenset({"notes.txt"})))
    assert only_notes == FileChanges(deleted=("old.txt",))
    # a folder the plan names covers what is inside it
    inside = unasked_changes(
        files(**{"Old/a.txt": "a"}), files(), StepFiles(asked=frozenset({"Old"}))
    )
    assert not inside


def test_save_as_onto_a_file_shown_only_after_the_step_is_an_overwrite() -> None:
    # "Save As" other.txt + "Replace": the window shows other.txt now, but did not before
    before = files(**{"notes.txt": "1", "other.txt": "2"})
    after = files(**{"notes.txt": "1", "other.txt": "1"})
    changes = unasked_changes(before, after, StepFiles(open_before=frozenset({"notes.txt"})))
    assert changes == FileChanges(overwritten=("other.txt",))


def test_a_move_onto_an_existing_name_loses_neither_content() -> None:
    before = files(**{"a.txt": "3", "Archive/a.txt": "4"})
    after = files(**{"Archive/a.txt": "3"})
    # the target is put back, so the moved file's content is lost too unless it comes back
    assert unasked_changes(before, after, StepFiles()) == FileChanges(
        deleted=("a.txt",), overwritten=("Archive/a.txt",)
    )
    # when the plan asks for the target, the move stands
    asked = StepFiles(asked=frozenset({"Archive/a.txt"}))
    assert not unasked_changes(before, after, asked)


def test_a_copy_that_was_there_before_or_the_trash_does_not_keep_a_deleted_file() -> None:
    before = files(**{"a.txt": "3", "backup/a.txt": "3", "b.txt": "b"})
    after = files(**{"backup/a.txt": "3", ".local/share/Trash/files/b.txt": "b"})
    assert unasked_changes(before, after, StepFiles()).deleted == ("a.txt", "b.txt")
    trashed = StepFiles(asked=frozenset({"b.txt"}))
    assert unasked_changes(before, after, trashed).deleted == ("a.txt",)


def test_the_plans_typed_values_name_the_files_a_step_may_change(tmp_path: Path) -> None:
    catalog = default_catalog()
    gui = SubtaskSpec(id="s1", description="tidy up", files=["~/Documents/old.txt", "../x"])
    assert asked_files(gui, {}, catalog) == {"Documents/old.txt"}
    write = SubtaskSpec(
        id="s2",
        description="write_text_file(...)",
        skill="write_text_file",
        args={"path": {"from": "s1"}, "text": "hello"},
    )
    assert asked_files(write, {"s1": f"{tmp_path}/a.txt"}, catalog, tmp_path) == {"a.txt"}
    read = SubtaskSpec(id="s3", description="read", skill="read_text_file", args={"path": "a.txt"})
    assert asked_files(read, {}, catalog) == frozenset()


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
    run_config = RunConfig(
        screen_steps_doubted=False, listing_limit=0, app_actions_first=False, **options
    )  # type: ignore[arg-type]
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


def guard_over(home: Path, store: Path, **safety: object) -> FileEffectGuard:
    snapshots = HomeSnapshots(store, max_file_bytes=1000)
    return FileEffectGuard(snapshots, home, SafetyConfig(**safety), "auto", ScriptedHuman())  # type: ignore[arg-type]


def test_real_files_moved_onto_a_name_trashed_or_copied_before_all_come_back(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / "Archive").mkdir(parents=True)
    (home / "a.txt").write_text("moved")
    (home / "Archive" / "a.txt").write_text("was there")
    (home / "b.txt").write_text("copied before")
    (home / "backup").mkdir()
    (home / "backup" / "b.txt").write_text("copied before")
    (home / "c.txt").write_text("trashed")
    guard = guard_over(home, tmp_path / "store")
    before = guard.snapshots.capture(home)
    os.replace(home / "a.txt", home / "Archive" / "a.txt")  # the file manager's Replace
    (home / "b.txt").unlink()
    trash = home / ".local" / "share" / "Trash" / "files"
    trash.mkdir(parents=True)
    os.replace(home / "c.txt", trash / "c.txt")
    verdicts = guard.check(before, guard.snapshots.capture(home), StepFiles())
    assert [(v.category, v.paths, v.kept) for v in verdicts] == [
        ("overwrite_files", ("Archive/a.txt",), False),
        ("delete_files", ("a.txt", "b.txt", "c.txt"), False),
    ]
    assert (home / "a.txt").read_text() == "moved"
    assert (home / "Archive" / "a.txt").read_text() == "was there"
    assert (home / "b.txt").read_text() == "copied before"
    assert (home / "c.txt").read_text() == "trashed"


def test_a_lost_file_over_the_snapshot_limit_is_told_and_refuses_the_runs_done(
    tmp_path: Path,
) -> None:
    desktop, store, run_id = run(tmp_path, DELETE, DONE, snapshot_max_file_bytes=3)
    assert not (desktop.home / "notes.txt").exists()  # its content was never kept
    effect = next(e.event for e in store.events(run_id) if isinstance(e.event, EffectEvent))
    assert (effect.category, effect.lost, effect.kept) == ("delete_files", ["notes.txt"], False)
    record = store.get_run(run_id)
    assert record.status == "failed"
    assert "notes.txt" in (record.summary or "")


@pytest.mark.skipif(shutil.which("gio") is None, reason="GLib's gio tool is not installed")
def test_a_file_moved_to_the_trash_by_gio_is_put_back(tmp_path: Path) -> None:
    """GIO's trash, as GTK's file dialogs and the file manager use it."""
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / "report.txt").write_text("the report")
    guard = guard_over(home, tmp_path / "store")
    before = guard.snapshots.capture(home)
    environment = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local/share")}
    subprocess.run(
        ["gio", "trash", str(home / "Documents" / "report.txt")], env=environment, check=True
    )
    assert list((home / ".local/share/Trash/files").iterdir())  # trashed, not deleted
    verdicts = guard.check(before, guard.snapshots.capture(home), StepFiles())
    assert [(v.category, v.paths, v.kept) for v in verdicts] == [
        ("delete_files", ("Documents/report.txt",), False)
    ]
    assert (home / "Documents" / "report.txt").read_text() == "the report"
    # asked for by the plan: the trash is where it goes
    asked = StepFiles(asked=frozenset({"Documents/report.txt"}))
    subprocess.run(
        ["gio", "trash", str(home / "Documents" / "report.txt")], env=environment, check=True
    )
    again = guard.snapshots.capture(home)
    assert guard.check(before, again, asked) == []
