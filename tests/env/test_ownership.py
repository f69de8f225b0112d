"""Who the sandbox's session runs as, and handing what pcagent writes into HOME to HOME's owner."""

from __future__ import annotations

import logging
import os
import pwd
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.env import ownership, processes
from pcagent.env.ownership import DESKTOP_USER, closed_on_the_way, desktop_user, give_to_owner
from pcagent.errors import DesktopError

#: Any uid/gid that is not root's: root may give files to users that do not exist.
OTHER = (54321, 54322)

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root")


def _owner(path: Path) -> tuple[int, int]:
    status = os.lstat(path)
    return status.st_uid, status.st_gid


@pytest.fixture
def other_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    os.chown(home, *OTHER)
    return home


@needs_root
def test_a_written_file_and_the_folders_made_for_it_take_homes_owner(other_home: Path) -> None:
    target = other_home / "Documents" / "reports" / "q3.txt"
    target.parent.mkdir(parents=True)
    target.write_text("figures")
    give_to_owner(target, other_home)
    for path in (other_home / "Documents", target.parent, target):
        assert _owner(path) == OTHER


@needs_root
def test_a_written_folder_is_given_away_with_everything_in_it(other_home: Path) -> None:
    profile = other_home / ".thunderbird" / "pcagent"
    (profile / "Mail" / "Local Folders").mkdir(parents=True)
    (profile / "Mail" / "Local Folders" / "Inbox").write_text("")
    (profile / "prefs.js").write_text("")
    give_to_owner(profile, other_home)
    for path in [other_home / ".thunderbird", profile, *profile.rglob("*")]:
        assert _owner(path) == OTHER, path


@needs_root
def test_a_link_in_home_is_never_followed_out_of_it(other_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("root's")
    (other_home / "linked").symlink_to(outside)
    (other_home / "file-link").symlink_to(outside / "secret")
    give_to_owner(other_home, other_home)
    give_to_owner(other_home / "file-link", other_home)
    assert _owner(outside) == (0, 0)
    assert _owner(outside / "secret") == (0, 0)
    assert _owner(other_home / "file-link") == OTHER  # the link itself
    # A folder on the way that is a link is refused, not passed through.
    with pytest.raises(OSError):
        give_to_owner(other_home / "linked" / "secret", other_home)
    assert _owner(outside / "secret") == (0, 0)


def test_nothing_changes_without_root_or_outside_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("")
    before = _owner(elsewhere)
    give_to_owner(elsewhere, home)  # not under HOME
    assert _owner(elsewhere) == before
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    give_to_owner(home / "missing.txt", home)  # not root: returns before looking


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user can reach (pytest's own temporary folders are closed to others)."""
    with tempfile.TemporaryDirectory(prefix="pcagent-ownership-", dir="/tmp") as name:
        folder = Path(name)
        folder.chmod(0o755)
        yield folder


def test_closed_on_the_way_names_what_the_user_cannot_pass(open_folder: Path) -> None:
    closed = open_folder / "closed"
    closed.mkdir()
    closed.chmod(0o700)
    (closed / "doc.txt").write_text("")
    (open_folder / "doc.txt").write_text("")
    (open_folder / "doc.txt").chmod(0o644)
    (open_folder / "private.txt").write_text("")
    (open_folder / "private.txt").chmod(0o600)
    assert closed_on_the_way(closed / "doc.txt", OTHER) == closed
    assert closed_on_the_way(open_folder / "doc.txt", OTHER) is None
    assert closed_on_the_way(open_folder / "private.txt", OTHER) == open_folder / "private.txt"
    assert closed_on_the_way(open_folder / "missing.txt", OTHER) == open_folder / "missing.txt"
    assert closed_on_the_way(open_folder, OTHER, os.X_OK) is None


@needs_root
def test_a_folder_closed_to_others_is_open_to_its_owner(open_folder: Path) -> None:
    mine = open_folder / "mine"
    mine.mkdir()
    mine.chmod(0o700)
    (mine / "doc.txt").write_text("")
    (mine / "doc.txt").chmod(0o600)
    assert closed_on_the_way(mine / "doc.txt", OTHER) == mine
    os.chown(mine, *OTHER)
    os.chown(mine / "doc.txt", *OTHER)
    assert closed_on_the_way(mine / "doc.txt", OTHER) is None


def test_the_desktop_user_only_when_root_enabled_and_existing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert desktop_user() is None  # not root: apps run as the current user
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert desktop_user(enabled=False) is None

    def missing(name: str) -> pwd.struct_passwd:
        raise KeyError(name)

    monkeypatch.setattr(ownership.pwd, "getpwnam", missing)
    with caplog.at_level(logging.WARNING, logger="pcagent.env.ownership"):
        assert desktop_user() is None
    assert len(caplog.records) == 1
    assert DESKTOP_USER in caplog.text and "scripts/install-system.sh" in caplog.text


def test_only_root_may_start_programs_as_another_user(monkeypatch: pytest.MonkeyPatch) -> None:
    assert processes.user_options(None) == {}
    assert processes.user_options((os.geteuid(), os.getegid())) == {}
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(os, "getegid", lambda: 1000)
    with pytest.raises(DesktopError, match="only root"):
        processes.user_options(OTHER)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert processes.user_options(OTHER) == {
        "user": OTHER[0],
        "group": OTHER[1],
        "extra_groups": [],
    }
