"""The applications of a sandbox desktop: opening them and waiting for their windows, finding an
open one and bringing it to the front, and closing them all.

:class:`SandboxApplications` is the layer of :class:`pcagent.env.sandbox.SandboxDesktop` above its
:class:`~pcagent.env.sandbox_connection.SandboxConnection`.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from pcagent.env import processes
from pcagent.env.apps import APPS, AppSpec, LaunchContext, app_infos, app_of_window, get_app
from pcagent.env.browser_profile import PROFILE
from pcagent.env.observation import WindowInfo
from pcagent.env.ownership import closed_on_the_way
from pcagent.env.processes import RunAs
from pcagent.env.protocol import AppInfo
from pcagent.env.sandbox_connection import SandboxConnection
from pcagent.env.sandbox_services import user_name
from pcagent.errors import AccessibilityError, ActionExecutionError, AppLaunchError


def check_readable(files: Sequence[str | Path], user: RunAs) -> None:
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
                f"{user_name(user[0])}, and {closed} is closed to it; copy the file into the "
                "sandbox's HOME first"
            )


class SandboxApplications(SandboxConnection):
    """Opening, finding, raising and closing the applications of one sandbox desktop."""

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        """Start an application by logical name and wait until its window is up and focused.

        Raises :class:`UnknownAppError` for a name not in the registry and
        :class:`AppLaunchError` when no window appears in time.
        """
        spec = get_app(name)
        state = self._require_state()
        processes.require_programs([spec.program])
        if state.run_as is not None:
            check_readable(files, state.run_as)
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
