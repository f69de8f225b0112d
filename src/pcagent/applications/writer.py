"""The word processor (LibreOffice Writer)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import OFFICE_EDITOR

#: Window classes every LibreOffice module uses for some of its windows (the first window while it
#: starts, dialogs): they say "LibreOffice", not which module.
LIBREOFFICE_SHARED_CLASSES = ("Soffice", "libreoffice")

WRITER = Application(
    "writer",
    "word processor (documents .docx/.odt)",
    program="soffice",
    window_classes=("libreoffice-writer", *LIBREOFFICE_SHARED_CLASSES),
    family=OFFICE_EDITOR,
    title_hint="LibreOffice Writer",
    edits_documents=True,
    opens=(".docx", ".doc", ".odt", ".rtf"),
    startup_timeout=60.0,
    label_purposes={"New": "Start a new document", "Open": "Open an existing file"},
)
