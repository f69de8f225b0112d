"""The library of named checkers: plain functions that read the real system state.

A task's sub-goal names a checker and gives its parameters as data (``{"checker": "file_contains",
"params": {"path": "Documents/notes.txt", "text": "hello"}}``); adding a task needs no Python
unless it needs a new kind of check. A checker takes a :class:`CheckContext` (where HOME is, the
environment, the agent's answers, the benchmark services) and its typed parameters, and returns a
:class:`CheckResult` with a reason a person can read. Checkers never raise for a failed check; a
checker that cannot run (a missing parameter) is a :class:`CheckerError`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from pcagent.config import validation_problems
from pcagent.errors import PcAgentError


class CheckerError(PcAgentError):
    """A checker is unknown, or its parameters are invalid (a task-definition bug)."""


@dataclass(frozen=True)
class CheckResult:
    """Whether a sub-goal holds now, and why (shown in reports)."""

    passed: bool
    reason: str

    @classmethod
    def ok(cls, reason: str) -> CheckResult:
        return cls(True, reason)

    @classmethod
    def no(cls, reason: str) -> CheckResult:
        return cls(False, reason)


@dataclass
class CheckContext:
    """What a checker may look at.

    ``environment`` is the desktop (for accessibility checks), ``answers`` the values the agent
    reported with ``answer`` actions, in order, and ``services`` the benchmark's helpers by name
    (``"web"``: the offline websites' request log, ``"mail"``: the SMTP sink).
    """

    home: Path
    environment: Any = None
    answers: Sequence[str] = ()
    services: Mapping[str, Any] = field(default_factory=dict)

    def path(self, relative: str) -> Path:
        """A path under HOME; absolute paths and ``..`` are refused (task files stay in HOME)."""
        candidate = (self.home / relative).resolve()
        if not candidate.is_relative_to(self.home.resolve()):
            raise CheckerError(f"checker path {relative!r} leaves HOME")
        return candidate


Checker = Callable[..., CheckResult]


@dataclass(frozen=True)
class RegisteredChecker:
    name: str
    function: Checker
    parameters: type[BaseModel]
    description: str


_REGISTRY: dict[str, RegisteredChecker] = {}


def checker(function: Checker) -> Checker:
    """Register ``function(context, **params)`` under its name; its keyword parameters (with type
    hints and defaults) become the validated parameter model."""
    signature = inspect.signature(function)
    hints = inspect.get_annotations(function, eval_str=True)
    fields: dict[str, Any] = {}
    for name, parameter in list(signature.parameters.items())[1:]:
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[name] = (hints.get(name, Any), default)
    model = create_model(
        f"{function.__name__}_params",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **fields,
    )
    if function.__name__ in _REGISTRY:
        raise CheckerError(f"a checker named {function.__name__!r} is already registered")
    _REGISTRY[function.__name__] = RegisteredChecker(
        function.__name__, function, model, (function.__doc__ or "").strip().split("\n")[0]
    )
    return function


def get_checker(name: str) -> RegisteredChecker:
    _load_library()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise CheckerError(
            f"unknown checker {name!r}; known checkers: {', '.join(sorted(_REGISTRY))}"
        ) from None


def validate_params(name: str, params: Mapping[str, Any]) -> BaseModel:
    """The checker's parameters, validated; :class:`CheckerError` naming the problem."""
    registered = get_checker(name)
    try:
        return registered.parameters.model_validate(dict(params))
    except ValidationError as error:
        raise CheckerError(f"checker {name!r}: {validation_problems(error)}") from None


def run_checker(name: str, params: Mapping[str, Any], context: CheckContext) -> CheckResult:
    """Run one checker. A crash inside the checker (a file half written by an app) is a failed
    check with the error as its reason, not an exception: the evaluator checks again later."""
    registered = get_checker(name)
    values = validate_params(name, params)
    try:
        return registered.function(context, **values.model_dump())
    except CheckerError:
        raise
    except Exception as error:
        return CheckResult.no(f"could not check: {type(error).__name__}: {error}")


def checker_names() -> list[str]:
    _load_library()
    return sorted(_REGISTRY)


def _load_library() -> None:
    """Import the modules that register checkers (once; importing registers)."""
    from pcagent.bench import checks_documents, checks_local  # noqa: F401

    for optional in ("pcagent.bench.checks_web", "pcagent.bench.checks_mail"):
        try:
            __import__(optional)
        except ModuleNotFoundError as error:
            if error.name != optional:
                raise
