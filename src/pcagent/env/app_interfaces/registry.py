"""The application interfaces of one sandbox, found by the type of the action they carry out.

:class:`AppInterfaces` finds the interface for an action by the action's type, creates it on
first use (a UNO connection or a DevTools client is made only when needed), turns an
:class:`~pcagent.errors.AppInterfaceError` into a failed result that says the GUI can still do
it, and closes them all when the sandbox resets or closes. It lives apart from the
:class:`~pcagent.env.app_interfaces.Interface` base so that the interfaces, which import the
base, are not imported back by it.
"""

from __future__ import annotations

from pcagent.app_actions import AppAction
from pcagent.env.app_interfaces import Interface
from pcagent.env.desktop_handle import DesktopHandle
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError, UnsupportedActionError


def interface_classes() -> tuple[type[Interface], ...]:
    """Every interface, imported on first use (each may pull in a client library)."""
    from pcagent.env.app_interfaces.browser import BrowserInterface
    from pcagent.env.app_interfaces.calculator import CalculatorInterface
    from pcagent.env.app_interfaces.clock import ClockInterface
    from pcagent.env.app_interfaces.file_manager import FileManagerInterface
    from pcagent.env.app_interfaces.mail import MailInterface
    from pcagent.env.app_interfaces.office import OfficeInterface
    from pcagent.env.app_interfaces.text_editor import TextEditorInterface

    return (
        CalculatorInterface,
        BrowserInterface,
        ClockInterface,
        MailInterface,
        FileManagerInterface,
        TextEditorInterface,
        OfficeInterface,
    )


class AppInterfaces:
    """The application interfaces of one sandbox, by action type."""

    def __init__(self, sandbox: DesktopHandle) -> None:
        self.sandbox = sandbox
        self._classes = {
            action_class: interface_class
            for interface_class in interface_classes()
            for action_class in interface_class.actions
        }
        self._open: dict[type[Interface], Interface] = {}

    def kinds(self) -> frozenset[str]:
        """The kinds of application action these interfaces carry out."""
        return frozenset(
            action_class.model_fields["kind"].default for action_class in self._classes
        )

    def perform(self, action: AppAction) -> ActionResult:
        """Carry out ``action``; a failing interface is a failed result naming the GUI route.

        Raises :class:`UnsupportedActionError` for an action no interface carries out and lets
        :class:`~pcagent.errors.InvalidActionError` (a path outside HOME) through, like any
        action refused before it runs.
        """
        interface_class = self._classes.get(type(action))
        if interface_class is None:
            raise UnsupportedActionError(f"no application interface carries out {action.kind!r}")
        interface = self._open.get(interface_class)
        if interface is None:
            interface = self._open[interface_class] = interface_class(self.sandbox)
        try:
            return interface.perform(action)
        except AppInterfaceError as error:
            return ActionResult(
                ok=False,
                message=f"{action.kind} failed: {error}. The application's window can still "
                "do it with mouse and keyboard",
            )

    def close(self) -> None:
        """Close every interface opened so far; they open again on next use."""
        opened, self._open = list(self._open.values()), {}
        for interface in opened:
            interface.close()
