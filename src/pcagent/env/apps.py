"""Logical application names and how to start each one inside a sandbox.

Agents and task files say ``text_editor`` or ``spreadsheet``; only this table knows that means
mousepad or LibreOffice Calc, and which flags make each program accessible, quiet and offline.
What each application is comes from the catalog (:mod:`pcagent.applications`); this module adds
only how a sandbox starts it. The planner's prompt, the role pool and the safety guard get the
applications from the environment (:func:`app_infos`), never from a copy of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pcagent import applications
from pcagent.applications import APPLICATIONS, Application
from pcagent.env.browser_profile import PROFILE, QUIET_FLAGS, prepare_profile
from pcagent.env.observation import Observation, WindowInfo
from pcagent.env.ownership import give_to_owner
from pcagent.env.protocol import AppInfo
from pcagent.env.thunderbird_prefs import point_profile_at_relay
from pcagent.errors import UnknownAppError


@dataclass(frozen=True)
class LaunchContext:
    """What a command line may depend on: the sandbox's HOME, its id, extra documents to open,
    extra browser flags (e.g. the offline websites' ``--host-resolver-rules``), the screen's
    size in pixels (the browser opens filling it; None leaves the size to the application) and
    the mail relay's ``(host, port)``, the mail client's only outgoing server (None: the profile's
    servers are left as they are)."""

    home: Path
    sandbox_id: str
    files: Sequence[str] = ()
    browser_flags: tuple[str, ...] = ()
    screen: tuple[int, int] | None = None
    mail_relay: tuple[str, int] | None = None


@dataclass(frozen=True)
class AppSpec:
    """How to start one application and recognise its window.

    ``description`` says what it is for, in the planner's words (no program names: the plan
    names logical applications). ``window_classes`` are X11 WM_CLASS class names
    (case-insensitive) of its windows; ``title_hint`` is a substring of its window titles that
    decides between applications sharing a class (LibreOffice's modules), and names a window
    that has no class at all.
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
    #: It edits documents, so closing it may lose unsaved work (the safety guard's concern).
    edits_documents: bool = False
    #: Prepares the application's settings in the sandbox's HOME before each start.
    prepare: Callable[[LaunchContext], object] | None = None

    @property
    def program(self) -> str:
        return self.command(LaunchContext(home=Path("/"), sandbox_id="x"))[0]


def libreoffice_pipe_name(sandbox_id: str) -> str:
    """The UNO pipe a sandbox's LibreOffice listens on, so checkers can read live documents."""
    return f"pcagent-{sandbox_id}"


def _libreoffice(module: str) -> Callable[[LaunchContext], list[str]]:
    def command(context: LaunchContext) -> list[str]:
        return [
            applications.WRITER.program,
            f"--{module}",
            "--norestore",
            "--nologo",
            "--nofirststartwizard",
            f"--accept=pipe,name={libreoffice_pipe_name(context.sandbox_id)};urp;",
            *context.files,
        ]

    return command


#: The browser's switches in every sandbox: accessible, offline, without first-run questions,
#: driven through DevTools, in the top left corner of the screen.
_CHROMIUM_FLAGS = (
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
    # DevTools for the browser actions: port 0 lets Chromium pick a free port (no two
    # sandboxes collide), bound to 127.0.0.1, and written to DevToolsActivePort in the profile.
    "--remote-debugging-port=0",
    "--window-position=0,0",
)


def _chromium(context: LaunchContext) -> list[str]:
    return [
        applications.BROWSER.program,
        f"--user-data-dir={context.home / PROFILE}",
        *QUIET_FLAGS,
        *_CHROMIUM_FLAGS,
        *([f"--window-size={context.screen[0]},{context.screen[1]}"] if context.screen else []),
        *context.browser_flags,
        *context.files,
    ]


def _thunderbird(context: LaunchContext) -> list[str]:
    return [
        applications.MAIL.program,
        "--profile",
        str(context.home / ".thunderbird" / "pcagent"),
        "--no-remote",
        *context.files,
    ]


def _send_mail_through_relay(context: LaunchContext) -> None:
    """Every outgoing server of the mail profile becomes the relay, at each start, whoever
    wrote the profile: the client starts with no server to send to but the relay."""
    if context.mail_relay is None:
        return
    profile = context.home / ".thunderbird" / "pcagent"
    if point_profile_at_relay(profile, *context.mail_relay):
        give_to_owner(profile / "prefs.js", context.home)  # rewritten: the client's again


def _launch(
    app: Application,
    command: Callable[[LaunchContext], list[str]] | None = None,
    *,
    extra_env: dict[str, str] | None = None,
    prepare: Callable[[LaunchContext], object] | None = None,
) -> AppSpec:
    """The catalog's ``app`` with how this sandbox starts it: ``command`` (None: its program with
    the documents to open, no flags), its extra environment, what to prepare before each start."""

    def program_and_files(context: LaunchContext) -> list[str]:
        return [app.program, *context.files]

    return AppSpec(
        app.name,
        app.description,
        command or program_and_files,
        app.window_classes,
        title_hint=app.title_hint,
        startup_timeout=app.startup_timeout,
        extra_env=extra_env or {},
        key_pause=app.key_pause,
        edits_documents=app.edits_documents,
        prepare=prepare,
    )


#: The catalog's applications (:mod:`pcagent.applications`), in its order, with their launchers.
_LAUNCHERS: dict[str, AppSpec] = {
    spec.name: spec
    for spec in (
        _launch(applications.TEXT_EDITOR),
        _launch(applications.CALCULATOR),
        _launch(applications.WRITER, _libreoffice("writer")),
        _launch(applications.SPREADSHEET, _libreoffice("calc")),
        _launch(applications.FILE_MANAGER),
        _launch(applications.CLOCK, extra_env={"GSETTINGS_BACKEND": "keyfile"}),
        _launch(
            applications.BROWSER, _chromium, prepare=lambda context: prepare_profile(context.home)
        ),
        _launch(applications.MAIL, _thunderbird, prepare=_send_mail_through_relay),
    )
}
APPS: dict[str, AppSpec] = {name: _LAUNCHERS[name] for name in APPLICATIONS}


def get_app(name: str) -> AppSpec:
    """The spec for a logical name; the error lists the names that exist."""
    try:
        return APPS[name]
    except KeyError:
        raise UnknownAppError(
            f"unknown application '{name}'. Known applications: {', '.join(sorted(APPS))}"
        ) from None


def app_infos() -> tuple[AppInfo, ...]:
    """Every application of the registry as the environment contract describes it."""
    return tuple(
        AppInfo(name=spec.name, description=spec.description, edits_documents=spec.edits_documents)
        for spec in APPS.values()
    )


def app_of_window(window: WindowInfo) -> str:
    """The logical application showing ``window``; "" when it is none of the registry's.

    The window class decides, because a title is whatever the user or a document made it (a
    folder called "World Clocks", a mail about clocks). A title hint only decides between the
    applications that share the window's class (a LibreOffice window says "LibreOffice Calc" in
    its title), or for a window that has no class at all. A class no application claims is
    nobody's, whatever its title says.
    """
    window_class = window.app_class.lower()
    if not window_class:
        return _by_title_hint(APPS.values(), window.title)
    claiming = [
        spec
        for spec in APPS.values()
        if window_class in {name.lower() for name in spec.window_classes}
    ]
    if len(claiming) == 1:
        return claiming[0].name
    return _by_title_hint(claiming, window.title)


def _by_title_hint(specs: Iterable[AppSpec], title: str) -> str:
    """The application among ``specs`` whose title hint ends last in ``title``; "" when no hint
    is there. Last, because titles put the program after the document ("LibreOffice Calc
    tips.odt - LibreOffice Writer" is Writer)."""
    found = [
        (title.rfind(spec.title_hint) + len(spec.title_hint), spec.name)
        for spec in specs
        if spec.title_hint and spec.title_hint in title
    ]
    return max(found)[1] if found else ""


def calculator_display(observation: Observation) -> str | None:
    """What the calculator's display shows (galculator names its first text element after its
    value); None when the calculator is not the focused window."""
    for element in observation.elements:
        if element.role == "text" and element.app == "galculator":
            return element.name or element.text
    return None
