"""``pcagent run`` and ``pcagent runs`` refuse bad input with a clear message and exit status 2,
before starting any desktop. (The commands' normal paths are exercised in
test_session_desktop.py and by ``make demo``.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.cli import app


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    return {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["run", "do it", "--file", "/no/such/file.txt"], "/no/such/file.txt"),
        (["run", "do it", "--ablation", "no_brain"], "no_brain"),
        (["run", "do it", "--mode", "sometimes"], "mode"),
        (["runs", "show", "nosuchrun"], "nosuchrun"),
        (["runs", "resume", "nosuchrun"], "nosuchrun"),
        (["runs", "rewind", "nosuchrun", "--to", "2"], "nosuchrun"),
    ],
)
def test_bad_input_is_refused_before_anything_starts(
    environment: dict[str, str], arguments: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, arguments, env=environment)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and message in result.output.replace("\n", "")
    assert "starting the sandbox" not in result.output


def test_runs_list_on_an_empty_store_prints_an_empty_list(environment: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["runs", "list", "--json"], env=environment)
    assert result.exit_code == 0 and result.output.strip() == "[]"
