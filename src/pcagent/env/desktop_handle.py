"""The part of a sandbox desktop that the application interfaces reach.

An interface acts on its application through the desktop that runs it (input, observations,
windows, the held mail), and the desktop in turn owns its interfaces. Naming here exactly what
the interfaces use, as a protocol, lets them depend on this small surface instead of on
:class:`pcagent.env.sandbox.SandboxDesktop`, so that the desktop's code and theirs do not import
each other; a test may hand them anything that has these members.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from pcagent import actions as act
from pcagent.env.accessibility import AccessibilityClient, WorkerProcess
from pcagent.env.observation import ActionResult, Observation, TextState, WindowInfo
from pcagent.env.protocol import HeldMessage
from pcagent.env.sandbox_state import SandboxState
from pcagent.env.x11 import X11Display


class DesktopHandle(Protocol):
    """What an application interface may ask of the desktop its application runs in."""

    #: The running sandbox's state (its environment, HOME, user); None before it starts.
    state: SandboxState | None

    @property
    def env(self) -> dict[str, str]:
        """Environment variables for a program that should run inside this desktop."""
        ...

    @property
    def home(self) -> Path:
        """The HOME folder of the desktop's applications."""
        ...

    @property
    def x11(self) -> X11Display:
        """The desktop's X display (windows, focus, screenshots)."""
        ...

    @property
    def accessibility(self) -> AccessibilityClient:
        """The desktop's accessibility bus (elements and texts of the applications)."""
        ...

    def observe(self) -> Observation:
        """Screenshot, windows and the focused window's accessible elements, now."""
        ...

    def execute(self, action: act.Action) -> ActionResult:
        """Carry out a GUI action and wait for the screen to settle."""
        ...

    def wait_settled(self, timeout: float | None = None, quiet: float | None = None) -> bool:
        """Wait until the screen stops changing; False when it still changed at ``timeout``."""
        ...

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        """Start an application and wait until its window is up and focused."""
        ...

    def app_window(self, name: str) -> WindowInfo | None:
        """The topmost window of an application already open, or None."""
        ...

    def bring_to_front(self, name: str) -> WindowInfo | None:
        """Raise the application's topmost window; None when it is not open."""
        ...

    def text_state(self, element_id: int) -> TextState:
        """Live text, caret and selection of an element of the latest observation."""
        ...

    def office_worker(self) -> WorkerProcess:
        """The desktop's one LibreOffice worker (see :mod:`pcagent.env.office_process`)."""
        ...

    def held_mail(self) -> list[HeldMessage]:
        """Every message the mail client sent that waits for a decision, oldest first."""
        ...
