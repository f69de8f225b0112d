"""What finds a running sandbox again: plain data written to the sandbox's state file.

Apart from the desktop's code because more than the desktop reads it: the watchdog that closes
a sandbox whose owner died, and the application interfaces (the environment and user their
helper programs run with)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from pcagent.env.processes import RunAs


class SandboxState(BaseModel):
    """Everything needed to find a running sandbox again from another process (the CLI)."""

    sandbox_id: str
    display: str
    root: Path
    home: Path
    home_template: Path
    env: dict[str, str]
    infrastructure_pids: list[int]
    app_pids: dict[str, list[int]] = {}
    profile_dirs: list[Path] = []
    attached: bool = False
    width: int = 1280
    height: int = 800
    keep_files: bool = False
    # The mail relay, once the mail client was pointed at it: another process driving this
    # sandbox listens on the same port and folder, so the client's sends are still held.
    mail_relay_port: int | None = None
    mail_folder: Path | None = None
    mail_upstream: tuple[str, int] | None = None
    # (uid, gid) the session and applications run as; None: as the process that started it.
    # Kept here so that another process driving this sandbox starts its programs the same way.
    run_as: RunAs | None = None
