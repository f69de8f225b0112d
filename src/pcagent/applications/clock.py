"""Clocks (GNOME Clocks): alarms, timers, world clocks."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import CALCULATOR_CLOCK

CLOCK = Application(
    "clock",
    "clocks, alarms, timers, world clocks",
    program="gnome-clocks",
    window_classes=("gnome-clocks", "Org.gnome.clocks"),
    family=CALCULATOR_CLOCK,
    title_hint="Clocks",
    also_called=("alarm", "timer", "stopwatch", "world clock"),
    label_purposes={"Alarms": "Show the alarms", "Stopwatch": "Show the stopwatch"},
)
