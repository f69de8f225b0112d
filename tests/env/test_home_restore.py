"""HOME is restored from its template even while a closing application still writes into it
(a real writer thread racing the removal, as LibreOffice's profile writes did)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from pcagent.env.home_template import restore_home


def test_restore_wins_against_a_writer_that_keeps_adding_files(tmp_path: Path) -> None:
    template = tmp_path / "template"
    (template / "Documents").mkdir(parents=True)
    (template / "Documents" / "kept.txt").write_text("template")
    home = tmp_path / "home"
    for round_ in range(3):
        profile = home / ".config" / "busy"
        profile.mkdir(parents=True, exist_ok=True)
        for n in range(200):
            (profile / f"old{n}").write_text("x")
        stop = threading.Event()

        def write(folder: Path = profile, stop: threading.Event = stop) -> None:
            n = 0
            deadline = time.monotonic() + 2.0  # bounded, whatever happens
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / f"new{n}").write_text("x")
                except OSError:
                    pass
                n += 1

        writer = threading.Thread(target=write)
        writer.start()
        try:
            restore_home(template, home)
        finally:
            stop.set()
            writer.join()
        assert (home / "Documents" / "kept.txt").read_text() == "template", round_
