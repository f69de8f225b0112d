"""The run record on a real SQLite file: runs, steps with their files, calls, events, and what
survives a killed process."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from PIL import Image

from pcagent.actions import Hotkey
from pcagent.errors import RecordError, RunNotFoundError, RunStateError
from pcagent.models.backend import ChatRequest, Completion
from pcagent.models.messages import ImagePart, Message
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import (
    EscalateProgressEvent,
    NoteEvent,
    RefusedEvent,
    ResumeEvent,
)
from pcagent.runtime.record.store import (
    SCHEMA_VERSION,
    CallAttempt,
    ModelCallRecord,
    RunEvent,
    RunStore,
    StepRecord,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "runs") as opened:
        yield opened


def full_step(run_id: str, step: int, **changes: object) -> StepRecord:
    values: dict[str, object] = {
        "run_id": run_id,
        "step": step,
        "subtask_id": "s2",
        "role": "writer",
        "thought": f"Click Bold (step {step}) — «ü»",
        "action": {"kind": "click", "x": 607, "y": 106},
        "result": {"ok": True, "message": "clicked", "duration_ms": 12.5},
        "reflection": {"verdict": "success", "reason": "bold on", "asked_model": True},
        "progress": "2 of 3 paragraphs bold",
        "hub": {"total": "42"},
        "state": {
            "instruction": "Make the title bold",
            "subtasks": [{"id": "s1", "description": "Bold the title", "app": "writer"}],
            "status": {"s1": "running"},
            "current": "s1",
            "consecutive_failures": 0,
        },
        "listing": "[12] button 'Bold'\n[13] button 'Italic'",
        "apps": [{"app": "writer", "document": "Documents/a.odt", "title": "a.odt - Writer"}],
        "home_snapshot": "ab" * 32,
        "started_at": 1_763_800_000.125,
        "duration_ms": 812.5,
        "tokens": 1234,
        "error": None,
    }
    values.update(changes)
    return StepRecord.model_validate(values)


def picture(color: tuple[int, int, int], size: tuple[int, int] = (40, 30)) -> Image.Image:
    return Image.new("RGB", size, color)


# --- runs ------------------------------------------------------------------------------------------


def test_create_get_and_list_runs(store: RunStore) -> None:
    first = store.create_run("Make the title bold", {"mode": "auto", "max_steps": 40})
    second = store.create_run("Sum column B", {"mode": "passive"})

    assert first.status == "running" and first.steps == 0 and first.tokens == 0
    assert first.settings == {"mode": "auto", "max_steps": 40}
    assert len(first.run_id.split("-")) == 3
    date, clock, suffix = first.run_id.split("-")
    assert len(date) == 8 and len(clock) == 6 and len(suffix) == 4
    assert date == time.strftime("%Y%m%d", time.gmtime(first.created_at))
    assert store.get_run(first.run_id) == first
    assert [run.run_id for run in store.list_runs()] == [second.run_id, first.run_id]
    assert [run.run_id for run in store.list_runs(limit=1)] == [second.run_id]


def test_get_run_by_unique_prefix(store: RunStore) -> None:
    ids = [store.create_run(f"task {n}", {}).run_id for n in range(3)]
    target = ids[1]
    prefix = next(
        target[:length]
        for length in range(1, len(target) + 1)
        if [run_id for run_id in ids if run_id.startswith(target[:length])] == [target]
    )
    assert len(prefix) < len(target)
    assert store.get_run(prefix).run_id == target


def test_ambiguous_prefix_lists_the_matches(store: RunStore) -> None:
    ids = [store.create_run(f"task {n}", {}).run_id for n in range(2)]
    with pytest.raises(RunStateError) as error:
        store.get_run(ids[0][:8])  # the date: shared by both
    assert ids[0] in str(error.value) and ids[1] in str(error.value)


def test_not_found_lists_the_five_most_recent_runs(store: RunStore) -> None:
    ids = [store.create_run(f"task {n}", {}).run_id for n in range(7)]
    with pytest.raises(RunNotFoundError) as error:
        store.get_run("19990101")
    message = str(error.value)
    assert "19990101" in message and str(store.db_path) in message
    for run_id in ids[2:]:
        assert run_id in message
    for run_id in ids[:2]:
        assert run_id not in message


def test_not_found_in_an_empty_store(store: RunStore) -> None:
    with pytest.raises(RunNotFoundError, match="no runs"):
        store.get_run("2026")


def test_status_summary_and_settings(store: RunStore) -> None:
    run = store.create_run("task", {"mode": "auto", "models": {"decision": "local"}})
    store.update_settings(run.run_id, {"mode": "proactive", "ablation": "no-reflection"})
    store.set_status(run.run_id, "finished", "The title is bold.")

    again = store.get_run(run.run_id)
    assert again.status == "finished"
    assert again.summary == "The title is bold."
    assert again.settings == {
        "mode": "proactive",
        "models": {"decision": "local"},
        "ablation": "no-reflection",
    }
    assert again.updated_at >= run.updated_at
    with pytest.raises(ValueError, match="unknown run status"):
        store.set_status(run.run_id, "exploded")  # type: ignore[arg-type]
    with pytest.raises(RunNotFoundError):
        store.set_status("20000101-000000-0000", "failed")


def test_rewound_run_names_its_parent(store: RunStore) -> None:
    parent = store.create_run("task", {})
    child = store.create_run("task", {}, parent_run=parent.run_id, parent_step=3)
    assert (child.parent_run, child.parent_step) == (parent.run_id, 3)
    with pytest.raises(RunNotFoundError):
        store.create_run("task", {}, parent_run="20000101-000000-0000", parent_step=1)


# --- steps -----------------------------------------------------------------------------------------


def test_write_step_stores_files_and_an_equal_record(store: RunStore) -> None:
    run = store.create_run("task", {})
    record = full_step(run.run_id, 1)
    store.write_step(record, screenshot=picture((255, 0, 0)), set_of_mark=picture((0, 0, 255)))

    folder = store.step_dir(run.run_id, 1)
    assert folder == store.root / run.run_id / "steps" / "0001"
    with Image.open(folder / "screenshot.png") as image:
        assert image.format == "PNG" and image.size == (40, 30)
        assert image.convert("RGB").getpixel((5, 5)) == (255, 0, 0)
    with Image.open(folder / "som.png") as image:
        assert image.convert("RGB").getpixel((5, 5)) == (0, 0, 255)
    assert (folder / "listing.txt").read_text(encoding="utf-8") == record.listing
    assert not [path for path in folder.iterdir() if path.name.endswith(".tmp")]

    assert store.steps(run.run_id) == [record]
    assert store.step(run.run_id, 1) == record
    assert store.last_step(run.run_id) == record
    assert store.get_run(run.run_id).steps == 1


def test_a_minimal_step_round_trips(store: RunStore) -> None:
    run = store.create_run("task", {})
    record = StepRecord(run_id=run.run_id, step=1)
    store.write_step(record)
    assert store.steps(run.run_id) == [record]
    assert not (store.step_dir(run.run_id, 1) / "listing.txt").exists()


def test_replacing_a_step(store: RunStore) -> None:
    run = store.create_run("task", {})
    for step in (1, 2):
        store.write_step(
            full_step(run.run_id, step),
            screenshot=picture((1, 1, 1)),
            set_of_mark=picture((2, 2, 2)),
        )
    redone = full_step(run.run_id, 2, thought="tried again", listing="", error="Timeout")
    store.write_step(redone, screenshot=picture((9, 9, 9)))

    assert store.steps(run.run_id) == [full_step(run.run_id, 1), redone]
    assert store.get_run(run.run_id).steps == 2
    folder = store.step_dir(run.run_id, 2)
    with Image.open(folder / "screenshot.png") as image:
        assert image.convert("RGB").getpixel((0, 0)) == (9, 9, 9)
    # Files of the first attempt that the redo did not produce are gone.
    assert not (folder / "som.png").exists()
    assert not (folder / "listing.txt").exists()


def test_steps_upto_and_missing_steps(store: RunStore) -> None:
    run = store.create_run("task", {})
    for step in (1, 2, 3):
        store.write_step(full_step(run.run_id, step))
    assert [record.step for record in store.steps(run.run_id, upto=2)] == [1, 2]
    assert store.last_step(run.run_id) == full_step(run.run_id, 3)

    with pytest.raises(RunStateError, match="1 to 3"):
        store.step(run.run_id, 7)
    empty = store.create_run("other", {})
    assert store.last_step(empty.run_id) is None
    with pytest.raises(RunStateError, match="no recorded steps"):
        store.step(empty.run_id, 1)
    with pytest.raises(RunNotFoundError):
        store.step("20000101-000000-0000", 1)
    with pytest.raises(RunNotFoundError):
        store.write_step(StepRecord(run_id="20000101-000000-0000", step=1))


def test_delete_steps_after_removes_rows_calls_events_and_files(store: RunStore) -> None:
    run = store.create_run("task", {})
    for step in range(1, 6):
        store.write_step(full_step(run.run_id, step), screenshot=picture((step, 0, 0)))
    for step in range(6):
        store.add_call(call(run.run_id, step, prompt=100, completion=10))
        store.add_event(RunEvent(run_id=run.run_id, step=step, event=NoteEvent(text=f"{step}")))
    other = store.create_run("untouched", {})
    store.write_step(full_step(other.run_id, 4), screenshot=picture((1, 2, 3)))

    store.delete_steps_after(run.run_id, 2)

    assert [record.step for record in store.steps(run.run_id)] == [1, 2]
    assert [c.step for c in store.calls(run.run_id)] == [0, 1, 2]
    assert [e.step for e in store.events(run.run_id)] == [0, 1, 2]
    remaining = store.get_run(run.run_id)
    assert remaining.steps == 2
    assert remaining.tokens == 3 * 110
    steps_folder = store.run_dir(run.run_id) / "steps"
    assert sorted(path.name for path in steps_folder.iterdir()) == ["0001", "0002"]
    assert store.screenshot_path(run.run_id, 2).is_file()
    # Another run's step 4 is untouched.
    assert [record.step for record in store.steps(other.run_id)] == [4]
    assert store.screenshot_path(other.run_id, 4).is_file()

    store.delete_steps_after(run.run_id, 0)
    assert store.steps(run.run_id) == []
    assert store.get_run(run.run_id).steps == 0
    assert list(steps_folder.iterdir()) == []


# --- calls and events ------------------------------------------------------------------------------


def call(
    run_id: str, step: int, *, prompt: int, completion: int, ok: bool = True
) -> ModelCallRecord:
    request = ChatRequest(
        messages=(
            Message.system("You decide the next action."),
            Message.user("Make it bold", ImagePart.from_image(picture((0, 9, 0)), alt_text="[1]")),
        ),
        schema={"type": "object", "properties": {"kind": {"type": "string"}}},
        schema_name="Decision",
        cache_key="decision",
    )
    completion_record = Completion(
        text='{"kind": "click"}', prompt_tokens=prompt, completion_tokens=completion
    )
    return ModelCallRecord(
        run_id=run_id,
        step=step,
        agent="decision",
        attempts=[
            CallAttempt(
                request=request.to_record(),
                completion=completion_record.to_record(),
                failure=None if ok else "missing field 'mark'",
            )
        ],
        ok=ok,
        prompt_tokens=prompt,
        completion_tokens=completion,
        latency_s=1.25,
        created_at=1_763_800_000.5,
    )


def test_calls_and_token_accounting(store: RunStore) -> None:
    run = store.create_run("task", {})
    first = call(run.run_id, 0, prompt=1000, completion=50)
    second = call(run.run_id, 1, prompt=800, completion=40, ok=False)
    third = call(run.run_id, 1, prompt=900, completion=45)
    for record in (first, second, third):
        store.add_call(record)

    assert store.calls(run.run_id) == [first, second, third]
    assert store.calls(run.run_id, step=1) == [second, third]
    assert store.calls(run.run_id, step=5) == []
    assert store.get_run(run.run_id).tokens == 1050 + 840 + 945
    assert store.calls(run.run_id)[0].attempts[0].request["schema_name"] == "Decision"

    unstamped = call(run.run_id, 2, prompt=1, completion=1).model_copy(update={"created_at": 0.0})
    before = time.time()
    store.add_call(unstamped)
    assert store.calls(run.run_id, step=2)[0].created_at >= before
    with pytest.raises(RunNotFoundError):
        store.add_call(call("20000101-000000-0000", 1, prompt=1, completion=1))


def test_events_in_order(store: RunStore) -> None:
    run = store.create_run("task", {})
    events = [
        RunEvent(run_id=run.run_id, step=0, event=ResumeEvent(from_step=0), created_at=1.0),
        RunEvent(
            run_id=run.run_id,
            step=3,
            event=RefusedEvent(action=Hotkey(keys=("ctrl", "enter")), reason="send_mail: no"),
            created_at=2.0,
        ),
        RunEvent(
            run_id=run.run_id, step=3, event=EscalateProgressEvent(failures=2), created_at=3.0
        ),
    ]
    for event in events:
        store.add_event(event)
    assert store.events(run.run_id) == events
    assert store.events(store.create_run("other", {}).run_id) == []
    with pytest.raises(RunNotFoundError):
        store.add_event(RunEvent(run_id="20000101-000000-0000", step=0, event=NoteEvent()))


# --- the file itself -------------------------------------------------------------------------------


def test_database_settings(store: RunStore) -> None:
    store.create_run("task", {})
    with closing(sqlite3.connect(store.db_path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    with RunStore(root) as store:
        store.create_run("task", {})
    conn = sqlite3.connect(root / "runs.sqlite")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with RunStore(root) as store, pytest.raises(RecordError) as error:
        store.list_runs()
    assert "newer pcagent" in str(error.value)
    assert str(root / "runs.sqlite") in str(error.value)


def test_a_damaged_file_is_a_record_error_naming_it(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    root.mkdir()
    (root / "runs.sqlite").write_bytes(b"this is not a database at all" * 100)
    with RunStore(root) as store, pytest.raises(RecordError) as error:
        store.list_runs()
    assert str(root / "runs.sqlite") in str(error.value)
    assert "damaged" in str(error.value)


def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs")
    store.create_run("task", {})
    store.close()
    store.close()
    with pytest.raises(RecordError, match="closed"):
        store.list_runs()


def test_two_stores_share_one_file(tmp_path: Path) -> None:
    with RunStore(tmp_path / "runs") as writer, RunStore(tmp_path / "runs") as reader:
        run = writer.create_run("task", {})
        writer.write_step(full_step(run.run_id, 1))
        assert reader.get_run(run.run_id).steps == 1
        reader.add_event(RunEvent(run_id=run.run_id, step=1, event=NoteEvent()))
        assert [event.kind for event in writer.events(run.run_id)] == ["note"]


# --- other processes -------------------------------------------------------------------------------

# Writes steps with images; prints each step number once it is committed. With --forever it keeps
# writing until killed, otherwise it sleeps after step 3.
CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from PIL import Image
    from pcagent.runtime.record.store import RunStore, StepRecord

    store = RunStore(Path(sys.argv[1]))
    run_id, forever = sys.argv[2], sys.argv[3] == "forever"
    step = 0
    while forever or step < 3:
        step += 1
        store.write_step(
            StepRecord(run_id=run_id, step=step, thought=f"step {step}",
                       state={"instruction": f"n{step}"},
                       listing="[1] button 'OK'\\n" * 50),
            screenshot=Image.new("RGB", (64, 48), (step % 256, 0, 0)),
            set_of_mark=Image.new("RGB", (64, 48), (0, step % 256, 0)),
        )
        print(step, flush=True)
    time.sleep(120)
    """
)


def start_writer(root: Path, run_id: str, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(root), run_id, mode],
        stdout=subprocess.PIPE,
        text=True,
    )


def wait_for_step(child: subprocess.Popen[str], wanted: int) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        if int(line) >= wanted:
            return
    pytest.fail(f"the writer exited (code {child.wait()}) before step {wanted}")


def kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=30) == -signal.SIGKILL
    if child.stdout is not None:
        child.stdout.close()


def test_steps_survive_sigkill(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    with RunStore(root) as store:
        run_id = store.create_run("task", {"mode": "auto"}).run_id
    child = start_writer(root, run_id, "three")
    try:
        wait_for_step(child, 3)
    finally:
        kill(child)

    with RunStore(root) as store:
        steps = store.steps(run_id)
        assert [(s.step, s.thought, s.state) for s in steps] == [
            (n, f"step {n}", RunCheckpoint(instruction=f"n{n}")) for n in (1, 2, 3)
        ]
        assert store.get_run(run_id).steps == 3
        assert store.get_run(run_id).status == "running"
        for step in (1, 2, 3):
            with Image.open(store.screenshot_path(run_id, step)) as image:
                assert image.convert("RGB").getpixel((1, 1)) == (step, 0, 0)


CREATOR = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from pcagent.runtime.record.store import RunStore
    store = RunStore(Path(sys.argv[1]))
    print(store.create_run("task", {}).run_id, flush=True)
    time.sleep(120)
    """
)


def test_a_run_whose_process_was_killed_reads_interrupted_until_resumed(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    child = subprocess.Popen(
        [sys.executable, "-c", CREATOR, str(root)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    run_id = child.stdout.readline().strip()
    with RunStore(root) as store:
        assert store.get_run(run_id).status == "running"  # its process is alive
        kill(child)
        gone = store.get_run(run_id)
        assert gone.status == "interrupted" and "runs resume" in gone.summary
        assert [run.status for run in store.list_runs()] == ["interrupted"]
        store.set_status(run_id, "running")  # resumed here: this process carries it on
        assert store.get_run(run_id).status == "running"
        # A run recorded without an owner (before owners were) reads as recorded.
        (store.run_dir(run_id) / "owner.json").unlink()
        assert store.get_run(run_id).status == "running"


def test_a_kill_in_the_middle_of_writing_leaves_whole_steps(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    with RunStore(root) as store:
        run_id = store.create_run("task", {}).run_id
    child = start_writer(root, run_id, "forever")
    try:
        wait_for_step(child, 3)
        time.sleep(0.3)  # let it get well into later steps
    finally:
        kill(child)

    conn = sqlite3.connect(root / "runs.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with RunStore(root) as store:
        steps = store.steps(run_id)
        assert len(steps) >= 3
        assert [s.step for s in steps] == list(range(1, len(steps) + 1))
        assert store.get_run(run_id).steps == len(steps)
        for record in steps:
            # A committed step always has its files, complete.
            with Image.open(store.screenshot_path(run_id, record.step)) as image:
                image.load()
            with Image.open(store.set_of_mark_path(run_id, record.step)) as image:
                image.load()
        # Resume: the step after the last one can be written by a new process.
        store.write_step(StepRecord(run_id=run_id, step=len(steps) + 1, thought="resumed"))
        assert store.last_step(run_id) is not None
        assert store.last_step(run_id).thought == "resumed"  # type: ignore[union-attr]


def test_a_reader_while_another_process_writes(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    with RunStore(root) as store:
        run_id = store.create_run("task", {}).run_id
    child = start_writer(root, run_id, "forever")
    seen: list[int] = []
    try:
        with RunStore(root) as reader:
            deadline = time.monotonic() + 60
            while len(seen) < 30 or seen[-1] < 30:
                assert time.monotonic() < deadline, "the writer made no progress"
                steps = reader.steps(run_id)
                numbers = [s.step for s in steps]
                # Every read sees a whole prefix of the run, consistent with its step count.
                assert numbers == list(range(1, len(numbers) + 1))
                assert reader.get_run(run_id).steps >= len(numbers)
                assert [run.run_id for run in reader.list_runs()] == [run_id]
                seen.append(len(numbers))
    finally:
        kill(child)
    assert seen == sorted(seen)


def test_record_json_is_plain_text(store: RunStore) -> None:
    run = store.create_run("task", {"limits": {"steps": 3}})
    store.write_step(full_step(run.run_id, 1))
    with closing(sqlite3.connect(store.db_path)) as conn:
        settings, state = conn.execute(
            "SELECT runs.settings, steps.state FROM runs JOIN steps USING (run_id)"
        ).fetchone()
    assert json.loads(settings) == {"limits": {"steps": 3}}
    assert json.loads(state)["subtasks"][0]["id"] == "s1"
