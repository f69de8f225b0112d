"""What a checker is: the context it reads, the result it returns, its error, and its declaration.

This module imports no checks module, so every checks module and the library that gathers them
(:mod:`pcagent.bench.checkers`) can import it without a cycle. A checker is a plain function
``function(context, **params) -> CheckResult``; :meth:`Checker.from_function` turns its keyword
parameters (type hints and defaults) into the pydantic model that validates a task's ``params``.
Checkers never raise for a failed check; a checker that cannot run (a missing parameter, a path
outside HOME) raises :class:`CheckerError`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from pcagent.config import validation_problems
from pcagent.errors import BenchError


class CheckerError(BenchError):
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

    ``home`` is the environment's HOME on this machine (None for a remote environment whose
    HOME is elsewhere: checkers that read files cannot run there), ``environment`` the desktop
    (for accessibility checks), ``answers`` the values the agent reported with ``answer``
    actions, in order, and ``services`` the benchmark's helpers by name (``"web"``: the offline
    websites' request log, ``"mail"``: the SMTP sink).
    """

    home: Path | None
    environment: Any = None
    answers: Sequence[str] = ()
    services: Mapping[str, Any] = field(default_factory=dict)

    def require_home(self) -> Path:
        """HOME on this machine; :class:`CheckerError` when the environment's HOME is not here
        (a remote desktop): a task may check only what the environment's client offers there."""
        if self.home is None:
            raise CheckerError(
                "this checker reads files, but the environment's HOME is not on this machine "
                "(a remote desktop); check it with window or screen checkers instead"
            )
        return self.home

    def path(self, relative: str) -> Path:
        """A path under HOME; absolute paths and ``..`` are refused (task files stay in HOME)."""
        home = self.require_home()
        candidate = (home / relative).resolve()
        if not candidate.is_relative_to(home.resolve()):
            raise CheckerError(f"checker path {relative!r} leaves HOME")
        return candidate


#: A checker function: ``function(context, **params)``.
CheckFunction = Callable[..., CheckResult]
F = TypeVar("F", bound=CheckFunction)

#: The attribute :func:`checker` sets on a checker function.
_MARK = "__pcagent_checker__"


def checker(function: F) -> F:
    """Declare ``function`` a checker that tasks may name, where it is defined. It stays a plain
    function; importing its module registers nothing: :func:`checkers_of` finds it there."""
    setattr(function, _MARK, True)
    return function


def checkers_of(module: ModuleType) -> list[CheckFunction]:
    """The checkers ``module`` declares with :func:`checker` (not those it imports), in the order
    it defines them."""
    return [
        value
        for value in vars(module).values()
        if getattr(value, _MARK, False) and value.__module__ == module.__name__
    ]


@dataclass(frozen=True)
class Checker:
    """One named checker: its function, the model that validates its parameters, and the first
    line of its docstring (for listings)."""

    name: str
    function: CheckFunction
    parameters: type[BaseModel]
    description: str

    @classmethod
    def from_function(cls, function: CheckFunction) -> Checker:
        """The checker declared by ``function(context, **params)``: named after the function, its
        keyword parameters (with type hints and defaults) becoming the parameter model, which
        refuses unknown parameters."""
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
        description = (function.__doc__ or "").strip().split("\n")[0]
        return cls(function.__name__, function, model, description)

    def validate(self, params: Mapping[str, Any]) -> BaseModel:
        """The parameters, validated; :class:`CheckerError` naming the problem."""
        try:
            return self.parameters.model_validate(dict(params))
        except ValidationError as error:
            raise CheckerError(f"checker {self.name!r}: {validation_problems(error)}") from None

    def run(self, params: Mapping[str, Any], context: CheckContext) -> CheckResult:
        """Check once. A crash inside the checker (a file half written by an app) is a failed
        check with the error as its reason, not an exception: the evaluator checks again later.
        :class:`CheckerError` (bad parameters, a checker that cannot run) is raised."""
        values = self.validate(params)
        try:
            return self.function(context, **values.model_dump())
        except CheckerError:
            raise
        except Exception as error:
            return CheckResult.no(f"could not check: {type(error).__name__}: {error}")
