"""The services under a sandbox desktop: the X server, the session bus, the accessibility bus and
the window manager, started in order and each waited for (never a fixed sleep):
  1. Xvfb on a free display, with its own X authority cookie;
  2. a private D-Bus session bus;
  3. the AT-SPI bus launcher, then accessibility switched on (``org.a11y.Status.IsEnabled``);
  4. xfwm4 without compositor.
When pcagent runs as root, steps 2-4 (and the applications) run as the unprivileged user of
:mod:`pcagent.env.ownership`; Xvfb stays root: it is the display server, and the user reaches it
through the X authority file. Each PID is recorded in the sandbox's state as soon as it runs, so
that a start failing part way ends what did start. Apart from the desktop's code because none of
it needs a running desktop: it is how one comes to exist.
"""

from __future__ import annotations

import os
import pwd
import secrets
import stat
import subprocess
import time
from pathlib import Path

from pcagent.env import processes
from pcagent.env.ownership import closed_on_the_way
from pcagent.env.processes import RunAs
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.env.sandbox_state import SandboxState
from pcagent.env.x11 import X11Display
from pcagent.errors import SandboxStartError

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


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def open_to_user(root: Path, runtime: Path, user: RunAs) -> None:
    """Let the session's user reach the sandbox's folders: through ROOT (which stays root's, with
    the state file, logs and mail relay out of the user's reach) into its own runtime folder and
    HOME. Raises :class:`SandboxStartError` when ROOT lies behind a folder closed to the user.

    pcagent's installation needs no such check: its workers that run as the user get their
    source handed over (see :class:`pcagent.env.accessibility.WorkerProcess`)."""
    name = user_name(user[0])
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


def wait_for(check, timeout: float, what: str, interval: float = 0.05):  # type: ignore[no-untyped-def]
    """Call ``check`` until it returns something true, and return that; :class:`SandboxStartError`
    naming ``what`` (and the last error ``check`` raised) when ``timeout`` seconds pass first."""
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


def start_services(state: SandboxState, runtime: Path, config: SandboxConfig) -> X11Display:
    """Start the services in order, each waited for; sets ``state.display`` and ``state.env``
    (what every program of the desktop runs with) and returns the connection to the display.
    Raises :class:`SandboxStartError` when one does not come up in ``config.start_timeout``."""
    timeout = config.start_timeout
    xauthority = state.root / "Xauthority"
    env = _desktop_env(state, runtime, xauthority)
    logs = state.root / "logs"
    logs.mkdir(exist_ok=True)
    display = _start_display(state, config, xauthority, env, logs)
    env["DISPLAY"] = display
    state.display = display
    _start_session_bus(state, runtime, env, logs, timeout)
    _start_accessibility_bus(state, env, logs, timeout)
    window_manager = processes.spawn(
        ["xfwm4", "--compositor=off", "--sm-client-disable"],
        env,
        logs / "xfwm4.log",
        run_as=state.run_as,
    )
    state.infrastructure_pids.append(window_manager.pid)
    state.env = env
    x11 = X11Display(display, str(xauthority))
    try:
        wait_for(x11.has_window_manager, timeout, "the window manager")
    except BaseException:
        x11.close()
        raise
    return x11


def _desktop_env(state: SandboxState, runtime: Path, xauthority: Path) -> dict[str, str]:
    """The environment of the desktop's programs: the caller's, less what would lead them to the
    caller's own desktop, with accessibility on, the sandbox's marker and its own HOME."""
    base_env = {k: v for k, v in os.environ.items() if k not in ISOLATED_VARIABLES}
    return {
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


def _start_display(
    state: SandboxState, config: SandboxConfig, xauthority: Path, env: dict[str, str], logs: Path
) -> str:
    """Start Xvfb on a free display number with a fresh cookie; returns the display (":N")."""
    timeout = config.start_timeout
    cookie = secrets.token_hex(16)
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
                f"{config.width}x{config.height}x24",
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
    return display


def _start_session_bus(
    state: SandboxState, runtime: Path, env: dict[str, str], logs: Path, timeout: float
) -> None:
    """Start the private D-Bus session bus; adds its address to ``env``."""
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
    wait_for(bus_path.exists, timeout, "the D-Bus session bus")
    env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={bus_path}"


def _start_accessibility_bus(
    state: SandboxState, env: dict[str, str], logs: Path, timeout: float
) -> None:
    """Start the AT-SPI bus launcher and switch accessibility on."""
    as_user = processes.user_options(state.run_as)
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

    wait_for(a11y_address, timeout, "the AT-SPI bus", interval=0.1)
    subprocess.run(
        ["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
         "/org/a11y/bus", "--method", "org.freedesktop.DBus.Properties.Set",
         "org.a11y.Status", "IsEnabled", "<true>"],
        env=env, capture_output=True, timeout=5, check=True, **as_user,
    )  # fmt: skip
