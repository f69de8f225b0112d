"""``pcagent bench generate``: task files written with progress, loadable by ``bench list`` and
``bench run --tasks-dir``; a bad count or a folder that cannot be written is a clear error."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import load_task_folder
from pcagent.cli import app


def test_generate_writes_task_files_that_list_and_load(
    tmp_path: Path, environment: dict[str, str]
) -> None:
    out = tmp_path / "training"
    result = CliRunner().invoke(
        app, ["bench", "generate", "--count", "6", "--seed", "11", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "wrote 6 tasks (seed 11;" in result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"gen-11-{n}.yaml" for n in range(1, 7))
    assert list(load_task_folder(out).values()) == generate_tasks(6, 11)

    listed = CliRunner().invoke(app, ["bench", "tasks", "--json", "--tasks-dir", str(out)])
    assert listed.exit_code == 0, listed.output
    assert [row["id"] for row in json.loads(listed.output)] == [
        f"gen-11-{n}" for n in (1, 2, 3, 4, 5, 6)
    ]
    # Without --tasks-dir the built-in tasks are listed, as before.
    built_in = CliRunner().invoke(app, ["bench", "tasks", "--json"])
    assert len(json.loads(built_in.output)) == 25


def test_generate_refuses_a_bad_count_and_an_unwritable_folder(tmp_path: Path) -> None:
    zero = CliRunner().invoke(app, ["bench", "generate", "--count", "0", "--out", str(tmp_path)])
    assert zero.exit_code == 2
    assert "error: cannot generate 0 tasks; ask for 1 to 1000 (--count)" in zero.output
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way", encoding="utf-8")
    blocked = CliRunner().invoke(app, ["bench", "generate", "--out", str(blocker / "tasks")])
    assert blocked.exit_code == 2
    assert "error: cannot create the folder" in blocked.output and "--out" in blocked.output


def test_run_with_an_unknown_task_in_the_folder_is_refused_before_any_sandbox(
    tmp_path: Path, environment: dict[str, str], desktop_starts: list[str]
) -> None:
    out = tmp_path / "training"
    assert (
        CliRunner().invoke(app, ["bench", "generate", "-n", "2", "--out", str(out)]).exit_code == 0
    )
    runner = CliRunner()
    unknown = runner.invoke(
        app,
        ["bench", "run", "--agent", "noop", "--tasks-dir", str(out), "-t", "pc01"],
        env=environment,
    )
    assert unknown.exit_code == 2
    assert "unknown tasks ['pc01']; known: gen-0-1, gen-0-2" in unknown.output
    missing = runner.invoke(
        app, ["bench", "run", "--tasks-dir", str(tmp_path / "nowhere")], env=environment
    )
    assert missing.exit_code == 2 and "no task folder" in missing.output
    assert desktop_starts == []
