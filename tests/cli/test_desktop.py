"""``pcagent desktop`` from the shell: a sandbox that outlives each command, found again by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.cli import app
from pcagent.env.processes import find_marked_processes

pytestmark = [pytest.mark.desktop]


def test_up_open_tree_act_shot_reset_down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PCAGENT_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    state_file = tmp_path / "data" / "desktops" / "cli.json"
    result = runner.invoke(app, ["desktop", "up", "--name", "cli", "--open", "calculator"])
    assert result.exit_code == 0, result.output
    marker = json.loads(state_file.read_text())["sandbox_id"]
    try:
        tree = runner.invoke(app, ["desktop", "tree", "--name", "cli", "--json"])
        assert tree.exit_code == 0, tree.output
        elements = json.loads(tree.output)
        seven = next(e for e in elements if e["name"] == "7")
        x = seven["box"]["x"] + seven["box"]["width"] // 2
        y = seven["box"]["y"] + seven["box"]["height"] // 2
        click = json.dumps({"kind": "click", "x": x, "y": y})
        assert runner.invoke(app, ["desktop", "act", "--name", "cli", click]).exit_code == 0
        tree = json.loads(runner.invoke(app, ["desktop", "tree", "--name", "cli", "--json"]).output)
        assert [e["text"] for e in tree if e["role"] == "text"] == ["7"]
        bad = runner.invoke(app, ["desktop", "act", "--name", "cli", '{"kind": "fly"}'])
        assert bad.exit_code == 2 and "unknown" in bad.output.lower()
        shot = tmp_path / "screen.png"
        assert (
            runner.invoke(app, ["desktop", "shot", "--name", "cli", "-o", str(shot)]).exit_code == 0
        )
        assert shot.stat().st_size > 1000
        assert runner.invoke(app, ["desktop", "reset", "--name", "cli"]).exit_code == 0
        tree = json.loads(runner.invoke(app, ["desktop", "tree", "--name", "cli", "--json"]).output)
        assert tree == []
    finally:
        down = runner.invoke(app, ["desktop", "down", "--name", "cli"])
    assert down.exit_code == 0, down.output
    assert not state_file.exists()
    assert find_marked_processes(marker) == []
    again = runner.invoke(app, ["desktop", "down", "--name", "cli"])
    assert again.exit_code == 2 and "no sandbox named 'cli'" in again.output
