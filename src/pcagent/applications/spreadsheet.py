"""The spreadsheet (LibreOffice Calc)."""

from __future__ import annotations

from pcagent.applications.libreoffice import libreoffice_module

SPREADSHEET = libreoffice_module(
    "spreadsheet",
    "spreadsheet (.xlsx/.ods)",
    window_class="libreoffice-calc",
    title_hint="LibreOffice Calc",
    opens=(".xlsx", ".xls", ".ods", ".csv"),
    new="Start a new spreadsheet",
    also_called=("Calc", "workbook", "worksheet"),
)
