"""Carries out the word processor's and the spreadsheet's application actions inside the running
LibreOffice, over UNO; part of the LibreOffice worker (:mod:`pcagent.env.office_worker`).

It needs only the standard library and LibreOffice's ``uno``, like the worker it is shipped with
(which runs under the system's Python as the sandbox's user: LibreOffice's pipe is that user's).

Every change goes to the live document model, so the window shows it at once and the document is
marked modified until a save; every answer is read back from the model after the change.

Answers carry ``unavailable`` (LibreOffice or the document is not there: the GUI cannot do better)
or ``invalid`` (the request names something the document does not have) instead of their fields
when the request cannot be carried out; ``error`` is left for the unexpected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pcagent.env.office_connection import KINDS, Refused, filter_of, invalid, unavailable
from pcagent.env.office_sheet_actions import SheetActions
from pcagent.env.office_writer_actions import WriterActions
from pcagent.env.worker_protocol import error_answer, timed


class OfficeActions(WriterActions, SheetActions):
    """The connection to one LibreOffice and the actions carried out in it."""

    def open(self, request: dict[str, Any]) -> dict[str, Any]:
        """Load a file (or find it already loaded) and bring its window forward."""
        url = self.uno.systemPathToFileUrl(request["path"])
        document = None
        for kind in KINDS:
            for candidate in self.documents(kind):
                if candidate.getLocation() == url:
                    document = candidate
        if document is None:
            document = self.desktop.loadComponentFromURL(
                url, "_default", 0, (self.property("Hidden", False),)
            )
        if document is None or document.getLocation() != url:
            raise unavailable(f"LibreOffice did not load {request['path']}")
        frame = document.getCurrentController().getFrame()
        frame.getContainerWindow().setVisible(True)
        frame.activate()
        kind = next(
            (name for name, service in KINDS.items() if document.supportsService(service)), "other"
        )
        return {**self.describe(document), "kind": kind}

    def save(self, request: dict[str, Any]) -> dict[str, Any]:
        """Save in place with the document's own filter, or under a new path with ``filter``:
        ``copy`` exports (PDF, CSV, text: the window keeps its document), else the window's
        document becomes the new file (Save As)."""
        document = self.front_document(request)
        path = request.get("path", "")
        if not path:
            if not document.getLocation():
                raise invalid("the document has never been saved, so it has no place to save to")
            if document.isReadonly():
                raise invalid("the document is open read-only; save it under a new path")
            document.store()
        else:
            url = self.uno.systemPathToFileUrl(path)
            arguments = [self.property("FilterName", request["filter"])]
            arguments.append(self.property("Overwrite", True))
            if request.get("options"):
                arguments.append(self.property("FilterOptions", request["options"]))
            if request.get("copy"):
                document.storeToURL(url, tuple(arguments))
            else:
                document.storeAsURL(url, tuple(arguments))
        answer = self.describe(document)
        answer["filter"] = filter_of(document)
        return answer

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "open": self.open,
            "front": lambda request: self.describe(self.front_document(request)),
            "save": self.save,
            "writer_read": self.writer_read,
            "writer_insert": self.writer_insert,
            "writer_format": self.writer_format,
            "sheet_read": self.sheet_read,
            "sheet_set": self.sheet_set,
            "sheet_sort": self.sheet_sort,
        }
        try:
            if request["op"] == "ping":
                return {"pong": True}
            return timed(lambda request: self.run(handlers[request["op"]], request), request)
        except Refused as refused:
            return {refused.field: str(refused)}
        except self.UnoException as error:
            return {"error": f"{type(error).__name__}: {error.Message}"}
        except Exception as error:
            return error_answer(error)
