"""Importing an exported run: a real run store exported by the viewer's export, read back into a
second real store; forged and damaged archives refused with nothing left behind."""

from __future__ import annotations

import json
import struct
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.cli import app
from pcagent.errors import RecordError
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import AssignEvent, FinishEvent, PlanEvent
from pcagent.runtime.record.export import export_run
from pcagent.runtime.record.importer import RunImportError, import_run
from pcagent.runtime.record.models import (
    CallAttempt,
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    StepRecord,
    StepResult,
    UnsavedFile,
)
from pcagent.runtime.record.run_owner import OWNER_FILE
from pcagent.runtime.record.store import RunStore

INSTRUCTION = "Compute 6 * 7 in the calculator and note it"
SUBTASKS = [SubtaskSpec(id="s1", description="Compute 6 * 7", app="calculator")]


def _image(step: int, colour: str) -> Image.Image:
    image = Image.new("RGB", (320, 200), colour)
    ImageDraw.Draw(image).text((20, 20), f"step {step}", fill="#000000")
    return image


def _call(run_id: str, step: int, agent: str) -> ModelCallRecord:
    request = {"messages": [{"role": "user", "parts": [{"text": f"{agent} at {step}"}]}]}
    return ModelCallRecord(
        run_id=run_id,
        step=step,
        agent=agent,
        attempts=[
            CallAttempt(request=request, completion={"text": "?"}, failure="not JSON"),
            CallAttempt(request=request, completion={"text": '{"kind": "click"}'}),
        ],
        ok=True,
        prompt_tokens=100 + step,
        completion_tokens=10,
        latency_s=0.25,
        created_at=1_700_000_000.5 + step,
    )


def _make_run(runs_dir: Path) -> str:
    """A finished run of two steps, with images, listings, an unsaved document, calls, events."""
    with RunStore(runs_dir) as store:
        run_id = store.create_run(INSTRUCTION, {"mode": "autonomous", "model": "scripted"}).run_id
        state = RunCheckpoint(instruction=INSTRUCTION, subtasks=SUBTASKS)
        store.add_event(
            RunEvent(run_id=run_id, step=0, event=PlanEvent(subtasks=SUBTASKS, state=state))
        )
        store.add_call(_call(run_id, 0, "manager"))
        store.add_event(
            RunEvent(run_id=run_id, step=1, event=AssignEvent(subtask="s1", role="calculator"))
        )
        for number, action in ((1, act.Click(x=100, y=80)), (2, act.TypeText(text="6*7="))):
            store.write_step(
                StepRecord(
                    run_id=run_id, step=number, subtask_id="s1", role="calculator",
                    thought=f"thought {number}", action=action,
                    result=StepResult(ok=True, message="done", duration_ms=50),
                    reflection=ReflectionRecord(verdict="success", reason="changed"),
                    progress=f"after {number}", hub={"total": "42"}, state=state,
                    listing=f"1 button \"=\" @100,80\nstep {number}", front_app="calculator",
                    window="Calculator", started_at=time.time(), duration_ms=700, tokens=110,
                    unsaved=[UnsavedFile(app="text_editor", title="*notes", file="01-notes.txt")]
                    if number == 2 else [],
                ),
                screenshot=_image(number, "#d0e4f7"),
                set_of_mark=_image(number, "#f7e0d0"),
                unsaved_files=[("01-notes.txt", b"6 * 7 = 42\n")] if number == 2 else (),
            )  # fmt: skip
            store.add_call(_call(run_id, number, "decision"))
        store.add_event(
            RunEvent(run_id=run_id, step=2, event=FinishEvent(outcome="finished", summary="42"))
        )
        store.set_status(run_id, "finished", "the calculator shows 42")
    return run_id


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, str, Path]:
    """(the source store's folder, the run's id, its export as a zip file)."""
    source = tmp_path / "source"
    run_id = _make_run(source)
    archive = tmp_path / f"{run_id}.zip"
    with RunStore(source) as store, export_run(store, run_id) as data:
        archive.write_bytes(data.read())
    return source, run_id, archive


def _files(folder: Path) -> dict[str, bytes]:
    """The run's files, but for which process carries it on here (``owner.json``): a fact of
    this machine's processes, not of the run, which an export does not carry."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != OWNER_FILE
    }


def _assert_nothing_left(runs_dir: Path) -> None:
    with RunStore(runs_dir) as store:
        assert store.list_runs() == []
    leftovers = {path.name for path in runs_dir.iterdir()} - {
        "runs.sqlite",
        "runs.sqlite-wal",
        "runs.sqlite-shm",
    }
    assert leftovers == set()


def test_an_exported_run_comes_back_whole(exported: tuple[Path, str, Path], tmp_path: Path) -> None:
    source, run_id, archive = exported
    with zipfile.ZipFile(archive) as opened:
        manifest = json.loads(opened.read(f"{run_id}/manifest.json"))
    assert manifest == {"format": "pcagent-run-export", "version": 1, "run_id": run_id}

    target = tmp_path / "target"
    with RunStore(target) as store:
        imported = import_run(store, archive)
    assert imported.files == 7  # 2 x (screenshot, som, listing) + one unsaved document
    with RunStore(source) as original, RunStore(target) as copy:
        assert copy.get_run(run_id) == original.get_run(run_id) == imported.run
        assert imported.run.steps == 2 and imported.run.tokens == 3 * 110 + 3
        assert copy.steps(run_id) == original.steps(run_id)
        assert copy.calls(run_id) == original.calls(run_id)
        assert copy.events(run_id) == original.events(run_id)
        assert copy.unsaved_path(run_id, 2, "01-notes.txt").read_bytes() == b"6 * 7 = 42\n"
        assert _files(copy.run_dir(run_id)) == _files(original.run_dir(run_id))


def test_as_gives_the_run_a_new_id(exported: tuple[Path, str, Path], tmp_path: Path) -> None:
    source, run_id, archive = exported
    with RunStore(tmp_path / "target") as store:
        imported = import_run(store, archive, new_id="copy-1")
        assert imported.run.run_id == "copy-1"
        with RunStore(source) as original:
            before = original.get_run(run_id)
            assert imported.run == before.model_copy(update={"run_id": "copy-1"})
            assert [s.model_copy(update={"run_id": run_id}) for s in store.steps("copy-1")] == (
                original.steps(run_id)
            )
            assert len(store.calls("copy-1")) == 3 and len(store.events("copy-1")) == 3
            assert _files(store.run_dir("copy-1")) == _files(original.run_dir(run_id))
        assert not store.run_dir(run_id).exists()
        with pytest.raises(RunImportError, match="cannot be a run id"):
            import_run(store, archive, new_id="../escape")


def test_importing_twice_is_refused(exported: tuple[Path, str, Path], tmp_path: Path) -> None:
    _, run_id, archive = exported
    with RunStore(tmp_path / "target") as store:
        import_run(store, archive)
        files = _files(store.run_dir(run_id))
        with pytest.raises(RunImportError, match=r"already in .*--as NEW_ID"):
            import_run(store, archive)
        assert [run.run_id for run in store.list_runs()] == [run_id]
        assert len(store.calls(run_id)) == 3
        assert _files(store.run_dir(run_id)) == files
        assert [p.name for p in store.root.iterdir() if p.name.startswith(".import")] == []


def _rewritten(archive: Path, change: Callable[[str, bytes], list[tuple[str, bytes]]]) -> Path:
    """A copy of ``archive`` with each member replaced by what ``change`` returns for it."""
    copy = archive.with_name("changed.zip")
    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(copy, "w") as target:
        for name in source.namelist():
            for new_name, data in change(name, source.read(name)):
                target.writestr(zipfile.ZipInfo(new_name), data)
    return copy


def _declaring(archive: Path, member_suffix: str, size: int) -> Path:
    """A copy of ``archive`` whose member ending in ``member_suffix`` declares ``size`` bytes
    uncompressed (in its central directory entry, which is what a reader trusts)."""
    data = bytearray(archive.read_bytes())
    position = data.find(b"PK\x01\x02")
    while position != -1:
        name_length = struct.unpack_from("<H", data, position + 28)[0]
        name = bytes(data[position + 46 : position + 46 + name_length]).decode()
        if name.endswith(member_suffix):
            struct.pack_into("<I", data, position + 24, size)
        position = data.find(b"PK\x01\x02", position + 46)
    copy = archive.with_name("declaring.zip")
    copy.write_bytes(bytes(data))
    return copy


def _slip(archive: Path, run_id: str) -> Path:
    def add_escape(name: str, data: bytes) -> list[tuple[str, bytes]]:
        if name.endswith("0001/listing.txt"):
            return [(name, data), (f"{run_id}/steps/0001/../../../../escaped.txt", b"gotcha")]
        return [(name, data)]

    return _rewritten(archive, add_escape)


def _absolute(archive: Path, run_id: str) -> Path:
    return _rewritten(
        archive,
        lambda name, data: (
            [(name, data)]
            + ([("/tmp/pcagent-escaped.txt", b"gotcha")] if name.endswith("run.json") else [])
        ),
    )


def _not_a_zip(archive: Path, run_id: str) -> Path:
    copy = archive.with_name("not-a-zip.zip")
    copy.write_bytes(b"PK but not really a zip file" * 10)
    return copy


def _no_manifest_no_rows(archive: Path, run_id: str) -> Path:
    return _rewritten(archive, lambda name, data: [] if name.endswith(".json") else [(name, data)])


def _unknown_version(archive: Path, run_id: str) -> Path:
    def bump(name: str, data: bytes) -> list[tuple[str, bytes]]:
        if name.endswith("manifest.json"):
            data = json.dumps({**json.loads(data), "version": 99}).encode()
        return [(name, data)]

    return _rewritten(archive, bump)


def _huge_declared(archive: Path, run_id: str) -> Path:
    return _declaring(archive, "0001/screenshot.png", 0xFFFF_FFF0)


def _smaller_declared(archive: Path, run_id: str) -> Path:
    # Declares fewer bytes than it holds: what is read is counted, not trusted.
    return _declaring(archive, "0002/som.png", 100)


def _duplicate_step(archive: Path, run_id: str) -> Path:
    # Valid rows that the database refuses (two rows for step 1): the files were unpacked by
    # then, and must go with the rolled-back rows.
    def duplicate(name: str, data: bytes) -> list[tuple[str, bytes]]:
        if name.endswith("steps.json"):
            steps = json.loads(data)
            data = json.dumps([*steps, steps[0]]).encode()
        return [(name, data)]

    return _rewritten(archive, duplicate)


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (_slip, "outside the run's folder"),
        (_absolute, "outside the run's folder"),
        (_not_a_zip, "is not a zip file"),
        (_no_manifest_no_rows, "has no .*manifest.json"),
        (_unknown_version, "layout version 99"),
        (_huge_declared, "declares 4294967280 bytes"),
        (_smaller_declared, "cannot be unpacked|more than the 100 bytes"),
        (_duplicate_step, "UNIQUE constraint"),
    ],
)
def test_a_forged_or_damaged_archive_is_refused_and_leaves_nothing(
    exported: tuple[Path, str, Path],
    tmp_path: Path,
    forge: Callable[[Path, str], Path],
    message: str,
) -> None:
    _, run_id, archive = exported
    forged = forge(archive, run_id)
    target = tmp_path / "target"
    with RunStore(target) as store, pytest.raises(RecordError, match=message):
        import_run(store, forged)
    _assert_nothing_left(target)
    assert not (tmp_path / "escaped.txt").exists()
    assert not Path("/tmp/pcagent-escaped.txt").exists()


def test_the_total_unpacked_is_capped(exported: tuple[Path, str, Path], tmp_path: Path) -> None:
    _, _, archive = exported
    with RunStore(tmp_path / "target") as store:
        with pytest.raises(RunImportError, match="more than the 4000 an export"):
            import_run(store, archive, max_total_bytes=4000)
        with pytest.raises(RunImportError, match="more than the 1000 one member"):
            import_run(store, archive, max_member_bytes=1000)
    _assert_nothing_left(tmp_path / "target")


def test_an_export_from_before_the_manifest_is_read(
    exported: tuple[Path, str, Path], tmp_path: Path
) -> None:
    _, run_id, archive = exported
    old = _rewritten(
        archive, lambda name, data: [] if name.endswith("manifest.json") else [(name, data)]
    )
    with RunStore(tmp_path / "target") as store:
        assert import_run(store, old).run.steps == 2
        assert len(store.steps(run_id)) == 2


def test_the_command_imports_and_refuses_a_second_time(
    exported: tuple[Path, str, Path], tmp_path: Path
) -> None:
    _, run_id, archive = exported
    data = tmp_path / "data"
    environment = {"PCAGENT_DATA_DIR": str(data), "COLUMNS": "200"}
    runner = CliRunner()

    first = runner.invoke(app, ["runs", "import", str(archive)], env=environment)
    assert first.exit_code == 0, first.output
    assert f"imported run {run_id}" in first.output and "2 steps" in first.output
    listed = runner.invoke(app, ["runs", "list", "--json"], env=environment)
    assert [run["run_id"] for run in json.loads(listed.output)] == [run_id]
    shown = runner.invoke(app, ["runs", "show", run_id, "--json"], env=environment)
    assert shown.exit_code == 0 and len(json.loads(shown.output)["steps"]) == 2

    again = runner.invoke(app, ["runs", "import", str(archive)], env=environment)
    assert again.exit_code == 2 and "--as" in again.output
    renamed = runner.invoke(app, ["runs", "import", str(archive), "--as", "copy"], env=environment)
    assert renamed.exit_code == 0, renamed.output
    assert (data / "runs" / "copy" / "steps" / "0002" / "som.png").is_file()

    broken = tmp_path / "broken.zip"
    broken.write_text("not a zip")
    refused = runner.invoke(app, ["runs", "import", str(broken)], env=environment)
    assert refused.exit_code == 2 and "is not a zip file" in refused.output
