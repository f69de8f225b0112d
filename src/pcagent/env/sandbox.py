"""A private Linux desktop per episode: Xvfb, D-Bus, AT-SPI, a window manager, real applications.

:class:`SandboxDesktop` starts its services (:mod:`pcagent.env.sandbox_services`) and a fresh HOME
copied from a template, then runs the applications (:mod:`pcagent.env.sandbox_apps`) and the
actions. Every process gets the sandbox's marker variable, so :meth:`SandboxDesktop.close` ends
exactly what this sandbox started and nothing else. :meth:`SandboxDesktop.attach` drives an
existing display (the user's own desktop) instead, and then only ever ends the applications it
opened itself.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from pcagent import actions as act
from pcagent.app_actions import AppAction
from pcagent.env import processes
from pcagent.env.app_interfaces.registry import AppInterfaces
from pcagent.env.apps import get_app
from pcagent.env.executor import ActionExecutor
from pcagent.env.home_template import restore_home, write_default_template
from pcagent.env.mail_relay import MailRelay
from pcagent.env.observation import ActionResult
from pcagent.env.ownership import desktop_user
from pcagent.env.sandbox_apps import SandboxApplications
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.env.sandbox_guard import end_guard, guard_sandbox
from pcagent.env.sandbox_services import (
    ACCESSIBILITY_ENV,
    AT_SPI_LAUNCHER,
    REQUIRED_PROGRAMS,
    open_to_user,
    start_services,
)
from pcagent.env.sandbox_state import SandboxState
from pcagent.env.x11 import X11Display
from pcagent.env.x11_input import XdotoolInput
from pcagent.errors import SandboxClosedError, SandboxStartError, UnsupportedActionError


class SandboxDesktop(SandboxApplications):
    """The Linux sandbox desktop; implements :class:`pcagent.env.Environment`.

    Use as a context manager, or call :meth:`start` / :meth:`close`. Coordinates everywhere are
    screen pixels of this sandbox's screen.
    """

    def __init__(self, config: SandboxConfig | None = None) -> None:
        super().__init__(config)
        self._interfaces = AppInterfaces(self)
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
                self._guard = guard_sandbox(self.save_state())
            if run_as is not None:
                open_to_user(root, runtime, run_as)
            restore_home(template, home, owner=run_as)
            self._x11 = start_services(state, runtime, self.config)
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

    def _connect(self) -> None:
        state = self._require_state()
        if self._x11 is None:
            self._x11 = X11Display(state.display, state.env.get("XAUTHORITY"))
        self._executor = ActionExecutor(
            XdotoolInput(state.env), self._open_app_title, self._focused_key_pause
        )

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

    def reset(self) -> None:
        """Close every application and restore HOME from the template (sandbox mode only)."""
        state = self._require_state()
        if self._office is not None:
            self._office.close()  # its connection was to the LibreOffice about to end
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
        if self._office is not None:
            self._office.close()
            self._office = None
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
