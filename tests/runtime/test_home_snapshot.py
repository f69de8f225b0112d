"""HOME snapshots on real files: capture, restore, what is left alone, and what is refused."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
from pathlib import Path

import pytest

from pcagent.errors import RecordError, RunStateError
from pcagent.runtime.safety.home_snapshot import DEFAULT_EXCLUDES, HomeSnapshots

OLD_NS = 1_600_000_000 * 10**9  # 2020: well outside the "recently modified" window

BINARY = bytes(range(256)) * 64 + b"\x00\xff\x00"


def tree(home: Path) -> dict[str, tuple[bytes, int]]:
    """Every regular file under ``home``: content and permission bits."""
    files = {}
    for path in sorted(home.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[path.relative_to(home).as_posix()] = (
                path.read_bytes(),
                path.stat().st_mode & 0o777,
            )
    return files


def write(path: Path, content: bytes | str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    path.chmod(mode)


def age(home: Path) -> None:
    """Give every file an old modification time, as files untouched for a while have."""
    for path in home.rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.utime(path, ns=(OLD_NS, OLD_NS))


def store_files(store: Path) -> dict[str, int]:
    return {
        path.relative_to(store).as_posix(): path.stat().st_mtime_ns
        for path in store.rglob("*")
        if path.is_file()
    }


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    write(home / "Documents/report.txt", "quarterly figures\n")
    write(home / "Documents/deep/er/notes.md", "# notes\n", 0o600)
    write(home / "Pictures/logo.bin", BINARY)
    write(home / "bin/tool.sh", "#!/bin/sh\necho hi\n", 0o755)
    write(home / ".config/app/settings.ini", "[main]\nzoom=100\n")
    return home


@pytest.fixture
def snapshots(tmp_path: Path) -> HomeSnapshots:
    return HomeSnapshots(tmp_path / "store")


def test_round_trip_restores_modified_added_and_deleted_files(
    home: Path, snapshots: HomeSnapshots
) -> None:
    before = tree(home)
    snapshot_id = snapshots.capture(home)
    assert len(snapshot_id) == 64

    write(home / "Documents/report.txt", "quarterly figures, edited\n")
    (home / "Pictures/logo.bin").write_bytes(BINARY[::-1])
    (home / "Documents/deep/er/notes.md").unlink()
    (home / "bin/tool.sh").chmod(0o644)
    write(home / "Downloads/new/file.txt", "added later")
    write(home / "Documents/extra.txt", "added later")

    report = snapshots.restore(home, snapshot_id)

    assert tree(home) == before
    assert sorted(report.written) == [
        "Documents/deep/er/notes.md",
        "Documents/report.txt",
        "Pictures/logo.bin",
        "bin/tool.sh",
    ]
    assert sorted(report.removed) == ["Documents/extra.txt", "Downloads/new/file.txt"]
    assert report.unchanged == 1
    # Folders emptied by the removals are gone; no temporary files are left.
    assert not (home / "Downloads").exists()
    assert not [path for path in home.rglob("*") if "tmp" in path.name]


def test_restore_into_an_empty_folder(home: Path, snapshots: HomeSnapshots, tmp_path: Path) -> None:
    snapshot_id = snapshots.capture(home)
    elsewhere = tmp_path / "fresh-home"
    report = snapshots.restore(elsewhere, snapshot_id)
    assert tree(elsewhere) == tree(home)
    assert len(report.written) == len(tree(home))


def test_manifest_lists_files_with_hash_size_and_mode(home: Path, snapshots: HomeSnapshots) -> None:
    manifest = snapshots.manifest(snapshots.capture(home))
    entry = manifest.files["Pictures/logo.bin"]
    assert entry.sha256 == hashlib.sha256(BINARY).hexdigest()
    assert entry.size == len(BINARY)
    assert manifest.files["bin/tool.sh"].mode == 0o755
    assert manifest.files["Documents/deep/er/notes.md"].mode == 0o600
    assert snapshots.blob_path(entry.sha256).read_bytes() == BINARY


def test_unchanged_tree_gives_the_same_id_and_writes_nothing(
    home: Path, snapshots: HomeSnapshots
) -> None:
    age(home)
    first = snapshots.capture(home)
    assert snapshots.last_capture is not None
    assert snapshots.last_capture.new_blobs == 5
    stored = store_files(snapshots.store_dir)

    second = snapshots.capture(home)

    assert second == first
    assert store_files(snapshots.store_dir) == stored
    assert snapshots.last_capture.hashed_files == 0
    assert snapshots.last_capture.new_blobs == 0


def test_identical_content_is_stored_once(home: Path, snapshots: HomeSnapshots) -> None:
    write(home / "copy-of-logo.bin", BINARY)
    snapshots.capture(home)
    blobs = [path for path in (snapshots.store_dir / "blobs").rglob("*") if path.is_file()]
    assert len(blobs) == 5  # six files, two with the same content


def test_a_changed_file_is_noticed_and_only_it_is_read(
    home: Path, snapshots: HomeSnapshots
) -> None:
    age(home)
    first = snapshots.capture(home)
    write(home / "Documents/report.txt", "changed")
    second = snapshots.capture(home)
    assert second != first
    assert snapshots.last_capture is not None
    assert snapshots.last_capture.hashed_files == 1
    assert snapshots.last_capture.new_blobs == 1
    assert (
        snapshots.manifest(first).files["Documents/report.txt"]
        != (snapshots.manifest(second).files["Documents/report.txt"])
    )


def test_a_rewrite_within_the_same_timestamp_is_noticed(
    home: Path, snapshots: HomeSnapshots
) -> None:
    report = home / "Documents/report.txt"
    first = snapshots.capture(home)
    stamp = report.stat().st_mtime_ns
    report.write_text("QUARTERLY FIGURES\n")  # same size, same inode
    os.utime(report, ns=(stamp, stamp))  # as if written within the same clock tick
    assert snapshots.capture(home) != first


def test_excluded_paths_are_not_captured_and_never_touched(
    home: Path, snapshots: HomeSnapshots
) -> None:
    write(home / ".cache/fontconfig/cache-1", "old cache")
    write(home / "Documents/.~lock.report.odt#", "lock of a closed document")
    snapshot_id = snapshots.capture(home)
    manifest = snapshots.manifest(snapshot_id)
    assert not [path for path in manifest.files if path.startswith(".cache")]
    assert manifest.skipped[".cache"] == "excluded (.cache/**)"
    assert "excluded" in manifest.skipped["Documents/.~lock.report.odt#"]

    write(home / ".cache/fontconfig/cache-1", "new cache")
    write(home / ".cache/thumbnails/x.png", b"\x89PNG")
    (home / "Documents/.~lock.report.odt#").unlink()
    write(home / "Documents/.~lock.other.ods#", "lock of an open document")
    write(home / ".config/chromium/Default/Cache/data_0", "browser cache")
    write(home / ".config/libreoffice/4/user/.lock", "soffice pid")

    report = snapshots.restore(home, snapshot_id)

    assert (home / ".cache/fontconfig/cache-1").read_text() == "new cache"
    assert (home / ".cache/thumbnails/x.png").exists()
    assert not (home / "Documents/.~lock.report.odt#").exists()
    assert (home / "Documents/.~lock.other.ods#").read_text() == "lock of an open document"
    assert (home / ".config/chromium/Default/Cache/data_0").exists()
    assert (home / ".config/libreoffice/4/user/.lock").exists()
    assert report.removed == []


def test_default_excludes_match_what_they_should() -> None:
    snapshots = HomeSnapshots(Path("/nonexistent"))
    excluded = snapshots._excludes.match_path
    for path in [
        ".cache/x",
        ".cache/a/b/c",
        ".config/chromium-pcagent/Default/Cache/Cache_Data/f_000001",
        ".config/Code/Code Cache/js/index",
        ".config/chromium-pcagent/Default/GPUCache/data_1",
        ".config/chromium-pcagent/ShaderCache/index",
        "Documents/.~lock.a.odt#",
        ".~lock.b.docx#",
        ".thunderbird/pcagent/lock",
        ".thunderbird/pcagent/.parentlock",
        ".config/chromium-pcagent/SingletonLock",
        ".config/chromium-pcagent/SingletonSocket",
        ".config/chromium-pcagent/SingletonCookie",
        ".thunderbird/pcagent/places.sqlite-shm",
        ".config/libreoffice/4/user/.lock",
    ]:
        assert excluded(path) is not None, path
    for path in [
        "Documents/report.odt",
        "Documents/Cache.txt",
        "Documents/lock.txt",
        ".thunderbird/pcagent/places.sqlite",
        ".thunderbird/pcagent/places.sqlite-wal",
        ".config/libreoffice/4/user/registrymodifications.xcu",
        "cache/notes.txt",
        "Documents/~lock.txt",
    ]:
        assert excluded(path) is None, path
    assert len(DEFAULT_EXCLUDES) == len(set(DEFAULT_EXCLUDES))


def test_custom_excludes(home: Path, tmp_path: Path) -> None:
    snapshots = HomeSnapshots(tmp_path / "store", exclude=["**/*.ini", "Pictures/**"])
    manifest = snapshots.manifest(snapshots.capture(home))
    assert ".config/app/settings.ini" not in manifest.files
    assert "Pictures/logo.bin" not in manifest.files
    assert "Documents/report.txt" in manifest.files
    assert manifest.skipped["Pictures"] == "excluded (Pictures/**)"


def test_symlinks_are_skipped_and_never_followed(
    home: Path, snapshots: HomeSnapshots, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    write(outside / "secret.txt", "not part of HOME")
    (home / "link-to-outside").symlink_to(outside)
    (home / "Documents/link.txt").symlink_to(home / "Documents/report.txt")
    snapshot_id = snapshots.capture(home)
    manifest = snapshots.manifest(snapshot_id)
    assert "symbolic link" in manifest.skipped["link-to-outside"]
    assert "symbolic link" in manifest.skipped["Documents/link.txt"]
    assert not [path for path in manifest.files if "secret" in path]

    # Later the agent replaces a folder by a link to somewhere outside HOME.
    documents = home / "Documents"
    for path in sorted(documents.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
    documents.rmdir()
    documents.symlink_to(outside)

    snapshots.restore(home, snapshot_id)

    assert tree(outside) == {"secret.txt": (b"not part of HOME", 0o644)}
    assert not documents.is_symlink()
    assert (documents / "report.txt").read_text() == "quarterly figures\n"
    assert (home / "link-to-outside").is_symlink()


def test_sockets_are_skipped(home: Path, snapshots: HomeSnapshots) -> None:
    path = home / "app.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        manifest = snapshots.manifest(snapshots.capture(home))
        assert manifest.skipped["app.sock"] == "a socket"
        snapshots.restore(home, snapshots.capture(home))
        assert stat.S_ISSOCK(path.lstat().st_mode)
    finally:
        server.close()


def test_large_files_are_skipped_reported_and_left_alone(home: Path, tmp_path: Path) -> None:
    snapshots = HomeSnapshots(tmp_path / "store", max_file_bytes=1000)
    write(home / "Videos/big.bin", b"x" * 5000)
    snapshot_id = snapshots.capture(home)
    manifest = snapshots.manifest(snapshot_id)
    assert "Videos/big.bin" not in manifest.files
    assert "too big" in manifest.skipped["Videos/big.bin"]
    assert "Pictures/logo.bin" not in manifest.files  # 16 KiB is over this limit too

    write(home / "Videos/big.bin", b"y" * 6000)
    report = snapshots.restore(home, snapshot_id)
    assert (home / "Videos/big.bin").read_bytes() == b"y" * 6000
    assert "Videos/big.bin" in report.skipped
    assert "too big" in report.reasons["Videos/big.bin"]
    assert "Videos/big.bin" not in report.removed


def write_manifest(snapshots: HomeSnapshots, manifest: dict[str, object]) -> str:
    data = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    snapshot_id = hashlib.sha256(data).hexdigest()
    (snapshots.store_dir / "manifests").mkdir(parents=True, exist_ok=True)
    (snapshots.store_dir / "manifests" / f"{snapshot_id}.json").write_bytes(data)
    return snapshot_id


@pytest.mark.parametrize("bad_path", ["../x", "Documents/../../x", "/etc/x", "a//b", "./a"])
def test_a_manifest_leading_outside_home_is_refused(
    home: Path, snapshots: HomeSnapshots, bad_path: str
) -> None:
    # Store real content so that only the path is wrong.
    good = snapshots.manifest(snapshots.capture(home)).files["Documents/report.txt"]
    before = tree(home)
    snapshot_id = write_manifest(snapshots, {"files": {bad_path: good.model_dump()}, "skipped": {}})
    with pytest.raises(RunStateError, match="not a plain path inside HOME"):
        snapshots.restore(home, snapshot_id)
    assert tree(home) == before
    assert not (home.parent / "x").exists()


def test_unknown_and_malformed_ids(snapshots: HomeSnapshots, home: Path) -> None:
    with pytest.raises(RunStateError, match="no HOME snapshot"):
        snapshots.manifest("0" * 64)
    with pytest.raises(RunStateError, match="not a HOME snapshot id"):
        snapshots.restore(home, "../../etc/passwd")


def test_a_damaged_manifest_or_missing_content_is_a_record_error(
    home: Path, snapshots: HomeSnapshots
) -> None:
    snapshot_id = snapshots.capture(home)
    manifest_path = snapshots.store_dir / "manifests" / f"{snapshot_id}.json"
    original = manifest_path.read_bytes()
    manifest_path.write_bytes(original.replace(b"zoom", b"ZOOM") + b" ")
    with pytest.raises(RecordError, match="damaged"):
        snapshots.manifest(snapshot_id)
    manifest_path.write_bytes(original)

    entry = snapshots.manifest(snapshot_id).files["Documents/report.txt"]
    blob = snapshots.blob_path(entry.sha256)
    blob.chmod(0o644)
    blob.unlink()
    write(home / "Documents/report.txt", "changed")
    with pytest.raises(RecordError, match="missing"):
        snapshots.restore(home, snapshot_id)
    assert (home / "Documents/report.txt").read_text() == "changed"


def test_capture_of_a_missing_folder(snapshots: HomeSnapshots, tmp_path: Path) -> None:
    with pytest.raises(RunStateError, match="not a folder"):
        snapshots.capture(tmp_path / "nowhere")


def test_snapshots_share_a_store_between_objects(
    home: Path, snapshots: HomeSnapshots, tmp_path: Path
) -> None:
    snapshot_id = snapshots.capture(home)
    write(home / "Documents/report.txt", "changed")
    other = HomeSnapshots(tmp_path / "store")
    other.restore(home, snapshot_id)
    assert (home / "Documents/report.txt").read_text() == "quarterly figures\n"
    assert other.capture(home) == snapshot_id
