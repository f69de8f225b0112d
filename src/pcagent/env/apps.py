"""Logical application names and how to start each one inside a sandbox.

Agents and task files say ``text_editor`` or ``spreadsheet``; only this table knows that means
mousepad or LibreOffice Calc, and which flags make each program accessible, quiet and offline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pcagent.env.observation import Observation, WindowInfo
from pcagent.errors import UnknownAppError


@dataclass(frozen=True)
class LaunchContext:
    """What a command line may depend on: the sandbox's HOME, its id, extra documents to open,
    and extra browser flags (e.g. the offline websites' ``--host-resolver-rules``)."""

    home: Path
    sandbox_id: str
    files: Sequence[str] = ()
    browser_flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class AppSpec:
    """How to start one application and recognise its window.

    ``window_classes`` are X11 WM_CLASS class names (case-insensitive) of its main windows;
    ``title_hint`` is an alternative substring of the window title.
    """

    name: str
    description: str
    command: Callable[[LaunchContext], list[str]]
    window_classes: tuple[str, ...]
    title_hint: str = ""
    startup_timeout: float = 30.0
    extra_env: dict[str, str] = field(default_factory=dict)
    #: Seconds between typed keys when this application has the focus (0: as fast as possible).
    #: galculator ignores a key pressed again while its button is still drawn pressed.
    key_pause: float = 0.0

    @property
    def program(self) -> str:
        return self.command(LaunchContext(home=Path("/"), sandbox_id="x"))[0]


def libreoffice_pipe_name(sandbox_id: str) -> str:
    """The UNO pipe a sandbox's LibreOffice listens on, so checkers can read live documents."""
    return f"pcagent-{sandbox_id}"


def _libreoffice(module: str) -> Callable[[LaunchContext], list[str]]:
    def command(context: LaunchContext) -> list[str]:
        return [
            "soffice",
            f"--{module}",
            "--norestore",
            "--nologo",
            "--nofirststartwizard",
            f"--accept=pipe,name={libreoffice_pipe_name(context.sandbox_id)};urp;",
            *context.files,
        ]

    return command


def _chromium(context: LaunchContext) -> list[str]:
    return [
        "chromium",
        f"--user-data-dir={context.home / '.config' / 'chromium-pcagent'}",
        "--force-renderer-accessibility",
        "--no-sandbox",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-gpu",
        "--disable-quic",
        "--password-store=basic",
        "--window-position=0,0",
        "--window-size=1280,800",
        *context.browser_flags,
        *context.files,
    ]


def _thunderbird(context: LaunchContext) -> list[str]:
    return [
        "thunderbird",
        "--profile",
        str(context.home / ".thunderbird" / "pcagent"),
        "--no-remote",
        *context.files,
    ]


def _simple(program: str, *flags: str) -> Callable[[LaunchContext], list[str]]:
    def command(context: LaunchContext) -> list[str]:
        return [program, *flags, *context.files]

    return command


APPS: dict[str, AppSpec] = {
    spec.name: spec
    for spec in (
        AppSpec("text_editor", "Plain-text editor (mousepad)", _simple("mousepad"), ("Mousepad",)),
        AppSpec(
            "calculator",
            "Calculator (galculator)",
            _simple("galculator"),
            ("Galculator",),
            key_pause=0.12,
        ),
        AppSpec(
            "writer",
            "Word processor (LibreOffice Writer)",
            _libreoffice("writer"),
            ("libreoffice-writer", "Soffice"),
            title_hint="LibreOffice Writer",
            startup_timeout=60.0,
        ),
        AppSpec(
            "spreadsheet",
            "Spreadsheet (LibreOffice Calc)",
            _libreoffice("calc"),
            ("libreoffice-calc", "Soffice"),
            title_hint="LibreOffice Calc",
            startup_timeout=60.0,
        ),
        AppSpec("file_manager", "File manager (thunar)", _simple("thunar"), ("Thunar",)),
        AppSpec(
            "clock",
            "Clocks, alarms and timers (gnome-clocks)",
            _simple("gnome-clocks"),
            ("gnome-clocks", "Org.gnome.clocks"),
            title_hint="Clocks",
            extra_env={"GSETTINGS_BACKEND": "keyfile"},
        ),
        AppSpec(
            "browser",
            "Web browser (chromium), offline",
            _chromium,
            ("Chromium", "chromium"),
            startup_timeout=60.0,
        ),
        AppSpec(
            "mail",
            "Mail client (thunderbird) with a local profile",
            _thunderbird,
            ("thunderbird", "Thunderbird", "thunderbird-esr", "thunderbird-default"),
            title_hint="Mozilla Thunderbird",
            startup_timeout=90.0,
        ),
    )
}


def get_app(name: str) -> AppSpec:
    """The spec for a logical name; the error lists the names that exist."""
    try:
        return APPS[name]
    except KeyError:
        raise UnknownAppError(
            f"unknown application '{name}'. Known applications: {', '.join(sorted(APPS))}"
        ) from None


def app_of_window(window: WindowInfo) -> str:
    """The logical application showing ``window`` ("" when unknown).

    LibreOffice's modules share the ``Soffice`` class, so a title hint ("LibreOffice Calc")
    decides between them before the class does.
    """
    for spec in APPS.values():
        if spec.title_hint and spec.title_hint in window.title:
            return spec.name
    window_class = window.app_class.lower()
    for spec in APPS.values():
        if window_class in {name.lower() for name in spec.window_classes}:
            return spec.name
    return ""


def calculator_display(observation: Observation) -> str | None:
    """What the calculator's display shows (galculator names its first text element after its
    value); None when the calculator is not the focused window."""
    for element in observation.elements:
        if element.role == "text" and element.app == "galculator":
            return element.name or element.text
    return None
