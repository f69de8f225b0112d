"""Scratch folders carry their owner's process id, and a killed owner's are removed by the next
process that makes one of the same kind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pcagent.scratch import remove_stale, scratch_directory, scratch_folder


def _killed_process_folder(parent: Path, kind: str) -> Path:
    """A folder made by a process that was then SIGKILLed, as a killed run leaves one."""
    code = (
        "import sys, time; from pathlib import Path; from pcagent.scratch import scratch_folder;"
        f"folder = scratch_folder({kind!r}, Path({str(parent)!r})); (folder / 'cert.pem').write_text('x');"
        "print(folder, flush=True); time.sleep(60)"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    folder = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait()
    return folder


def test_a_killed_owners_folder_goes_when_the_next_one_is_made(tmp_path: Path) -> None:
    left = _killed_process_folder(tmp_path, "web")
    assert left.name.startswith("pcagent-web-") and (left / "cert.pem").exists()
    other_kind = _killed_process_folder(tmp_path, "llama")
    mine = scratch_folder("web", tmp_path)
    assert mine.name.startswith(f"pcagent-web-{os.getpid()}-")
    assert not left.exists()
    assert other_kind.exists()  # only the kind being made is swept
    # a live owner's folder (this process's) stays
    assert remove_stale("web", tmp_path) == [] and mine.exists()
    assert remove_stale("llama", tmp_path) == [other_kind]


def test_a_scratch_directory_is_removed_at_the_end_of_its_block(tmp_path: Path) -> None:
    with scratch_directory("bench", tmp_path) as folder:
        (folder / "mail").mkdir()
    assert not folder.exists()


def test_a_kind_is_a_word(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="kind"):
        scratch_folder("../x", tmp_path)
