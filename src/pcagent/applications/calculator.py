"""The calculator (galculator)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import CALCULATOR_CLOCK

CALCULATOR = Application(
    "calculator",
    "calculator",
    program="galculator",
    window_classes=("Galculator",),
    family=CALCULATOR_CLOCK,
    # galculator ignores a key pressed again while its button is still drawn pressed.
    key_pause=0.12,
    label_purposes={
        "=": "Show the result of the calculation",
        "AC": "Clear everything in the calculator",
        "sqrt": "Take the square root of the number shown",
    },
)
