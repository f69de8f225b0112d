"""What the document actions of Writer and Calc need of the LibreOffice interface: one request
on the document in front. A protocol of its own, so that the action modules and the interface
that lists them do not import each other."""

from __future__ import annotations

from typing import Any, Protocol


class OfficeDocuments(Protocol):
    """The LibreOffice interface as the document actions see it."""

    def on_document(self, op: str, kind: str, **params: Any) -> dict[str, Any]:
        """``op`` on the document of ``kind`` in front (raising AppInterfaceError when there
        is none), whose window is then raised; the worker's answer."""
        ...
