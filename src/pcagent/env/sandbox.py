"""A private Linux desktop per episode: Xvfb, D-Bus, AT-SPI, a window manager, real applications.

Start order (each step waits for the previous one to answer, never a fixed sleep):
  1. Xvfb on a free display, with its own X authority cookie;
  2. a private D-Bus session bus;
  3. the AT-SPI bus launcher, then accessibility switched on (``org.a11y.Status.IsEnabled``);
  4. xfwm4 without compositor;
  5. a fresh HOME copied from a template.
When pcagent runs as root, steps 2-5 and every application run as the unprivileged user of
:mod:`pcagent.env.ownership` (Xvfb stays root: it is the display server, and the user reaches it
through the X authority file); ``SandboxConfig.unprivileged_apps`` switches that off.
Every process gets the sandbox's marker variable, so :meth:`SandboxDesktop.close` ends exactly what
this sandbox started and nothing else. :meth:`SandboxDesktop.attach` drives an existing display (the
user's own desktop) instead, and then only ever ends the applications it opened itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pcagent import actions as act
from pcagent.app_actions import AppAction
from pcagent.env import processes
from pcagent.env.accessibility import AccessibilityClient
from pcagent.env.app_interfaces.registry import AppInterfaces
from pcagent.env.apps import APPS, AppSpec, LaunchContext, app_infos, app_of_window, get_app
from pcagent.env.browser_profile import PROFILE
from pcagent.env.executor import ActionExecutor
from pcagent.env.home_template import restore_home, write_default_template
from pcagent.env.mail_relay import MailRelay, UnknownMailError
from pcagent.env.observation import ActionResult, Box, Observation, TextState, WindowInfo
from pcagent.env.ownership import closed_on_the_way, desktop_user
from pcagent.env.processes import RunAs
from pcagent.env.protocol import AppInfo, HeldMessage, MailDelivery, UnsavedDocument
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.env.sandbox_state import SandboxState
from pcagent.env.unsaved import UnsavedWorkReader
from pcagent.env.x11 import X11Display
from pcagent.env.x11_input import XdotoolInput
from pcagent.errors import (
    AccessibilityError,
    ActionExecutionError,
    AppLaunchError,
    SandboxClosedError,
    SandboxStartError,
    UnsupportedActionError,
)

REQUIRED_PROGRAMS = ("Xvfb", "xauth", "dbus-daemon", "gdbus", "xfwm4", "xdotool")
AT_SPI_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
FIRST_DISPLAY = 90
ACCESSIBILITY_ENV = {
    "NO_AT_BRIDGE": "0",
    "GTK_MODULES": "gail:atk-bridge",
    "GNOME_ACCESSIBILITY": "1",
    "QT_ACCESSIBILITY": "1",
    "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
    "SAL_USE_VCLPLUGIN": "gtk3",
    "OMP_THREAD_LIMIT": "1",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
}
# Variables of the caller that must not leak into the sandbox (they would point apps at the
# user's own desktop, session bus or accessibility bus).
ISOLATED_VARIABLES = (
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "DBUS_SESSION_BUS_ADDRESS",
    "AT_SPI_BUS_ADDRESS",
    "XAUTHORITY",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "SESSION_MANAGER",
    "HOME",
)


def _free_display_number(start: int = FIRST_DISPLAY) -> int:
    for number in range(start, start + 500):
        if not (
            Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists()
        ):
            return number
    raise SandboxStartError("no free X display number between :90 and :590")


def _serves_display(number: int, pid: int) -> bool:
    """Whether the X server ``pid`` is the one serving display ``number``: its socket is there
    and the display's lock file names ``pid``. Two sandboxes starting at once can pick the same
    free number; the socket of the one that won appears while the other's Xvfb has not yet
    given up, and that one then talked to a display whose cookie it did not have."""
    if not Path(f"/tmp/.X11-unix/X{number}").exists():
        return False
    try:
        owner = int(Path(f"/tmp/.X{number}-lock").read_text().strip())
    except (OSError, ValueError):
        return False
    return owner == pid


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _open_to_user(root: Path, runtime: Path, user: RunAs) -> None:
    """Let the session's user reach the sandbox's folders: through ROOT (which stays root's, with
    the state file, logs and mail relay out of the user's reach) into its own runtime folder and
    HOME. Raises :class:`SandboxStartError` when ROOT lies behind a folder closed to the user.

    pcagent's installation needs no such check: its workers that run as the user get their
    source handed over (see :class:`pcagent.env.accessibility.WorkerProcess`)."""
    name = _user_name(user[0])
    root.chmod(stat.S_IMODE(root.stat().st_mode) | 0o011)
    os.chown(runtime, *user)
    runtime.chmod(0o700)
    fix = (
        "or set `unprivileged_apps = false` in the [desktop] section of the configuration "
        "(SandboxConfig.unprivileged_apps) to run them as root"
    )
    closed = closed_on_the_way(root, user, os.X_OK)
    if closed is not None:
        raise SandboxStartError(
            f"the sandbox's applications run as the user {name}, who cannot reach the sandbox "
            f"folder {root} ({closed} is closed to it); choose a folder under /tmp, {fix}"
        )


def _check_readable(files: Sequence[str | Path], user: RunAs) -> None:
    """Raise :class:`AppLaunchError` when an application running as ``user`` could not open one
    of ``files``. Names that are no existing path (a web address, a document to create) pass."""
    for file in files:
        path = Path(file)
        if not path.exists():
            continue
        closed = closed_on_the_way(path, user, os.R_OK)
        if closed is not None:
            raise AppLaunchError(
                f"{path} cannot be opened: the sandbox's applications run as the user "
                f"{_user_name(user[0])}, and {closed} is closed to it; copy the file into the "
                "sandbox's HOME first"
            )


def _wait_for(check, timeout: float, what: str, interval: float = 0.05):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            result = check()
        except Exception as error:
            last_error = error
            result = None
        if result:
            return result
        time.sleep(interval)
    detail = f" (last error: {last_error})" if last_error else ""
    raise SandboxStartError(f"{what} did not come up within {timeout:.0f}s{detail}")


class SandboxDesktop:
    """The Linux sandbox desktop; implements :class:`pcagent.env.Environment`.

    Use as a context manager, or call :meth:`start` / :meth:`close`. Coordinates everywhere are
    screen pixels of this sandbox's screen.
    """

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self.state: SandboxState | None = None
        self._x11: X11Display | None = None
        self._a11y: AccessibilityClient | None = None
        self._executor: ActionExecutor | None = None
        self._unsaved: UnsavedWorkReader | None = None
        self._mail_relay: MailRelay | None = None
        self._interfaces = AppInterfaces(self)
        self._closed = False
        self._guard: int | None = None

    # --- life cycle -----------------------------------------------------------------------------

    def __enter__(self) -> SandboxDesktop:
        if self.state is None:
            self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> SandboxDesktop:
        """Bring the desktop up; on any failure everything already started is ended again."""
        processes.require_programs((*REQUIRED_PROGRAMS, AT_SPI_LAUNCHER))
        sandbox_id = secrets.token_hex(6)
        run_as = desktop_user(self.config.unprivileged_apps)
        root = self.config.root or Path(tempfile.mkdtemp(prefix=f"pcagent-{sandbox_id}-"))
        root.mkdir(parents=True, exist_ok=True)
        runtime = root / "run"
        runtime.mkdir(mode=0o700, exist_ok=True)
        home = root / "home"
        template = self.config.home_template or write_default_template(root / "home-template")
        state = SandboxState(
            sandbox_id=sandbox_id,
            display="",
            root=root,
            home=home,
            home_template=template,
            env={},
            infrastructure_pids=[],
            width=self.config.width,
            height=self.config.height,
            keep_files=self.config.keep_files,
            run_as=run_as,
        )
        self.state = state
        try:
            if self.config.guard:
                # Guarded from the first process on: one killed while starting leaves nothing.
                from pcagent.env.sandbox_guard import guard_sandbox

                self._guard = guard_sandbox(self.save_state())
            if run_as is not None:
                _open_to_user(root, runtime, run_as)
            restore_home(template, home, owner=run_as)
            self._start_services(state, runtime)
            self._connect()
            self._a11y_client().wait_ready(self.config.start_timeout)
            # Whatever carries our marker now is the desktop itself; anything newer is an app.
            state.infrastructure_pids = sorted(
                set(state.infrastructure_pids) | set(processes.find_marked_processes(sandbox_id))
            )
            self.save_state()
        except BaseException:
            self.close()
            raise
        return self

    def _start_services(self, state: SandboxState, runtime: Path) -> None:
        timeout = self.config.start_timeout
        xauthority = state.root / "Xauthority"
        base_env = {k: v for k, v in os.environ.items() if k not in ISOLATED_VARIABLES}
        env = {
            **base_env,
            **ACCESSIBILITY_ENV,
            processes.MARKER_VARIABLE: state.sandbox_id,
            "HOME": str(state.home),
            "XDG_RUNTIME_DIR": str(runtime),
            "XAUTHORITY": str(xauthority),
            "XDG_CONFIG_HOME": str(state.home / ".config"),
            "XDG_DATA_HOME": str(state.home / ".local/share"),
            "XDG_CACHE_HOME": str(state.home / ".cache"),
        }
        logs = state.root / "logs"
        logs.mkdir(exist_ok=True)
        cookie = secrets.token_hex(16)
        as_user = processes.user_options(state.run_as)

        for _attempt in range(10):
            number = _free_display_number()
            display = f":{number}"
            xauthority.write_bytes(b"")
            subprocess.run(
                ["xauth", "-f", str(xauthority), "add", display, ".", cookie],
                check=True,
                capture_output=True,
            )
            if state.run_as is not None:
                # Readable by the session's user, writable by root alone: the cookie is the
                # only key to the display.
                os.chown(xauthority, 0, state.run_as[1])
                xauthority.chmod(0o640)
            xvfb = processes.spawn(
                [
                    "Xvfb", display, "-screen", "0",
                    f"{self.config.width}x{self.config.height}x24",
                    "-nolisten", "tcp", "-auth", str(xauthority), "+extension", "XTEST",
                ],
                env,
                logs / "xvfb.log",
            )  # fmt: skip
            state.infrastructure_pids.append(xvfb.pid)
            deadline = time.monotonic() + timeout
            while (
                time.monotonic() < deadline
                and xvfb.poll() is None
                and not _serves_display(number, xvfb.pid)
            ):
                time.sleep(0.02)
            if xvfb.poll() is None and _serves_display(number, xvfb.pid):
                break
            state.infrastructure_pids.remove(xvfb.pid)
            processes.terminate([xvfb.pid])  # lost a race for this display number: next one
        else:
            raise SandboxStartError(f"Xvfb would not start; see {logs / 'xvfb.log'}")
        env["DISPLAY"] = display
        state.display = display

        bus_path = runtime / "bus"
        dbus = processes.spawn(
            [
                "dbus-daemon",
                "--session",
                f"--address=unix:path={bus_path}",
                "--nofork",
                "--nopidfile",
            ],
            env,
            logs / "dbus.log",
            run_as=state.run_as,
        )
        state.infrastructure_pids.append(dbus.pid)
        _wait_for(bus_path.exists, timeout, "the D-Bus session bus")
        env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={bus_path}"

        launcher = processes.spawn(
            [AT_SPI_LAUNCHER, "--launch-immediately"], env, logs / "at-spi.log", run_as=state.run_as
        )
        state.infrastructure_pids.append(launcher.pid)

        # The session bus accepts its owner alone, so these calls run as the session's user.
        def a11y_address() -> str:
            reply = subprocess.run(
                ["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
                 "/org/a11y/bus", "--method", "org.a11y.Bus.GetAddress"],
                env=env, capture_output=True, text=True, timeout=5, check=False, **as_user,
            )  # fmt: skip
            return reply.stdout.strip() if reply.returncode == 0 and "unix:" in reply.stdout else ""

        _wait_for(a11y_address, timeout, "the AT-SPI bus", interval=0.1)
        subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
             "/org/a11y/bus", "--method", "org.freedesktop.DBus.Properties.Set",
             "org.a11y.Status", "IsEnabled", "<true>"],
            env=env, capture_output=True, timeout=5, check=True, **as_user,
        )  # fmt: skip

        window_manager = processes.spawn(
            ["xfwm4", "--compositor=off", "--sm-client-disable"],
            env,
            logs / "xfwm4.log",
            run_as=state.run_as,
        )
        state.infrastructure_pids.append(window_manager.pid)
        state.env = env
        x11 = X11Display(display, str(xauthority))
        self._x11 = x11
        _wait_for(x11.has_window_manager, timeout, "the window manager")

    @classmethod
    def attach(
        cls, display: str | None = None, config: SandboxConfig | None = None
    ) -> SandboxDesktop:
        """Drive an existing X display (by default ``$DISPLAY``) with the caller's own session.

        Nothing is started; :meth:`close` and :meth:`reset` end only applications opened through
        this object, and HOME is never touched.
        """
        display = display or os.environ.get("DISPLAY")
        if not display:
            raise SandboxStartError("no display to attach to: pass one or set DISPLAY")
        desktop = cls(config)
        env = {**os.environ, **ACCESSIBILITY_ENV, "DISPLAY": display}
        home = Path(os.environ.get("HOME", "~")).expanduser()
        root = Path(tempfile.mkdtemp(prefix="pcagent-attached-"))
        desktop.state = SandboxState(
            sandbox_id=secrets.token_hex(6),
            display=display,
            root=root,
            home=home,
            home_template=home,
            env=env,
            infrastructure_pids=[],
            attached=True,
        )
        try:
            desktop._connect()
        except Exception as error:
            shutil.rmtree(root, ignore_errors=True)
            raise SandboxStartError(f"cannot open display {display}: {error}") from error
        return desktop

    @classmethod
    def load(cls, state_file: Path) -> SandboxDesktop:
        """Reconnect to a sandbox started by another process (see :meth:`save_state`)."""
        state = SandboxState.model_validate_json(state_file.read_text())
        if not state.attached and not any(processes.is_alive(p) for p in state.infrastructure_pids):
            raise SandboxClosedError(f"the sandbox of {state_file} is no longer running")
        desktop = cls(
            SandboxConfig(
                width=state.width,
                height=state.height,
                root=state.root,
                mail_upstream=state.mail_upstream,
                mail_folder=state.mail_folder,
            )
        )
        desktop.state = state
        desktop._connect()
        return desktop

    def save_state(self, path: Path | None = None) -> Path:
        state = self._require_state()
        target = path or state.root / "state.json"
        temporary = target.with_suffix(".tmp")
        temporary.write_text(state.model_dump_json(indent=2))
        temporary.replace(target)  # atomic: a crash never leaves half a state file
        return target

    def _connect(self) -> None:
        state = self._require_state()
        if self._x11 is None:
            self._x11 = X11Display(state.display, state.env.get("XAUTHORITY"))
        self._executor = ActionExecutor(
            XdotoolInput(state.env), self._open_app_title, self._focused_key_pause
        )

    def _require_state(self) -> SandboxState:
        if self._closed:
            raise SandboxClosedError("this sandbox was closed; start a new one")
        if self.state is None:
            raise SandboxClosedError("the sandbox is not started; call start() first")
        return self.state

    def _a11y_client(self) -> AccessibilityClient:
        if self._a11y is None:
            state = self._require_state()
            self._a11y = AccessibilityClient(state.env, run_as=state.run_as)
        return self._a11y

    @property
    def display(self) -> str:
        return self._require_state().display

    @property
    def env(self) -> dict[str, str]:
        """Environment variables for a program that should run inside this desktop."""
        return dict(self._require_state().env)

    @property
    def home(self) -> Path:
        return self._require_state().home

    @property
    def accessibility(self) -> AccessibilityClient:
        return self._a11y_client()

    @property
    def x11(self) -> X11Display:
        self._require_state()
        assert self._x11 is not None
        return self._x11

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.x11.size

    # --- applications ---------------------------------------------------------------------------

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        """Start an application by logical name and wait until its window is up and focused.

        Raises :class:`UnknownAppError` for a name not in the registry and
        :class:`AppLaunchError` when no window appears in time.
        """
        spec = get_app(name)
        state = self._require_state()
        processes.require_programs([spec.program])
        if state.run_as is not None:
            _check_readable(files, state.run_as)
        # A window is known by its id and its process: X reuses a closed client's ids, so the
        # window of an application started again just after it was closed can carry the id of
        # the one that was listed a moment ago.
        before = {(window.window_id, window.pid) for window in self.x11.windows()}
        context = LaunchContext(
            home=state.home,
            sandbox_id=state.sandbox_id,
            files=[str(f) for f in files],
            browser_flags=tuple(self.config.browser_flags),
            screen=self.screen_size,
            mail_relay=self.mail_relay_address if name == "mail" else None,
        )
        if spec.prepare is not None:
            spec.prepare(context)
        argv = spec.command(context)
        log = state.root / "logs" / f"{name}.log"
        log.parent.mkdir(exist_ok=True)
        process = processes.spawn(
            argv, {**state.env, **spec.extra_env}, log, cwd=state.home, run_as=state.run_as
        )
        state.app_pids.setdefault(name, []).append(process.pid)
        if name == "browser":
            state.profile_dirs.append(context.home / PROFILE)
        self.save_state()
        window = self._wait_for_window(spec, before, process, log)
        with contextlib.suppress(Exception):
            self._executor.input.activate_window(window.window_id)  # type: ignore[union-attr]
        self._wait_for_accessible_window(window, spec.startup_timeout)
        self.wait_settled()
        return window

    def _wait_for_accessible_window(self, window: WindowInfo, timeout: float) -> bool:
        """Wait until the window is on the accessibility bus too.

        GTK4 programs (gnome-clocks) map their window a moment before they register there, and an
        observation in between would show no elements. False when it never appeared.
        """
        deadline = time.monotonic() + min(timeout, 15.0)
        while time.monotonic() < deadline:
            try:
                if any(
                    w["name"] == window.title or (window.pid and w["pid"] == window.pid)
                    for w in self._a11y_client().windows()
                ):
                    return True
            except AccessibilityError:
                pass
            time.sleep(0.1)
        return False

    def applications(self) -> tuple[AppInfo, ...]:
        """Every application :meth:`open_app` accepts (the registry of :mod:`pcagent.env.apps`)."""
        return app_infos()

    def app_of_window(self, window: WindowInfo) -> str:
        """The logical application showing ``window``; "" when it is none of the registry's."""
        return app_of_window(window)

    def app_window(self, name: str) -> WindowInfo | None:
        """The topmost window of an application already open, or None."""
        get_app(name)  # an unknown name is an error, not "not open"
        for window in reversed(self.x11.windows()):
            if app_of_window(window) == name:
                return window
        return None

    def bring_to_front(self, name: str) -> WindowInfo | None:
        """Raise the application's topmost window and wait until the screen settles; None when
        it is not open.

        Raises :class:`UnknownAppError` for a name not in the registry and
        :class:`ActionExecutionError` when the window could not be raised.
        """
        window = self.app_window(name)
        if window is None:
            return None
        try:
            self._executor.input.activate_window(window.window_id)  # type: ignore[union-attr]
        except ActionExecutionError:
            # ``windowactivate --sync`` can fail or time out waiting for the window manager's
            # reply although the window did come to the front; only a window still behind is
            # a failure.
            focused = self.x11.focused_window()
            if focused is None or focused.window_id != window.window_id:
                raise
        self.wait_settled()
        return window

    def focused_app(self) -> str:
        """The logical application in front; "" when none of the registry's is."""
        focused = self.x11.focused_window()
        return app_of_window(focused) if focused is not None else ""

    def _focused_key_pause(self) -> float:
        """The typing pause the application in front needs (0 for most)."""
        app = self.focused_app()
        return APPS[app].key_pause if app else 0.0

    def _open_app_title(self, name: str) -> str:
        """What an ``open_app`` action does: bring the application's window to the front when it
        is already open (a second instance would only confuse), else start it."""
        existing = self.bring_to_front(name)
        if existing is None:
            return self.open_app(name).title
        return f"{existing.title} (already open; brought to the front)"

    def _wait_for_window(
        self,
        spec: AppSpec,
        before: set[tuple[int, int | None]],
        process: subprocess.Popen[bytes],
        log: Path,
    ) -> WindowInfo:
        classes = {c.lower() for c in spec.window_classes}
        deadline = time.monotonic() + spec.startup_timeout
        exited_at: float | None = None
        while time.monotonic() < deadline:
            for window in self.x11.windows():
                if (window.window_id, window.pid) in before:
                    continue
                if window.app_class.lower() in classes or (
                    spec.title_hint and spec.title_hint in window.title
                ):
                    return window
            if process.poll() is not None and exited_at is None:
                # Single-instance programs (LibreOffice, thunar) hand over to a running instance
                # and exit at once; keep waiting for the window a little longer.
                exited_at = time.monotonic()
                if process.returncode != 0:
                    break
            time.sleep(0.1)
        tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
        raise AppLaunchError(
            f"{spec.name} ({spec.program}) showed no window within {spec.startup_timeout:.0f}s"
            + (
                f"; it exited with status {process.returncode}"
                if process.poll() is not None
                else ""
            )
            + (f". Last output:\n{tail}" if tail else "")
        )

    # --- looking ----------------------------------------------------------------------------------

    def observe(self) -> Observation:
        """Screenshot, windows, focused window and the focused window's accessible elements."""
        started = time.perf_counter()
        x11 = self.x11
        windows = x11.windows()
        focused = x11.focused_window(windows)
        after_windows = time.perf_counter()
        screenshot = x11.screenshot()
        after_shot = time.perf_counter()
        origins = {window.title: (window.box.x, window.box.y) for window in windows}
        focused_pid = focused.pid if focused else None
        # Some toolkits name their accessible window differently from the X title (GTK4's
        # gnome-clocks: "ClocksWindow" vs "Clocks"); a process with a single window is found by
        # its PID instead.
        pids = [window.pid for window in windows if window.pid]
        for window in windows:
            if window.pid and pids.count(window.pid) == 1:
                origins[f"pid:{window.pid}"] = (window.box.x, window.box.y)
        try:
            elements, reused, worker_ms = self._a11y_client().elements(
                focused.title if focused else None, origins, focused_pid=focused_pid
            )
        except AccessibilityError:
            # One retry with a fresh worker: a dead or hung worker must not end the episode.
            elements, reused, worker_ms = self._a11y_client().elements(
                focused.title if focused else None, origins, force=True, focused_pid=focused_pid
            )
        finished = time.perf_counter()
        return Observation(
            screenshot=screenshot,
            elements=elements,
            windows=windows,
            focused_window=focused,
            timestamp=time.time(),
            timings_ms={
                "windows": (after_windows - started) * 1000,
                "screenshot": (after_shot - after_windows) * 1000,
                "elements": (finished - after_shot) * 1000,
                "elements_worker": worker_ms,
                "elements_reused": float(reused),
                "total": (finished - started) * 1000,
            },
        )

    # --- text ---------------------------------------------------------------------------------------
    # Element ids below are those of the latest observe(); see pcagent.env.protocol.TextAccess.

    def text_state(self, element_id: int) -> TextState:
        """Live text, caret offset and selected ranges of an element of the latest observation."""
        return self._a11y_client().text_state(element_id)

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        """Screen boxes of characters of an element of the latest observation."""
        return self._a11y_client().character_boxes(element_id, offsets)

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        """Select characters [start, end) of one element through AT-SPI. False when the
        application refused (the caller falls back to the mouse)."""
        return self._a11y_client().select_range(element_id, start, end)

    def primary_selection(self) -> str:
        """The X PRIMARY selection: what is selected now, in whichever application."""
        processes.require_programs(["xclip"])
        try:
            reply = subprocess.run(
                ["xclip", "-out", "-selection", "primary"],
                env=self._require_state().env,
                capture_output=True,
                timeout=5,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return ""  # the owner of the selection did not answer: treat as nothing selected
        return reply.stdout.decode("utf-8", "replace") if reply.returncode == 0 else ""

    def unsaved_documents(self) -> list[UnsavedDocument]:
        """Every open document with unsaved changes, and those changes (see
        :mod:`pcagent.env.unsaved`); raises :class:`pcagent.errors.DesktopError` when one cannot be
        read."""
        if self._unsaved is None:
            state = self._require_state()
            self._unsaved = UnsavedWorkReader(
                state.home, state.sandbox_id, state.env, self._a11y_client, run_as=state.run_as
            )
        return self._unsaved.read(self.x11.windows())

    # --- outgoing mail (pcagent.env.protocol.OutgoingMail) -----------------------------------------

    @property
    def mail_relay_address(self) -> tuple[str, int]:
        """``(host, port)`` of the relay the mail client sends through; starts it the first time.
        A mail profile written for this sandbox names it as its outgoing server (opening the
        mail client makes sure of that)."""
        relay = self._relay(start=True)
        assert relay is not None
        return relay.address

    def held_mail(self) -> list[HeldMessage]:
        """Every message the mail client sent that waits for a decision, oldest first."""
        relay = self._relay(start=False)
        return relay.held() if relay is not None else []

    def release_mail(self, message_id: str) -> MailDelivery:
        """Send a held message on to ``mail_upstream`` (see :meth:`MailRelay.release`)."""
        return self._relay_or_unknown(message_id).release(message_id)

    def reject_mail(self, message_id: str) -> None:
        """Never send a held message; it is kept under ``rejected/`` of the mail folder."""
        self._relay_or_unknown(message_id).reject(message_id)

    def _relay_or_unknown(self, message_id: str) -> MailRelay:
        relay = self._relay(start=False)
        if relay is None:
            raise UnknownMailError(
                f"no held message has the id {message_id!r}: the mail client of this sandbox "
                "has sent nothing (held_mail() lists the messages waiting)"
            )
        return relay

    def _relay(self, *, start: bool) -> MailRelay | None:
        """The sandbox's mail relay; None when the mail client was never pointed at one.

        ``start`` makes it listen (on the port recorded in the state, when a process before
        this one started it: the client still sends there). Without it, a relay of another
        process is read from its folder, enough to list, release and reject what it held.
        """
        state = self._require_state()
        if self._mail_relay is None:
            if not start and state.mail_relay_port is None:
                return None
            self._mail_relay = MailRelay(
                self.config.mail_folder or state.mail_folder or state.root / "mail",
                upstream=self.config.mail_upstream or state.mail_upstream,
                port=state.mail_relay_port or 0,
            )
        relay = self._mail_relay
        if start and not relay.running:
            relay.start()
            state.mail_relay_port, state.mail_folder = relay.port, relay.folder
            state.mail_upstream = relay.upstream
            self.save_state()
        return relay

    def screenshot(self, path: Path | None = None):  # type: ignore[no-untyped-def]
        image = self.x11.screenshot()
        if path is not None:
            image.save(path)
        return image

    def wait_settled(self, timeout: float | None = None, quiet: float | None = None) -> bool:
        """Wait until neither the screen nor the accessibility tree changes for ``quiet`` seconds.

        Returns False if the screen was still changing at ``timeout`` (an animation, a clock): the
        caller goes on, but knows the observation may be in motion.
        """
        timeout = self.config.settle_timeout if timeout is None else timeout
        quiet = self.config.settle_quiet if quiet is None else quiet
        deadline = time.monotonic() + timeout
        last_change = time.monotonic()
        previous: tuple[bytes, int] | None = None
        client = self._a11y_client()
        while True:
            digest = hashlib.blake2b(self.x11.screenshot().tobytes(), digest_size=16).digest()
            try:
                events = client.event_count()
            except AccessibilityError:
                events = -1
            current = (digest, events)
            now = time.monotonic()
            if current != previous:
                previous, last_change = current, now
            elif now - last_change >= quiet:
                return True
            if now >= deadline:
                return False
            time.sleep(0.05)

    # --- acting -----------------------------------------------------------------------------------

    def validate(self, action: act.Action) -> None:
        """Raise :class:`InvalidActionError` if ``action`` cannot be executed here."""
        width, height = self.screen_size
        act.check_on_screen(action, width, height)
        if isinstance(action, act.OpenApp):
            get_app(action.app)

    def app_action_kinds(self) -> frozenset[str]:
        """The application actions this sandbox carries out; none on an attached desktop (their
        interfaces need the sandbox's own LibreOffice pipe, browser profile and mail store)."""
        state = self._require_state()
        return frozenset() if state.attached else self._interfaces.kinds()

    def execute(self, action: act.Action) -> ActionResult:
        """Validate, execute (GUI actions as input, application actions through the
        application's interface), then wait for the screen to settle."""
        self.validate(action)
        started = time.perf_counter()
        assert self._executor is not None
        if isinstance(action, AppAction):
            if action.kind not in self.app_action_kinds():
                raise UnsupportedActionError(f"{action.kind} is not available on this desktop")
            result = self._interfaces.perform(action)
        else:
            result = self._executor.execute(action)
        settled = True
        if action.settles and action.runs_on in ("desktop", "application"):
            settled = self.wait_settled()
        return result.model_copy(
            update={"settled": settled, "duration_ms": (time.perf_counter() - started) * 1000}
        )

    # --- reset and close --------------------------------------------------------------------------

    def close_apps(self) -> list[int]:
        """End every application this sandbox opened (and anything they started)."""
        state = self._require_state()
        pids = [pid for group in state.app_pids.values() for pid in group]
        if state.attached:
            ended = processes.terminate(pids, profile_dirs=state.profile_dirs)
        else:
            infrastructure = set(state.infrastructure_pids)
            if self._a11y is not None and self._a11y.pid:
                infrastructure.add(self._a11y.pid)
            marked = processes.find_marked_processes(state.sandbox_id, state.profile_dirs)
            apps = sorted(set(pids) | {pid for pid in marked if pid not in infrastructure})
            ended = processes.terminate(apps, profile_dirs=state.profile_dirs)
        state.app_pids = {}
        state.profile_dirs = []
        self.save_state()
        self._wait_windows_gone(set(ended))
        return ended

    def _wait_windows_gone(self, pids: set[int], timeout: float = 3.0) -> None:
        """Wait until no window of these ended processes is listed any more, so that what runs
        next (an observation, the same application opened again) sees the desktop as it is."""
        if not pids or self._x11 is None:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not any(window.pid in pids for window in self.x11.windows()):
                return
            time.sleep(0.05)

    def reset(self) -> None:
        """Close every application and restore HOME from the template (sandbox mode only)."""
        state = self._require_state()
        if self._unsaved is not None:
            self._unsaved.close()  # its connection was to the LibreOffice about to end
        self._interfaces.close()  # connections to the applications about to end
        self.close_apps()
        relay = self._relay(start=False)
        if relay is not None:
            relay.reject_all()  # mail nobody decided on belongs to the episode that ends: unsent
        if not state.attached:
            restore_home(state.home_template, state.home, owner=state.run_as)
        if self._a11y is not None:
            self._a11y.close()  # its cache held the closed applications' objects

    def close(self) -> None:
        """End every process this sandbox started; safe to call more than once."""
        if self._closed:
            return
        state = self.state
        self._interfaces.close()
        if self._unsaved is not None:
            self._unsaved.close()
            self._unsaved = None
        if self._a11y is not None:
            self._a11y.close()
            self._a11y = None
        if self._x11 is not None:
            self._x11.close()
            self._x11 = None
        self._closed = True
        if state is None:
            return
        app_pids = [pid for group in state.app_pids.values() for pid in group]
        if state.attached:
            processes.terminate(app_pids, profile_dirs=state.profile_dirs)
        else:
            processes.terminate(
                [*app_pids, *reversed(state.infrastructure_pids)],
                marker=state.sandbox_id,
                profile_dirs=state.profile_dirs,
            )
        self._close_mail_relay(state)  # after the mail client ended: nothing arrives any more
        if not state.keep_files:
            shutil.rmtree(state.root, ignore_errors=True)
        self._end_guard()

    def _end_guard(self) -> None:
        """The watchdog is not needed once the sandbox is closed (it would end by itself when
        the state file goes, but not for a sandbox that keeps its files)."""
        guard, self._guard = self._guard, None
        if guard is not None:
            from pcagent.env.sandbox_guard import end_guard

            end_guard(guard)

    def _close_mail_relay(self, state: SandboxState) -> None:
        """Reject what is still held (kept as files under ``rejected/``) and stop listening."""
        relay, self._mail_relay = self._mail_relay, None
        if relay is None and state.mail_relay_port is not None:
            # Started by another process: its folder is enough to reject (no need to listen).
            relay = MailRelay(self.config.mail_folder or state.mail_folder or state.root / "mail")
        if relay is not None:
            relay.stop()
            relay.reject_all()

    def describe(self) -> dict[str, object]:
        state = self._require_state()
        return json.loads(
            state.model_dump_json(include={"sandbox_id", "display", "root", "home", "attached"})
        )
