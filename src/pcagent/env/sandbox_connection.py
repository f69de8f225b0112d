"""A connection to a running sandbox desktop: its state, and what reads it without changing it
(observations, texts, the screen settling) or stands beside it (the mail relay its mail client
sends through).

:class:`SandboxConnection` is the first layer of :class:`pcagent.env.sandbox.SandboxDesktop`;
:class:`pcagent.env.sandbox_apps.SandboxApplications` adds the applications on top, and the
desktop its life cycle and actions. Kept apart so that each part reads on its own.
"""

from __future__ import annotations

import hashlib
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from pcagent.env import processes
from pcagent.env.accessibility import AccessibilityClient, WorkerProcess
from pcagent.env.executor import ActionExecutor
from pcagent.env.mail_relay import MailRelay, UnknownMailError
from pcagent.env.observation import Box, Observation, TextState
from pcagent.env.office_process import office_worker
from pcagent.env.protocol import HeldMessage, MailDelivery, UnsavedDocument
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.env.sandbox_state import SandboxState
from pcagent.env.unsaved import UnsavedWorkReader
from pcagent.env.x11 import X11Display
from pcagent.errors import AccessibilityError, SandboxClosedError


class SandboxConnection:
    """The state of one sandbox desktop and its connections to the display and accessibility bus."""

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self.state: SandboxState | None = None
        self._x11: X11Display | None = None
        self._a11y: AccessibilityClient | None = None
        self._executor: ActionExecutor | None = None
        self._unsaved: UnsavedWorkReader | None = None
        self._office: WorkerProcess | None = None
        self._mail_relay: MailRelay | None = None
        self._closed = False

    def save_state(self, path: Path | None = None) -> Path:
        state = self._require_state()
        target = path or state.root / "state.json"
        temporary = target.with_suffix(".tmp")
        temporary.write_text(state.model_dump_json(indent=2))
        temporary.replace(target)  # atomic: a crash never leaves half a state file
        return target

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

    def office_worker(self) -> WorkerProcess:
        """The sandbox's one LibreOffice worker, made on first use and shared by the unsaved-work
        reader and the office actions (see :mod:`pcagent.env.office_process`)."""
        if self._office is None:
            state = self._require_state()
            self._office = office_worker(state.sandbox_id, state.env, state.run_as)
        return self._office

    def unsaved_documents(self) -> list[UnsavedDocument]:
        """Every open document with unsaved changes, and those changes (see
        :mod:`pcagent.env.unsaved`); raises :class:`pcagent.errors.DesktopError` when one cannot be
        read."""
        if self._unsaved is None:
            state = self._require_state()
            self._unsaved = UnsavedWorkReader(state.home, self._a11y_client, self.office_worker)
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
