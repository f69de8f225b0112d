"""The worker's connection to one LibreOffice over UNO, and the documents found through it.

One connection per LibreOffice worker (:mod:`pcagent.env.office_worker`), shared by the word
processor's and the spreadsheet's actions (:mod:`pcagent.env.office_writer_actions`,
:mod:`pcagent.env.office_sheet_actions`, combined in :mod:`pcagent.env.office_actions`) and the
copies of unsaved documents (:mod:`pcagent.env.office_unsaved_copies`); needs only the standard
library and LibreOffice's ``uno``, like the worker it is shipped with.

A request that cannot be carried out raises :class:`Refused`, which the worker answers with
``unavailable`` (LibreOffice or the document is not there) or ``invalid`` (the request names
something the document does not have).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

TEXT = "com.sun.star.text.TextDocument"
SPREADSHEET = "com.sun.star.sheet.SpreadsheetDocument"
KINDS = {"text": TEXT, "spreadsheet": SPREADSHEET}
KIND_NAMES = {"text": "text document", "spreadsheet": "spreadsheet"}


class Refused(Exception):
    """A request that cannot be carried out; ``field`` says whose fault (see the module doc)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def unavailable(message: str) -> Refused:
    return Refused("unavailable", message)


def invalid(message: str) -> Refused:
    return Refused("invalid", message)


class OfficeConnection:
    """The connection to one LibreOffice and the documents open in it."""

    def __init__(self, pipe_name: str) -> None:
        import uno
        from com.sun.star.connection import NoConnectException
        from com.sun.star.lang import DisposedException
        from com.sun.star.uno import Exception as UnoException
        from com.sun.star.uno import RuntimeException

        self.uno = uno
        self.NoConnectException = NoConnectException
        self.UnoException = UnoException
        self.RuntimeException = RuntimeException
        self.DisposedException = DisposedException
        self.pipe_name = pipe_name
        self.local = uno.getComponentContext()
        self.bridge: Any = None
        self.desktop: Any = None

    # --- connection -------------------------------------------------------------------------------

    def connect(self) -> None:
        manager = self.local.ServiceManager
        connector = manager.createInstanceWithContext(
            "com.sun.star.connection.Connector", self.local
        )
        try:
            connection = connector.connect(f"pipe,name={self.pipe_name}")
        except self.NoConnectException as error:
            raise unavailable(f"LibreOffice is not running ({error.Message})") from error
        factory = manager.createInstanceWithContext("com.sun.star.bridge.BridgeFactory", self.local)
        self.bridge = factory.createBridge("", "urp", connection, None)
        context = self.bridge.getInstance("StarOffice.ComponentContext")
        self.desktop = context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", context
        )

    def disconnect(self) -> None:
        bridge, self.bridge, self.desktop = self.bridge, None, None
        if bridge is not None:
            # A bridge whose LibreOffice is gone is disposed already: the expected case.
            with contextlib.suppress(self.RuntimeException):
                bridge.dispose()

    def run(
        self, handler: Callable[[dict[str, Any]], dict[str, Any]], request: dict[str, Any]
    ) -> dict[str, Any]:
        """``handler`` on a live connection, run once (a change must not be made twice).

        A bridge cached from an earlier request is dead when LibreOffice was restarted, which
        shows only when it is used: it is tried with a call that changes nothing first.
        """
        if self.desktop is not None:
            try:
                self.desktop.getComponents()
            except self.RuntimeException:
                self.disconnect()
        if self.desktop is None:
            self.connect()
        try:
            return handler(request)
        except self.DisposedException as error:
            self.disconnect()
            message = f"the connection to LibreOffice broke: {error.Message}"
            raise unavailable(message) from error

    # --- documents ----------------------------------------------------------------------------------

    def documents(self, kind: str) -> list[Any]:
        found = []
        components = self.desktop.getComponents().createEnumeration()
        while components.hasMoreElements():
            component = components.nextElement()
            supports = getattr(component, "supportsService", None)
            if supports is not None and supports(KINDS[kind]):
                found.append(component)
        return found

    def front_document(self, request: dict[str, Any]) -> Any:
        """The document of ``request["kind"]`` whose window is highest in ``request["titles"]``
        (LibreOffice's window titles, topmost first); LibreOffice's current one when no title
        matches."""
        kind = request["kind"]
        documents = self.documents(kind)
        if not documents:
            raise unavailable(f"no {KIND_NAMES[kind]} is open in LibreOffice")
        by_title = {frame_title(document): document for document in documents}
        for title in request.get("titles", []):
            if title in by_title:
                return by_title[title]
        current = self.desktop.getCurrentComponent()
        if current is not None and any(current == document for document in documents):
            return current
        return documents[0]

    def describe(self, document: Any) -> dict[str, Any]:
        return {
            "title": frame_title(document),
            "url": document.getLocation(),
            "modified": bool(document.isModified()),
        }

    def property(self, name: str, value: object) -> Any:
        prop = self.uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name = name
        prop.Value = value
        return prop


def frame_title(document: Any) -> str:
    """The title of the document's window ("report.docx - LibreOffice Writer"); "" without one."""
    controller = document.getCurrentController()
    if controller is None or controller.getFrame() is None:
        return ""
    return str(controller.getFrame().getTitle())


def filter_of(document: Any) -> str:
    for argument in document.getArgs():
        if argument.Name == "FilterName":
            return str(argument.Value)
    return ""
