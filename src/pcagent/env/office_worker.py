"""Copies the unsaved documents of one running LibreOffice, in a process of its own.

Run as ``python -m pcagent.env.office_worker PIPE_NAME``; it speaks JSON lines on stdin/stdout
like the accessibility worker (see :class:`pcagent.env.accessibility.WorkerProcess`).

Why a separate process: importing ``uno`` replaces Python's import function for the whole
process, and a call over the UNO bridge has no timeout, so a hung LibreOffice would hang its
caller for good. Here it only hangs a worker, which the caller kills after its timeout.

How a document is copied without touching it: ``storeToURL`` writes a copy in ODF to a temporary
folder and leaves the document as it was (still modified, still bound to its own file), unlike
``storeAsURL``. A copy costs 130-500 ms per document, so every modified document gets a modify
listener (LibreOffice calls it on every change: typing, formatting, undo, a cell committed, a
change through UNO) and is copied again only after a change since its last copy.
"""

from __future__ import annotations

import base64
import contextlib
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcagent.env.office_connection import frame_title
from pcagent.env.worker_protocol import (
    UNO_BRIDGE_MISSING,
    dispatch_by_op,
    refuse_to_start,
    run_worker,
)
from pcagent.env.worker_protocol import serve as serve_lines

#: (UNO service of the document, kind, ODF export filter, file suffix), most specific first.
DOCUMENT_KINDS = (
    ("com.sun.star.text.TextDocument", "text", "writer8", ".odt"),
    ("com.sun.star.sheet.SpreadsheetDocument", "spreadsheet", "calc8", ".ods"),
    ("com.sun.star.presentation.PresentationDocument", "presentation", "impress8", ".odp"),
    ("com.sun.star.drawing.DrawingDocument", "drawing", "draw8", ".odg"),
)


@dataclass
class Watched:
    """A modified document seen before: how many changes its listener counted, and the copy taken
    when the count was ``copied_at``."""

    component: Any
    listener: Any
    copy: bytes | None = None
    copied_at: int = -1

    @property
    def changes(self) -> int:
        return self.listener.changes if self.listener is not None else -1


@dataclass(frozen=True)
class Uno:
    """pyuno and the UNO types this worker needs, loaded once the process knows it must."""

    module: Any
    Exception: type[BaseException]
    RuntimeException: type[BaseException]
    NoConnectException: type[BaseException]
    ChangeCounter: Callable[[], Any]


def load_uno() -> Uno:
    """Import pyuno (only in this worker process: see the module's doc); ImportError without it."""
    import uno
    import unohelper
    from com.sun.star.connection import NoConnectException
    from com.sun.star.uno import Exception as UnoException
    from com.sun.star.uno import RuntimeException
    from com.sun.star.util import XModifyListener

    class ChangeCounter(unohelper.Base, XModifyListener):  # type: ignore[misc]
        """Counts LibreOffice's change notifications for one document."""

        def __init__(self) -> None:
            self.changes = 0

        def modified(self, event: Any) -> None:
            self.changes += 1

        def disposing(self, event: Any) -> None:
            self.changes += 1  # the document is closing; any copy of it is stale

    return Uno(uno, UnoException, RuntimeException, NoConnectException, ChangeCounter)


class OfficeDocuments:
    """The connection to one LibreOffice and the copies of its modified documents."""

    def __init__(self, pipe_name: str) -> None:
        self.uno = load_uno()
        self.pipe_name = pipe_name
        self.local = self.uno.module.getComponentContext()
        self.bridge: Any = None
        self.desktop: Any = None
        self.watched: dict[str, Watched] = {}

    # --- connection -----------------------------------------------------------------------------

    def connect(self) -> str:
        """Connect to LibreOffice's pipe; "" on success, else why LibreOffice is not there."""
        manager = self.local.ServiceManager
        connector = manager.createInstanceWithContext(
            "com.sun.star.connection.Connector", self.local
        )
        try:
            connection = connector.connect(f"pipe,name={self.pipe_name}")
        except self.uno.NoConnectException as error:
            return f"no LibreOffice listens on pipe {self.pipe_name}: {error.Message}"
        factory = manager.createInstanceWithContext("com.sun.star.bridge.BridgeFactory", self.local)
        self.bridge = factory.createBridge("", "urp", connection, None)
        context = self.bridge.getInstance("StarOffice.ComponentContext")
        self.desktop = context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", context
        )
        return ""

    def disconnect(self) -> None:
        """Drop the bridge and every listener (they lived in the LibreOffice behind it)."""
        bridge, self.bridge, self.desktop = self.bridge, None, None
        self.watched = {}
        if bridge is not None:
            # A bridge whose LibreOffice is gone is disposed already; that is the expected case.
            with contextlib.suppress(self.uno.RuntimeException):
                bridge.dispose()

    # --- reading --------------------------------------------------------------------------------

    def unsaved(self, request: dict[str, Any]) -> dict[str, Any]:
        """Every modified document: kind, frame title, URL, suffix and an ODF copy (base64).

        ``absent`` says why no LibreOffice could be asked (none is running); ``failures`` name the
        modified documents that could not be copied, and why.
        """
        # Twice: a bridge cached from an earlier call is dead when LibreOffice was restarted, and
        # that shows only when it is used.
        reason = ""
        for _attempt in range(2):
            if self.desktop is None:
                absent = self.connect()
                if absent:
                    return {"documents": [], "failures": [], "absent": absent}
            try:
                return {**self._read(), "absent": ""}
            except self.uno.RuntimeException as error:  # DisposedException: LibreOffice went away
                reason = f"the connection to LibreOffice broke: {error.Message}"
                self.disconnect()
        return {"documents": [], "failures": [], "absent": reason}

    def _read(self) -> dict[str, Any]:
        documents: list[dict[str, Any]] = []
        failures: list[str] = []
        seen: set[str] = set()
        components = self.desktop.getComponents().createEnumeration()
        while components.hasMoreElements():
            component = components.nextElement()
            kind = _kind_of(component)
            if kind is None or not component.isModified():
                continue
            _service, name, filter_name, suffix = kind
            title = frame_title(component)
            key = str(getattr(component, "RuntimeUID", "") or "")
            seen.add(key)
            watched = self.watched.get(key) or self._watch(key, component)
            try:
                if (
                    watched.copy is None
                    or watched.changes < 0
                    or watched.changes != watched.copied_at
                ):
                    changes = watched.changes  # before copying: a change meanwhile copies again
                    watched.copy = self._copy(component, filter_name, suffix)
                    watched.copied_at = changes
            except self.uno.RuntimeException:
                raise  # the bridge broke: the caller reconnects
            except self.uno.Exception as error:
                failures.append(f"{title or component.getLocation()}: {error.Message}")
                continue
            documents.append(
                {
                    "kind": name,
                    "title": title,
                    "url": component.getLocation(),
                    "suffix": suffix,
                    "contents": base64.b64encode(watched.copy).decode("ascii"),
                }
            )
        for key in set(self.watched) - seen:  # saved or closed since
            self._unwatch(self.watched.pop(key))
        return {"documents": documents, "failures": failures}

    def _watch(self, key: str, component: Any) -> Watched:
        """Start counting a document's changes. A document that refuses listeners, or has no
        identity to remember it by, is copied on every request instead."""
        counter = self.uno.ChangeCounter()
        try:
            component.addModifyListener(counter)
        except AttributeError:
            counter = None
        watched = Watched(component=component, listener=counter)
        if key and counter is not None:
            self.watched[key] = watched
        return watched

    def _unwatch(self, watched: Watched) -> None:
        """Stop listening to a document that was saved (or closed: then there is nothing to stop,
        and the error says so)."""
        if watched.listener is not None:
            with contextlib.suppress(self.uno.RuntimeException, AttributeError):
                watched.component.removeModifyListener(watched.listener)

    def _copy(self, component: Any, filter_name: str, suffix: str) -> bytes:
        """An ODF copy of the document as it is now; the document itself is left untouched."""
        with tempfile.TemporaryDirectory(prefix="pcagent-unsaved-") as folder:
            target = Path(folder) / f"document{suffix}"
            component.storeToURL(
                self.uno.module.systemPathToFileUrl(str(target)),
                (
                    self._property("FilterName", filter_name),
                    self._property("Overwrite", True),
                ),
            )
            return target.read_bytes()

    def _property(self, name: str, value: object) -> Any:
        prop = self.uno.module.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name = name
        prop.Value = value
        return prop


def _kind_of(component: Any) -> tuple[str, str, str, str] | None:
    """The document kind of a desktop component; None for what is no document (the Basic IDE)."""
    supports = getattr(component, "supportsService", None)
    if supports is None or not hasattr(component, "isModified"):
        return None
    for kind in DOCUMENT_KINDS:
        if supports(kind[0]):
            return kind
    return None


def serve(pipe_name: str, stdin: Any, stdout: Any) -> None:
    try:
        office = OfficeDocuments(pipe_name)
    except ImportError as error:
        refuse_to_start(stdout, f"{error}. {UNO_BRIDGE_MISSING}")
        return
    serve_lines(stdin, stdout, dispatch_by_op({"unsaved": office.unsaved}))
    office.disconnect()


def main() -> None:
    run_worker(lambda protocol_out: serve(sys.argv[1], sys.stdin, protocol_out))


if __name__ == "__main__":
    main()
