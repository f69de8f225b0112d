"""What LibreOffice's modules (the word processor, the spreadsheet) have in common: one program
started with a module's flag, window classes shared by every module, documents that can be lost
unsaved, a slow first start, and the same "Open" control."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import OFFICE_EDITOR

#: Window classes every LibreOffice module uses for some of its windows (the first window while it
#: starts, dialogs): they say "LibreOffice", not which module.
LIBREOFFICE_SHARED_CLASSES = ("Soffice", "libreoffice")


def libreoffice_module(
    name: str,
    description: str,
    *,
    window_class: str,
    title_hint: str,
    opens: tuple[str, ...],
    new: str,
    also_called: tuple[str, ...] = (),
) -> Application:
    """The application a LibreOffice module is: ``window_class`` is the module's own window
    class, ``title_hint`` the words its window titles carry, ``new`` what its "New" control
    starts."""
    return Application(
        name,
        description,
        program="soffice",
        window_classes=(window_class, *LIBREOFFICE_SHARED_CLASSES),
        family=OFFICE_EDITOR,
        title_hint=title_hint,
        edits_documents=True,
        opens=opens,
        also_called=also_called,
        startup_timeout=60.0,
        label_purposes={"New": new, "Open": "Open an existing file"},
    )
