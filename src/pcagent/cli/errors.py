"""How every command reports a failure: ``error: MESSAGE`` on standard error, exit status 2.

Every error the project raises is a :class:`~pcagent.errors.PcAgentError` whose message says what
to do, so the command line shows the message and no traceback. Every command is decorated with
:func:`reports_errors`, which is the one place that catches them; a command refuses bad input by
raising such an error (usually :class:`~pcagent.errors.ConfigurationError`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from pcagent.errors import PcAgentError

#: The exit status of a command that stopped on an error (1 is a run or check that failed).
ERROR_EXIT = 2

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn a :class:`PcAgentError` raised inside into ``error: ...`` and exit status 2."""
    try:
        yield
    except PcAgentError as error:
        # soft_wrap: a long message stays one line, so it can be copied and searched for.
        Console(stderr=True).print(
            f"[red]error:[/red] {escape(str(error))}", soft_wrap=True, highlight=False
        )
        raise typer.Exit(code=ERROR_EXIT) from error


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command so that project errors end it with :func:`reported_errors`. Put it
    below ``@app.command(...)``; the command's signature (its options) is kept."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with reported_errors():
            return command(*args, **kwargs)

    return wrapper
