"""The settings a sandbox desktop starts with, apart from the desktop's code so that configuration
(the assembly, the benchmark's task runs) can name them without pulling in X11 and AT-SPI."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from pcagent.env.ownership import DESKTOP_USER


class SandboxConfig(BaseModel):
    """Settings of one sandbox desktop. Every field has a working default."""

    width: int = Field(1280, ge=320, le=7680, description="Screen width in pixels.")
    height: int = Field(800, ge=240, le=4320, description="Screen height in pixels.")
    root: Path | None = Field(
        None, description="Folder for the sandbox's files; a new temporary folder by default."
    )
    home_template: Path | None = Field(
        None, description="Folder copied into a fresh HOME at start and at every reset."
    )
    keep_files: bool = Field(False, description="Keep the sandbox folder after close().")
    start_timeout: float = Field(30.0, gt=0, description="Seconds to wait for each service.")
    settle_timeout: float = Field(
        6.0, ge=0, description="Longest wait, in seconds, for the screen to stop changing."
    )
    settle_quiet: float = Field(
        0.25, gt=0, description="The screen counts as settled after this many quiet seconds."
    )
    browser_flags: list[str] = Field(
        default_factory=list,
        description="Extra command-line flags for the browser (e.g. OfflineWeb.chromium_flags()).",
    )
    mail_upstream: tuple[str, int] | None = Field(
        None,
        description="SMTP server (host, port) that released mail goes to (plain, no login; the "
        "benchmark's sink). None: a release is recorded and the message delivered nowhere.",
    )
    mail_folder: Path | None = Field(
        None,
        description="Folder of the mail relay's held, released and rejected messages; "
        "ROOT/mail by default (removed with the sandbox folder unless keep_files).",
    )
    unprivileged_apps: bool = Field(
        True,
        description="When pcagent runs as root, run the sandbox's session and applications as "
        f"the unprivileged user {DESKTOP_USER} (created by scripts/install-system.sh). Off: they "
        "run as root. Without root this changes nothing.",
    )
    guard: bool = Field(
        False,
        description="Start a watchdog process that closes this sandbox if the process that "
        "started it dies without closing it (killed outright). Off for a sandbox meant to "
        "outlive its starter (`pcagent desktop start`).",
    )
