"""The plain-text editor (mousepad)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import TEXT_NOTES

TEXT_EDITOR = Application(
    "text_editor",
    "plain-text editor (text files, .txt, source code)",
    program="mousepad",
    window_classes=("Mousepad",),
    family=TEXT_NOTES,
    edits_documents=True,
    opens=(".txt", ".md", ".py", ".json", ".log", ".ini", ".cfg", ".yaml", ".yml", ".sh", ".xml"),
)
