"""The library of named checkers: plain functions that read the real system state.

A task's sub-goal names a checker and gives its parameters as data (``{"checker": "file_contains",
"params": {"path": "Documents/notes.txt", "text": "hello"}}``); adding a task needs no Python
unless it needs a new kind of check. A checker takes a :class:`CheckContext` (where HOME is, the
environment, the agent's answers, the benchmark services) and its typed parameters, and returns a
:class:`CheckResult` with a reason a person can read. Checkers never raise for a failed check; a
checker that cannot run (a missing parameter) is a :class:`CheckerError`.

This is the one place that gathers checkers: :func:`builtin_library` builds the library from the
functions each checks module declares with ``@checker``, and a name defined twice is an error. The
checks modules import only :mod:`pcagent.bench.checker_types`, never this module, so importing any
of them registers nothing and no import cycle is possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel

from pcagent.bench import checks_documents, checks_local, checks_mail, checks_web
from pcagent.bench.checker_types import (
    CheckContext,
    Checker,
    CheckerError,
    CheckFunction,
    CheckResult,
    checkers_of,
)
from pcagent.registry import Registry

__all__ = [
    "CheckContext",
    "CheckFunction",
    "CheckResult",
    "Checker",
    "CheckerError",
    "CheckerLibrary",
    "builtin_library",
    "checker_names",
    "get_checker",
    "run_checker",
    "validate_params",
]


class CheckerLibrary(Registry[Checker]):
    """Checkers by name. Build one with :meth:`from_functions`; it does not change afterwards."""

    error = CheckerError
    missing = "unknown checker {name!r}; known checkers: {names}"

    @classmethod
    def from_functions(cls, functions: Iterable[CheckFunction]) -> CheckerLibrary:
        """The library of these checker functions, each under its own name.

        Raises :class:`CheckerError` naming both definitions when two functions share a name: a
        task would otherwise silently get whichever came last.
        """
        return cls(Checker.from_function(function) for function in functions)

    def _duplicate(self, earlier: Checker, item: Checker) -> Exception:
        return CheckerError(
            f"two checkers are named {item.name!r}: one in "
            f"{earlier.function.__module__}, one in {item.function.__module__}; rename one"
        )

    def names(self) -> list[str]:
        return sorted(super().names())

    def validate_params(self, name: str, params: Mapping[str, Any]) -> BaseModel:
        """The checker's parameters, validated; :class:`CheckerError` naming the problem."""
        return self.get(name).validate(params)

    def run(self, name: str, params: Mapping[str, Any], context: CheckContext) -> CheckResult:
        """Run one checker (see :meth:`Checker.run`: a crash inside it is a failed check)."""
        return self.get(name).run(params, context)


@cache
def builtin_library() -> CheckerLibrary:
    """The checkers tasks may name: those each checks module declares with ``@checker``, built
    once on first use."""
    return CheckerLibrary.from_functions(
        function
        for module in (checks_local, checks_documents, checks_web, checks_mail)
        for function in checkers_of(module)
    )


def get_checker(name: str) -> Checker:
    """The built-in checker named ``name``; :class:`CheckerError` if there is none."""
    return builtin_library().get(name)


def validate_params(name: str, params: Mapping[str, Any]) -> BaseModel:
    """The built-in checker's parameters, validated; :class:`CheckerError` naming the problem."""
    return builtin_library().validate_params(name, params)


def run_checker(name: str, params: Mapping[str, Any], context: CheckContext) -> CheckResult:
    """Run one built-in checker. A crash inside the checker (a file half written by an app) is a
    failed check with the error as its reason, not an exception: the evaluator checks again later."""
    return builtin_library().run(name, params, context)


def checker_names() -> list[str]:
    """The names of the built-in checkers, sorted."""
    return builtin_library().names()
