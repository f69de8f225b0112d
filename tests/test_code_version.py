"""The version of pcagent's code a benchmark keeps with each result: a real git checkout in a
temporary folder, the commit, edits to the package's own tracked files, and no checkout."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pcagent.code_version import CHANGED, code_version, version_of

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.test", "-c", "init.defaultBranch=m"]


def git(folder: Path, *arguments: str) -> str:
    done = subprocess.run([*GIT, "-C", str(folder), *arguments], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A git checkout holding a package folder and a file beside it, committed."""
    (tmp_path / "package").mkdir()
    (tmp_path / "package" / "module.py").write_text("A = 1\n")
    (tmp_path / "notes.md").write_text("notes\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "first")
    return tmp_path


def test_a_checkout_gives_its_commit(checkout: Path) -> None:
    commit = git(checkout, "rev-parse", "--short=7", "HEAD")
    assert version_of(checkout / "package") == commit
    assert re.fullmatch(r"[0-9a-f]{7}", commit)


def test_an_edited_package_file_is_marked_and_other_changes_are_not(checkout: Path) -> None:
    package = checkout / "package"
    commit = git(checkout, "rev-parse", "--short=7", "HEAD")
    (checkout / "notes.md").write_text("other notes\n")  # outside the package: not its code
    (package / "new.py").write_text("B = 2\n")  # untracked: never imported by accident
    assert version_of(package) == commit
    (package / "module.py").write_text("A = 2\n")
    assert version_of(package) == commit + CHANGED
    git(checkout, "commit", "-qam", "second")
    assert version_of(package) == git(checkout, "rev-parse", "--short=7", "HEAD") != commit


def test_outside_a_checkout_the_installed_version_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git looks no higher than the folder, wherever the temporary folders are
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert version_of(tmp_path).startswith("pcagent ")


def test_this_process_has_one_version() -> None:
    assert code_version() == code_version() != ""
