"""`pcagent models list` and `install` (the typer sub-application)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pcagent.cli.models import models_app
from pcagent.models.packs import InstalledPack


def test_list_shows_installed_packs_with_size_and_hash(smollm2: InstalledPack) -> None:
    result = CliRunner().invoke(models_app, ["list"])
    assert result.exit_code == 0, result.output
    assert "smollm2-135m  installed  98,362,432 bytes  sha256 b179c9523d0e" in result.output
    assert "qwen2.5-coder-1.5b" in result.output


def test_install_when_installed_is_quick(smollm2: InstalledPack) -> None:
    result = CliRunner().invoke(models_app, ["install", "smollm2-135m"])
    assert result.exit_code == 0, result.output
    assert "already installed and verified" in result.output
    assert str(smollm2.path) in result.output


def test_install_unknown_pack_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        models_app, ["install", "nope"], env={"PCAGENT_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 2
    assert (
        "error:" in result.output
        and "unknown model pack 'nope'" in result.output
        and "smollm2-135m" in result.output
    )
