"""The scripts the code-fixing template draws: each, as given, fails to print what it should;
mended by its reference's keys (played on the text, as the editor would), it prints it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pcagent.bench.generate.templates_scripts import SCRIPTS, BrokenScript, mended_keys


def _run(text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    script = folder / "script.py"
    script.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=20, check=False
    )


def _played(script: BrokenScript) -> str:
    """The script's text after its reference's keys: a line and a column moved by the arrows
    and End, characters removed by BackSpace and inserted by typing."""
    lines, row, column = script.text.split("\n"), 0, 0
    for step in mended_keys(script):
        action = step.action or {}
        key, times = action.get("key"), int(action.get("times", 1))
        if action.get("kind") == "hotkey" and action["keys"] == ["ctrl", "home"]:
            row = column = 0
        elif key == "down":
            row += times
        elif key == "end":
            column = len(lines[row])
        elif key == "left":
            column -= times
        elif key == "backspace":
            lines[row] = lines[row][: column - times] + lines[row][column:]
            column -= times
        elif action.get("kind") == "type":
            typed = str(action["text"])
            lines[row] = lines[row][:column] + typed + lines[row][column:]
            column += len(typed)
    return "\n".join(lines)


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_script_is_broken_and_its_reference_keys_mend_it(
    script: BrokenScript, tmp_path: Path
) -> None:
    broken = _run(script.text, tmp_path)
    assert broken.returncode != 0 and script.prints not in broken.stdout.splitlines()
    mended = _run(_played(script), tmp_path)
    assert mended.returncode == 0, mended.stderr
    assert mended.stdout.splitlines() == [script.prints]
