"""The word processor (LibreOffice Writer)."""

from __future__ import annotations

from pcagent.applications.libreoffice import libreoffice_module

WRITER = libreoffice_module(
    "writer",
    "word processor (documents .docx/.odt)",
    window_class="libreoffice-writer",
    title_hint="LibreOffice Writer",
    opens=(".docx", ".doc", ".odt", ".rtf"),
    new="Start a new document",
)
