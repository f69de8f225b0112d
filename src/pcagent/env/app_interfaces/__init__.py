"""The sandbox's side of application actions (:mod:`pcagent.app_actions`): one
:class:`Interface` per application family, each reaching the running application through its
own interface and reading the effect back.

An interface reaches the desktop through :class:`~pcagent.env.desktop_handle.DesktopHandle`, not
the concrete sandbox. :class:`~pcagent.env.app_interfaces.registry.AppInterfaces` owns the
interfaces of one sandbox. Adding an interface is one class whose methods carry out its actions,
each declared with ``@handles(TheAction)`` (:mod:`pcagent.action_handlers`), listed in
:func:`pcagent.env.app_interfaces.registry.interface_classes`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pcagent.action_handlers import Dispatches
from pcagent.app_actions import AppAction
from pcagent.env import processes
from pcagent.env.app_interfaces.paths import existing_in_home, in_home, relative_name
from pcagent.env.observation import ActionResult, WindowInfo
from pcagent.errors import AppInterfaceError, UnsupportedActionError

if TYPE_CHECKING:
    from pcagent.env.desktop_handle import DesktopHandle


class Interface(Dispatches):
    """One application family's interface in one sandbox.

    Subclasses declare a handler for each action class they carry out (``@handles``, on a method
    or on a function of a module named in ``handler_modules``); ``actions`` lists those classes.
    A handler raises :class:`AppInterfaceError` when the application's interface is unavailable
    or the effect is not there when read back, and returns an ``ActionResult`` with
    ``verified=True`` when it is.
    """

    actions: ClassVar[tuple[type[AppAction], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.actions = tuple(t for t in cls.handlers if issubclass(t, AppAction))

    def __init__(self, sandbox: DesktopHandle) -> None:
        self.sandbox = sandbox

    def perform(self, action: AppAction) -> ActionResult:
        """Carry out ``action`` with its declared handler."""
        handler = self.handler(action)
        if handler is None:
            raise UnsupportedActionError(f"{type(self).__name__} does not carry out {action.kind}")
        result: ActionResult = handler(action)
        return result

    def close(self) -> None:
        """Release connections and helper processes (the sandbox resets or closes)."""

    # --- helpers for subclasses ------------------------------------------------------------------

    @property
    def home(self) -> Path:
        return self.sandbox.home

    def path(self, text: str) -> Path:
        """The HOME path an action names (:func:`in_home`: refused when it leads out of HOME)."""
        return in_home(self.home, text)

    def source(self, text: str) -> Path:
        """The existing HOME entry an action reads or moves (:func:`existing_in_home`: a bare
        name is found in its folder when only one entry has it)."""
        return existing_in_home(self.home, text)

    def shown(self, path: Path) -> str:
        """``path`` relative to HOME, as results show it to the agent."""
        return relative_name(self.home, path)

    def verified_at(self, message: str, path: Path) -> ActionResult:
        """The result of an action checked on disk, whose output is the HOME path it ended on
        (what a following action names)."""
        return ActionResult(ok=True, message=message, output=self.shown(path), verified=True)

    def front(self, app: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        """Bring ``app`` to the front, starting it (on ``files``) when it is not open."""
        if not files:
            window = self.sandbox.bring_to_front(app)
            if window is not None:
                return window
        return self.sandbox.open_app(app, files)

    def run_as_user(
        self, argv: Sequence[str], timeout: float = 30.0
    ) -> subprocess.CompletedProcess[str]:
        """Run a command line as the sandbox's applications run (their user, their environment,
        in HOME) and wait for it; :class:`AppInterfaceError` when it is missing or times out."""
        state = self.sandbox.state
        if state is None:
            raise AppInterfaceError("the sandbox is not running")
        processes.require_programs([argv[0]])
        try:
            return subprocess.run(
                list(argv),
                env=state.env,
                cwd=state.home,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
                **processes.user_options(state.run_as),
            )
        except subprocess.TimeoutExpired as error:
            raise AppInterfaceError(f"{argv[0]} did not finish within {timeout:.0f}s") from error
