"""The web browser (Chromium)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import BROWSER as BROWSER_FAMILY

BROWSER = Application(
    "browser",
    "web browser",
    program="chromium",
    window_classes=("Chromium", "chromium"),
    family=BROWSER_FAMILY,
    also_called=("web", "website", "internet", "online"),
    startup_timeout=60.0,
    label_purposes={
        "Reload": "Reload the current web page",
        "Back": "Go back to the previous web page",
        "Forward": "Go forward to the next web page",
        "New Tab": "Open a new browser tab",
    },
)
