"""The LibreOffice worker: one process per sandbox that answers both the application actions
(:mod:`pcagent.env.office_actions`) and the copies of unsaved documents
(:mod:`pcagent.env.office_unsaved_copies`), over one UNO connection.

Run as ``python -m pcagent.env.office_worker PIPE_NAME``; it speaks JSON lines on stdin/stdout
(:mod:`pcagent.env.worker_protocol`; the caller's side is :mod:`pcagent.env.office_process`).

Why a process apart: importing ``uno`` replaces Python's import function for the whole process,
and a call over the UNO bridge has no timeout, so a hung LibreOffice would hang its caller for
good. Here it only hangs the worker, which the caller kills after its timeout. Why one for both
uses: they talk to the same LibreOffice, and a second process would hold a second bridge to it.
"""

from __future__ import annotations

import sys
from typing import Any

from pcagent.env.office_actions import OfficeActions
from pcagent.env.office_unsaved_copies import UnsavedCopies
from pcagent.env.worker_protocol import (
    UNO_BRIDGE_MISSING,
    error_answer,
    refuse_to_start,
    run_worker,
    timed,
)
from pcagent.env.worker_protocol import serve as serve_lines


class OfficeWorker:
    """Passes each request to the actions, or ``unsaved`` to the copies, on one connection."""

    def __init__(self, pipe_name: str) -> None:
        self.actions = OfficeActions(pipe_name)
        self.copies = UnsavedCopies(self.actions)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") != "unsaved":
            return self.actions.answer(request)
        try:
            return timed(self.copies.unsaved, request)
        except Exception as error:
            return error_answer(error)


def serve(pipe_name: str, stdin: Any, stdout: Any) -> None:
    try:
        worker = OfficeWorker(pipe_name)
    except ImportError as error:
        refuse_to_start(stdout, f"{error}. {UNO_BRIDGE_MISSING}")
        return
    serve_lines(stdin, stdout, worker.answer)
    worker.actions.disconnect()


def main() -> None:
    run_worker(lambda protocol_out: serve(sys.argv[1], sys.stdin, protocol_out))


if __name__ == "__main__":
    main()
