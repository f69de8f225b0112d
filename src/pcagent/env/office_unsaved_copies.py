"""Copies the unsaved documents of one running LibreOffice; part of the LibreOffice worker
(:mod:`pcagent.env.office_worker`), on the connection its actions use.

How a document is copied without touching it: ``storeToURL`` writes a copy in ODF to a temporary
folder and leaves the document as it was (still modified, still bound to its own file), unlike
``storeAsURL``. A copy costs 130-500 ms per document, so every modified document gets a modify
listener (LibreOffice calls it on every change: typing, formatting, undo, a cell committed, a
change through UNO) and is copied again only after a change since its last copy.

Needs only the standard library and LibreOffice's ``uno``, like the worker it is shipped with.
"""

from __future__ import annotations

import base64
import contextlib
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcagent.env.office_connection import OfficeConnection, Refused, frame_title

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


def change_counter_type() -> Callable[[], Any]:
    """The modify listener class; defined here because it derives from pyuno's types, which exist
    only once ``uno`` is imported (in the worker's process alone)."""
    import unohelper
    from com.sun.star.util import XModifyListener

    class ChangeCounter(unohelper.Base, XModifyListener):  # type: ignore[misc]
        """Counts LibreOffice's change notifications for one document."""

        def __init__(self) -> None:
            self.changes = 0

        def modified(self, event: Any) -> None:
            self.changes += 1

        def disposing(self, event: Any) -> None:
            self.changes += 1  # the document is closing; any copy of it is stale

    return ChangeCounter


class UnsavedCopies:
    """The copies of the modified documents of the LibreOffice behind ``connection``."""

    def __init__(self, connection: OfficeConnection) -> None:
        self.connection = connection
        self.change_counter = change_counter_type()
        self.watched: dict[str, Watched] = {}
        #: The bridge the listeners in ``watched`` were added over; another one (LibreOffice was
        #: restarted, or the connection was renewed) means they listen to nothing any more.
        self._watched_over: Any = None

    def unsaved(self, request: dict[str, Any]) -> dict[str, Any]:
        """Every modified document: kind, frame title, URL, suffix and an ODF copy (base64).

        ``absent`` says why no LibreOffice could be asked (none is running); ``failures`` name the
        modified documents that could not be copied, and why.
        """
        # Twice: a bridge cached from an earlier call is dead when LibreOffice was restarted, and
        # that shows only when it is used.
        reason = ""
        office = self.connection
        for _attempt in range(2):
            if office.desktop is None:
                try:
                    office.connect()
                except Refused as refused:
                    absent = f"no LibreOffice listens on pipe {office.pipe_name}: {refused}"
                    return {"documents": [], "failures": [], "absent": absent}
            if office.bridge is not self._watched_over:
                self.watched, self._watched_over = {}, office.bridge
            try:
                return {**self._read(), "absent": ""}
            except office.RuntimeException as error:  # DisposedException: LibreOffice went away
                reason = f"the connection to LibreOffice broke: {error.Message}"
                office.disconnect()
        return {"documents": [], "failures": [], "absent": reason}

    def _read(self) -> dict[str, Any]:
        documents: list[dict[str, Any]] = []
        failures: list[str] = []
        seen: set[str] = set()
        components = self.connection.desktop.getComponents().createEnumeration()
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
            except self.connection.RuntimeException:
                raise  # the bridge broke: the caller reconnects
            except self.connection.UnoException as error:
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
        counter = self.change_counter()
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
            with contextlib.suppress(self.connection.RuntimeException, AttributeError):
                watched.component.removeModifyListener(watched.listener)

    def _copy(self, component: Any, filter_name: str, suffix: str) -> bytes:
        """An ODF copy of the document as it is now; the document itself is left untouched."""
        office = self.connection
        with tempfile.TemporaryDirectory(prefix="pcagent-unsaved-") as folder:
            target = Path(folder) / f"document{suffix}"
            component.storeToURL(
                office.uno.systemPathToFileUrl(str(target)),
                (office.property("FilterName", filter_name), office.property("Overwrite", True)),
            )
            return target.read_bytes()


def _kind_of(component: Any) -> tuple[str, str, str, str] | None:
    """The document kind of a desktop component; None for what is no document (the Basic IDE)."""
    supports = getattr(component, "supportsService", None)
    if supports is None or not hasattr(component, "isModified"):
        return None
    for kind in DOCUMENT_KINDS:
        if supports(kind[0]):
            return kind
    return None
