"""The worker's side of the JSON-lines protocol that pcagent's helper processes speak.

The accessibility worker and the LibreOffice worker each run in a process of their own (the
caller's side is :class:`pcagent.env.accessibility.WorkerProcess`), and they frame their answers
the same way: ``{"ready": true}`` once up (or ``{"error": ...}`` when they cannot work), then one
JSON object per line in, one per line out, with ``ms`` (the time the work took) on each answer
and ``{"error": "Type: message"}`` for anything unexpected. That framing is written once, here.

This module needs only the standard library: it is shipped, with the worker that imports it, to
another user's system Python, which cannot see this installation.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

Handler = Callable[[dict[str, Any]], dict[str, Any]]
"""Answers one request (the decoded JSON object, with its ``op``) with a JSON object."""

UNO_BRIDGE_MISSING = (
    "LibreOffice's Python bridge is missing: install python3-uno and use a virtual environment "
    "that sees the system's packages."
)


def error_answer(error: BaseException) -> dict[str, Any]:
    """The answer for an unexpected failure: the exception's type and message, for the caller."""
    return {"error": f"{type(error).__name__}: {error}"}


def timed(handler: Handler, request: dict[str, Any]) -> dict[str, Any]:
    """``handler``'s answer to ``request``, with the milliseconds it took in ``ms``."""
    started = time.perf_counter()
    answer = handler(request)
    answer["ms"] = (time.perf_counter() - started) * 1000
    return answer


def dispatch_by_op(handlers: Mapping[str, Handler]) -> Handler:
    """One handler that passes each request to ``handlers[request["op"]]``, timed; ``ping`` is
    answered by every worker, so the caller can check it is alive."""
    every = {"ping": lambda request: {"pong": True}, **handlers}
    return lambda request: timed(every[request["op"]], request)


def write_line(stdout: TextIO, answer: Mapping[str, Any]) -> None:
    """One answer, one line, flushed at once: the caller waits for it."""
    stdout.write(json.dumps(answer) + "\n")
    stdout.flush()


def refuse_to_start(stdout: TextIO, message: str) -> None:
    """Tell the caller this worker cannot work (it raises ``message`` as its start error)."""
    write_line(stdout, {"error": message})


def serve(stdin: TextIO, stdout: TextIO, answer: Handler) -> None:
    """Say ready, then answer each request line until the caller closes ``stdin``.

    A request that fails in any way (bad JSON, an unknown op, a bug) is answered with
    :func:`error_answer`, so one bad request never ends the worker.
    """
    write_line(stdout, {"ready": True})
    for line in stdin:
        try:
            reply = answer(json.loads(line))
        except Exception as error:
            reply = error_answer(error)
        write_line(stdout, reply)


def run_worker(serve_on: Callable[[TextIO], None]) -> None:
    """Run ``serve_on`` with the real stdout as the protocol's stream.

    Anything a library prints would corrupt the protocol, so the process's own stdout is pointed
    at stderr first and the protocol writes to a copy of the original.
    """
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve_on(protocol_out)
