"""Paths that application actions name: a bare file name is found in its folder inside HOME, and
nothing found that way leads out of HOME."""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent.env.app_interfaces.paths import existing_in_home, files_named, in_home
from pcagent.errors import InvalidActionError


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / "memo.txt").write_text("memo")
    (home / ".config" / "app").mkdir(parents=True)
    (home / ".config" / "app" / "notes.txt").write_text("settings")
    return home


def test_a_bare_name_is_found_in_its_folder(home: Path) -> None:
    assert existing_in_home(home, "memo.txt") == home / "Documents" / "memo.txt"
    assert existing_in_home(home, "~/memo.txt") == home / "Documents" / "memo.txt"
    # an existing path is taken as written
    assert existing_in_home(home, "Documents/memo.txt") == home / "Documents" / "memo.txt"


def test_nothing_of_that_name_gives_the_path_as_written(home: Path) -> None:
    # (the editor then opens it as a new file; other actions say it does not exist)
    assert existing_in_home(home, "Documents/new.txt") == home / "Documents" / "new.txt"
    # hidden folders (the applications' settings) are not searched
    assert existing_in_home(home, "notes.txt") == home / "notes.txt"


def test_several_of_that_name_must_be_told_apart(home: Path) -> None:
    (home / "Desktop").mkdir()
    (home / "Desktop" / "memo.txt").write_text("other")
    with pytest.raises(InvalidActionError, match=r"Desktop/memo.txt, Documents/memo.txt"):
        existing_in_home(home, "memo.txt")


def test_a_link_leading_out_of_home_is_never_found(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("not for the sandbox")
    (home / "Documents" / "secret.txt").symlink_to(outside)
    assert files_named(home, "secret.txt") == [home / "Documents" / "secret.txt"]
    assert existing_in_home(home, "secret.txt") == home / "secret.txt"
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        existing_in_home(home, "Documents/secret.txt")


def test_the_usual_linux_home_means_this_home(home: Path) -> None:
    assert in_home(home, "/home/user/Documents/memo.txt") == home / "Documents" / "memo.txt"
    assert in_home(home, "/root/Documents/memo.txt") == home / "Documents" / "memo.txt"
    assert existing_in_home(home, "/home/anna/memo.txt") == home / "Documents" / "memo.txt"
    assert in_home(home, "/home/user") == home
    # still never out of HOME, and other absolute paths are what they say
    for outside in ("/home/user/../../etc/passwd", "/etc/passwd", "/home", "/tmp/x.txt"):
        with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
            in_home(home, outside)


def test_a_path_with_a_nul_character_is_refused(home: Path) -> None:
    """The file system's calls raise ValueError on a NUL, which no action handler expects."""
    for written in ("Documents/a\x00b.txt", "\x00"):
        with pytest.raises(InvalidActionError, match="NUL"):
            in_home(home, written)
        with pytest.raises(InvalidActionError):
            existing_in_home(home, written)
