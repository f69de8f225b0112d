"""The spreadsheet (LibreOffice Calc)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import OFFICE_EDITOR
from pcagent.applications.writer import LIBREOFFICE_SHARED_CLASSES

SPREADSHEET = Application(
    "spreadsheet",
    "spreadsheet (.xlsx/.ods)",
    program="soffice",
    window_classes=("libreoffice-calc", *LIBREOFFICE_SHARED_CLASSES),
    family=OFFICE_EDITOR,
    title_hint="LibreOffice Calc",
    edits_documents=True,
    opens=(".xlsx", ".xls", ".ods", ".csv"),
    startup_timeout=60.0,
    label_purposes={"New": "Start a new spreadsheet", "Open": "Open an existing file"},
)
