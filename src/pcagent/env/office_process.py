"""The caller's side of the LibreOffice worker (:mod:`pcagent.env.office_worker`): one process
per sandbox, shared by the unsaved-work reader (:mod:`pcagent.env.unsaved`) and the office
application interface (:mod:`pcagent.env.app_interfaces.office`).

The sandbox makes it on first use and ends it before LibreOffice ends (a reset, closing the
sandbox); each user sets the time its request may take, since a copy of a large document or a
save takes longer than reading a paragraph.
"""

from __future__ import annotations

from collections.abc import Mapping

from pcagent.env.accessibility import WorkerKind, WorkerProcess
from pcagent.env.apps import libreoffice_pipe_name
from pcagent.env.processes import RunAs
from pcagent.errors import DesktopError

#: Seconds a request may take unless its user says otherwise.
DEFAULT_TIMEOUT = 30.0

#: The worker that talks to the sandbox's LibreOffice (:mod:`pcagent.env.office_worker`).
OFFICE_WORKER = WorkerKind(
    "pcagent.env.office_worker",
    "LibreOffice worker",
    DesktopError,
    hang_hint="LibreOffice may be hung, busy or showing a dialog",
    exit_hint="it could not talk to LibreOffice",
)


def office_worker(
    sandbox_id: str, env: Mapping[str, str], run_as: RunAs | None = None
) -> WorkerProcess:
    """The LibreOffice worker of the sandbox ``sandbox_id`` (not started until its first
    request), running as ``run_as``, the sandbox session's user: LibreOffice's pipe is theirs
    alone. Its failures raise :class:`DesktopError`; a user that needs a narrower error
    translates it."""
    return WorkerProcess(
        OFFICE_WORKER,
        env,
        args=[libreoffice_pipe_name(sandbox_id)],
        run_as=run_as,
        timeout=DEFAULT_TIMEOUT,
    )
