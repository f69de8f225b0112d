"""Tasks as data from the command line: ``bench new`` writes a task that validates, ``bench
validate`` shows each sub-goal's checker parameters or the file's problems (no pydantic text),
``bench checkers`` lists parameters, and a reference agent skips a task without its reference."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pcagent.bench.tasks import load_task
from pcagent.cli import app

WIDE = {"COLUMNS": "200"}


def test_a_new_task_validates_and_is_listed(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    made = CliRunner().invoke(app, ["bench", "new", "hello-1", "--dir", str(folder)], env=WIDE)
    assert made.exit_code == 0, made.output
    task = load_task((folder / "hello-1.yaml").read_text(), "hello-1.yaml")
    assert task.id == "hello-1" and task.reference == [] and task.reference_api == []
    again = CliRunner().invoke(app, ["bench", "new", "hello-1", "--dir", str(folder)])
    assert again.exit_code == 2 and "exists already" in again.output
    checked = CliRunner().invoke(app, ["bench", "validate", str(folder)], env=WIDE)
    assert checked.exit_code == 0, checked.output
    assert (
        "valid hello-1.yaml: task hello-1" in checked.output
        and "references: none" in checked.output
    )
    assert (
        "saved (s1): text_file_contains(path='Documents/hello.txt', texts=['Hello from pcagent'])"
        in checked.output
    )
    listed = CliRunner().invoke(app, ["bench", "tasks", "--json", "--tasks-dir", str(folder)])
    assert json.loads(listed.output)[0]["references"] == []


def test_invalid_task_files_are_named_with_their_problems(tmp_path: Path) -> None:
    CliRunner().invoke(app, ["bench", "new", "good", "--dir", str(tmp_path)])
    (tmp_path / "bad.yaml").write_text(
        "id: bad\ninstruction: x\napps: [text_editor]\n"
        "subtasks: [{id: s1, app: text_editor, description: d}]\n"
        "nodes: [{id: n, subtask: s1, checker: clock_alarm, params: {hour: nine}}]\n"
    )
    (tmp_path / "empty.yaml").write_text("id: empty\n")
    checked = CliRunner().invoke(app, ["bench", "validate", str(tmp_path)], env=WIDE)
    assert checked.exit_code == 2
    assert "valid good.yaml" in checked.output
    assert "invalid task file bad.yaml: checker 'clock_alarm': hour:" in checked.output
    assert "minute: Field required" in checked.output
    assert "invalid task file empty.yaml: instruction: Field required" in checked.output
    assert "error: 2 of 3 task files are invalid" in checked.output
    assert "pydantic" not in checked.output and "https://" not in checked.output


def test_checkers_are_listed_with_their_parameters() -> None:
    listed = CliRunner().invoke(app, ["bench", "checkers"], env=WIDE)
    assert listed.exit_code == 0, listed.output
    assert (
        "clock_alarm(hour: int, minute: int, name: str = '', active: bool = True)" in listed.output
    )
    rows = json.loads(CliRunner().invoke(app, ["bench", "checkers", "--json"]).output)
    text_file = next(row for row in rows if row["name"] == "text_file_contains")
    assert [p["name"] for p in text_file["parameters"]] == ["path", "texts", "ignore_case"]
    assert text_file["parameters"][1]["type"] == "list[str]"


def test_the_reference_agent_skips_a_task_without_a_gui_reference(
    environment: dict[str, str], desktop_starts: list[str], tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    CliRunner().invoke(app, ["bench", "new", "no-ref", "--dir", str(folder)])
    ran = CliRunner().invoke(
        app,
        ["bench", "run", "--agent", "reference", "--tasks-dir", str(folder)],
        env={**environment, **WIDE},
    )
    assert ran.exit_code == 2
    assert "skipping no-ref: it has no reference solution through the GUI" in ran.output
    assert "none of the chosen tasks has a reference solution" in ran.output
    assert desktop_starts == []
