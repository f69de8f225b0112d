"""One exception hierarchy for the whole project.

Every error pcagent raises on purpose derives from :class:`PcAgentError`, so a caller (the CLI, a run
loop) can catch the project's failures without swallowing programming errors. Messages say what
went wrong *and* what to do about it.
"""

from __future__ import annotations


class PcAgentError(Exception):
    """Base of every error pcagent raises deliberately."""


def error_names(base: type[Exception]) -> frozenset[str]:
    """The names of ``base`` and of every error class derived from it, as records keep an
    error (by name, so that a remote desktop's error reads the same)."""
    found: set[str] = set()
    todo: list[type[Exception]] = [base]
    while todo:
        kind = todo.pop()
        found.add(kind.__name__)
        todo.extend(kind.__subclasses__())
    return frozenset(found)


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


class AppInterfaceError(DesktopError):
    """An application's own interface (UNO, GIO, DevTools, the mail store) could not carry out an
    application action, or its effect was not there when read back; the GUI may still do it."""


class AccessibilityError(DesktopError):
    """The accessibility bus could not be reached or answered nonsense."""


# --- remote environments -------------------------------------------------------------------------


class RemoteEnvironmentError(PcAgentError):
    """Base of the errors of a remote environment (``pcagent serve`` and its client)."""


class RemoteAuthError(RemoteEnvironmentError):
    """The server refused the token (missing, wrong, or the file holding it is unreadable)."""


class RemoteUnreachableError(RemoteEnvironmentError):
    """The server could not be reached, or did not answer in time (after the retries of the
    calls that may be repeated)."""


class RemoteRequestError(RemoteEnvironmentError):
    """The server refused a request; the message is the server's. ``status`` is the HTTP status
    and ``code`` the server's short name for the refusal."""

    def __init__(self, message: str, *, status: int = 0, code: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class RemoteBusyError(RemoteRequestError):
    """The environment was busy with another client's request for longer than the server waits
    (HTTP 429), or an action ran past the server's time limit (HTTP 504)."""


class RemoteInvalidActionError(RemoteRequestError, InvalidActionError):
    """The server refused an action before running it (malformed, off screen, a path outside
    HOME); like :class:`InvalidActionError`, nothing happened on the desktop."""


class RemoteUnsupportedActionError(RemoteRequestError, UnsupportedActionError):
    """The remote environment cannot carry out this valid action itself."""


class RemoteActionExecutionError(RemoteRequestError, ActionExecutionError):
    """The action was accepted but the remote desktop failed to carry it out."""


class RemoteServeError(RemoteEnvironmentError, ConfigurationError):
    """``pcagent serve`` refuses its settings (a non-loopback address without TLS or without
    ``--allow-remote``, a missing certificate)."""


# --- perception ----------------------------------------------------------------------------------


class PerceptionError(PcAgentError):
    """Base of the errors of the perception layer (``pcagent.perception``)."""


class OcrError(PerceptionError):
    """Tesseract failed or timed out, or the region to read lies off the screenshot."""


class TextNotFoundError(PerceptionError):
    """The text a selection targets is not on screen, even after scrolling to look for it."""


class SelectionFailedError(PerceptionError):
    """The target text was found, but the application's selection never matched it."""


# --- agents and runs -----------------------------------------------------------------------------


class ActionRefusedError(ActionError):
    """A valid action was stopped before execution: outside the acting role's domain, or a
    sensitive action the safety guard (or the human) did not allow. The desktop is untouched."""


class OutOfDomainError(ActionRefusedError):
    """The acting role may not use this action (its kind, or the application it opens)."""


class AgentError(PcAgentError):
    """Base of the errors of the agents layer (``pcagent.agents``)."""


class PlanError(AgentError):
    """A plan is unusable: duplicate ids, unknown dependencies, a cycle, or an input that no
    earlier subtask produces."""


class MissingInputError(AgentError):
    """A subtask was instantiated before the hub held every value it needs."""


class RunError(PcAgentError):
    """Base of the errors of the run layer (``pcagent.runtime``)."""


class RunNotFoundError(RunError):
    """No recorded run has this id (the message lists the most recent ones)."""


class RunStateError(RunError):
    """A recorded run cannot be resumed, replayed or rewound as asked (e.g. no such step)."""


class RecordError(RunError):
    """The run record could not be written or read (disk full, corrupt database)."""


# --- benchmark -----------------------------------------------------------------------------------


class BenchError(PcAgentError):
    """Base of the errors of the benchmark (``pcagent.bench``): a task file or checker that is
    wrong, a reference solution that cannot be carried out, a benchmark service that fails."""


# --- models --------------------------------------------------------------------------------------


class ModelError(PcAgentError):
    """Base of the errors of the model layer (``pcagent.models``).

    Bad *output* from a model is not an error: it comes back as a typed failure. These exceptions
    are for what a retry cannot fix by re-asking: configuration, transport, installation.
    """


class ModelConfigurationError(ModelError, ConfigurationError):
    """The model configuration is incomplete or invalid (unknown profile, bad backend option)."""


class MissingApiKeyError(ModelConfigurationError):
    """A remote backend needs an API key and the environment variable that should hold it is empty."""


class ModelAuthenticationError(ModelError):
    """The server rejected the API key."""


class ModelUnavailableError(ModelError):
    """The model server could not be reached or kept failing after the retries (connection refused,
    timeout, overload). The message names the address and the setting to change."""


class ModelTransientError(ModelUnavailableError):
    """One failed attempt that is worth retrying (timeout, rate limit, 5xx). Retried with backoff;
    callers only see it, as :class:`ModelUnavailableError`, once the retries are spent."""


class ModelRequestError(ModelError):
    """The server refused the request itself (HTTP 4xx other than auth and rate limits)."""


class PromptTooLongError(ModelRequestError):
    """The prompt does not fit the model's context window. ``prompt_tokens`` and
    ``context_tokens`` are the server's counts (0 when it did not say), so a caller can ask again
    with a shorter prompt."""

    def __init__(self, message: str, prompt_tokens: int = 0, context_tokens: int = 0) -> None:
        super().__init__(message)
        self.prompt_tokens = prompt_tokens
        self.context_tokens = context_tokens


class LocalModelNotInstalledError(ModelError):
    """No local model pack is installed (or the configured one is missing)."""


class EmbeddingModelNotInstalledError(ModelError):
    """The sentence-embedding pack is not installed (or its files changed since verification);
    the message names the ``pcagent models install`` command to run."""


class ModelInstallError(ModelError):
    """Installing a local model pack failed (download, extraction, size or hash check)."""


class StructuredOutputError(ModelError):
    """Raised only by ``StructuredResult.unwrap()``: the model never produced valid output."""


class ReplayMissError(ModelError):
    """A replaying model got a request that was never recorded."""


class ScriptExhaustedError(ModelError):
    """A scripted model was asked more often than it has queued responses (a test bug)."""
