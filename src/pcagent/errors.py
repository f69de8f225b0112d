"""One exception hierarchy for the whole project.

Every error pcagent raises on purpose derives from :class:`PcAgentError`, so a caller (the CLI, a run
loop) can catch the project's failures without swallowing programming errors. Messages say what
went wrong *and* what to do about it.
"""

from __future__ import annotations


class PcAgentError(Exception):
    """Base of every error pcagent raises deliberately."""


class ConfigurationError(PcAgentError):
    """A setting is missing or invalid."""


# --- actions -------------------------------------------------------------------------------------


class ActionError(PcAgentError):
    """An action could not be accepted or carried out."""


class InvalidActionError(ActionError):
    """The action is malformed or impossible here (unknown type, off-screen point, unknown key...).

    Raised *before* anything is executed, so the desktop is untouched.
    """


class UnsupportedActionError(ActionError):
    """The action is valid, but this environment cannot execute it itself (e.g. ``select_text``,
    which the perception layer turns into lower-level actions)."""


class ActionExecutionError(ActionError):
    """The action was valid but the desktop refused it (input tool failed, window vanished)."""


# --- environment ---------------------------------------------------------------------------------


class DesktopError(PcAgentError):
    """Base of the errors of the desktop environment layer."""


class MissingProgramError(DesktopError):
    """A program the sandbox needs is not installed."""


class SandboxStartError(DesktopError):
    """The sandbox desktop (Xvfb, D-Bus, AT-SPI, window manager) did not come up."""


class SandboxClosedError(DesktopError):
    """The sandbox was used after ``close()``."""


class UnknownAppError(DesktopError, InvalidActionError):
    """A logical application name is not in the registry."""


class AppLaunchError(DesktopError):
    """An application was started but its window never appeared, or it exited at once."""


class AccessibilityError(DesktopError):
    """The accessibility bus could not be reached or answered nonsense."""
