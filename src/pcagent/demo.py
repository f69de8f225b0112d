"""A short scripted session on the sandbox desktop, to show that everything below the agents works.

Types a note into the text editor, computes 12 × 7 + 5 in the calculator by clicking buttons found
through their accessibility boxes, reads both back through AT-SPI, and saves a screenshot and the
element list of each application.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pcagent import actions as act
from pcagent.env import Observation, SandboxDesktop
from pcagent.errors import PcAgentError

NOTE = "Meeting notes — Grüße aus pcagent\n12 × 7 + 5 = ?\n"
CALCULATOR_BUTTONS = ["1", "2", "*", "7", "+", "5", "="]
EXPECTED_RESULT = "89"
BUTTON_ROLES = ("push button", "toggle button")


class DemoError(PcAgentError):
    """The scripted demo did not see what it expected."""


@dataclass
class DemoReport:
    editor_text: str
    calculator_result: str
    files: dict[str, Path] = field(default_factory=dict)


def button(observation: Observation, label: str) -> act.Click:
    """A click on the centre of the button named ``label`` in the observation."""
    matches = [e for e in observation.elements if e.role in BUTTON_ROLES and e.name == label]
    if not matches:
        names = sorted({e.name for e in observation.elements if e.role in BUTTON_ROLES})
        raise DemoError(f"no button '{label}' on screen; buttons seen: {names}")
    x, y = matches[0].box.center
    return act.Click(x=x, y=y)


def calculator_display(observation: Observation) -> str:
    """galculator shows its value in a read-only text field above the buttons."""
    values = [e.text for e in observation.elements if e.role == "text" and e.app == "galculator"]
    if not values:
        raise DemoError("could not find the calculator's display in the accessibility tree")
    return values[0]


def _save(observation: Observation, folder: Path, stem: str, files: dict[str, Path]) -> None:
    shot = folder / f"{stem}.png"
    observation.screenshot.save(shot)
    listing = folder / f"{stem}-elements.json"
    listing.write_text(
        json.dumps([e.model_dump(mode="json") for e in observation.elements], indent=1)
    )
    files[f"{stem} screenshot"] = shot
    files[f"{stem} elements"] = listing


def run_demo(output: Path, log: Callable[[str], None] = print) -> DemoReport:
    output.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    log("starting the sandbox desktop (Xvfb, D-Bus, AT-SPI, xfwm4)...")
    with SandboxDesktop() as desktop:
        log(f"  display {desktop.display}")
        log("opening the text editor and typing a note...")
        desktop.execute(act.OpenApp(app="text_editor"))
        desktop.execute(act.TypeText(text=NOTE))
        observation = desktop.observe()
        editors = [e for e in observation.elements if e.role == "text"]
        if not editors:
            raise DemoError("the text editor's text area is not in the accessibility tree")
        editor_text = desktop.accessibility.text_of(editors[0].id)
        log(f"  read back from the editor: {editor_text!r}")
        _save(observation, output, "editor", files)

        log("opening the calculator and clicking 12 × 7 + 5 = ...")
        desktop.execute(act.OpenApp(app="calculator"))
        for label in CALCULATOR_BUTTONS:
            desktop.execute(button(desktop.observe(), label))
        observation = desktop.observe()
        result = calculator_display(observation)
        log(f"  the calculator shows {result}")
        if result != EXPECTED_RESULT:
            raise DemoError(f"the calculator shows {result!r}, expected {EXPECTED_RESULT}")
        _save(observation, output, "calculator", files)
        log(f"  observe() took {observation.timings_ms['total']:.0f} ms")
    return DemoReport(editor_text=editor_text, calculator_result=result, files=files)
