"""The file manager (Thunar)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import FILE_MANAGER as FILE_MANAGER_FAMILY

FILE_MANAGER = Application(
    "file_manager",
    "file manager",
    program="thunar",
    window_classes=("Thunar",),
    family=FILE_MANAGER_FAMILY,
    label_purposes={
        "Home": "Go to the home folder",
        "Open Parent": "Go up to the parent folder",
        "Back": "Go back to the folder shown before",
        "Search for Files...": "Search for files in this folder",
    },
)
