"""A template for the browser's maps site: the travel time between two places, asked on its
directions form and read off the page that answers.

Why: a travel time is found by filling a form and reading the page it leads to (``fill_form``,
then ``extract_values``), and memory held no program that reads a value off a page a form
answered; the 1.5B planner made up a maps address, or searched the web for the words of the
instruction.
"""

from __future__ import annotations

from urllib.parse import urlencode

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.tasks import ReferenceStep, SubGoal
from pcagent.bench.web.data import ROUTES

#: The routes of places of no city in particular (the built-in tasks' start at the Empire State
#: Building, which no generated task names).
TRAINING_ROUTES: tuple[tuple[str, str], ...] = tuple(
    pair for pair in ROUTES if "Empire State Building" not in pair
)
SITE = "maps.local"
#: How a value found names the travel time, and how an instruction says what it is.
KEY, DESCRIPTION = "minutes", "the travel time in minutes"


def directions_address(origin: str, destination: str) -> str:
    """The maps site's page that answers the way from ``origin`` to ``destination``."""
    return f"http://{SITE}/directions?{urlencode({'from': origin, 'to': destination})}"


def asked_node(slot: Slot, destination: str) -> SubGoal:
    """The node "maps.local was asked the way to ``destination``"."""
    return parts.node(
        slot,
        "asked",
        "web_asked",
        {"words": [destination], "host": SITE},
        description=f"maps.local was asked the way to {destination}",
    )


def reference_steps(origin: str, destination: str) -> list[ReferenceStep]:
    """The screen steps that open the answer's page in the browser."""
    return [
        gui.act("open_app", app="browser"),
        gui.act("hotkey", keys=["ctrl", "l"]),
        gui.act("type", text=f"{directions_address(origin, destination)}\n"),
        gui.wait_for(destination),
    ]


def lookup_steps(origin: str, destination: str) -> list[ProgramStep]:
    """The program's steps that ask the site the way: its page opened, its form filled in (the
    last step's value is the page that answers)."""
    return [
        programs.call("s1", "open_page", address=SITE),
        programs.call(
            "s2",
            "fill_form",
            fields=[{"label": "From", "value": origin}, {"label": "To", "value": destination}],
        ),
    ]


class TravelTime(TemplateAttributes):
    """A route and its travel time in minutes."""

    origin: str
    destination: str
    minutes: int


def drawn_route(source: Draw) -> TravelTime:
    """A training route, either way round, and its travel time."""
    pair = source.rng.choice(TRAINING_ROUTES)
    origin, destination = pair if source.rng.random() < 0.5 else pair[::-1]
    return TravelTime(origin=origin, destination=destination, minutes=ROUTES[pair]["minutes"])


class BrowserTravelTime(SubtaskTemplate[TravelTime], spec="browser_travel_time"):
    """Look up the travel time between two places on maps.local (either way round)."""

    def draw(self, source: Draw) -> TravelTime:
        return drawn_route(source)

    def build(self, attributes: TravelTime, slot: Slot) -> Fragment:
        a = attributes
        asked = asked_node(slot, a.destination)
        report_nodes, report_steps = parts.report_parts(slot, str(a.minutes), asked.id)
        return self.fragment(
            a,
            slot,
            f"Find the travel time {a.origin} - {a.destination} ({a.minutes} min)",
            words={"origin": a.origin, "destination": a.destination},
            nodes=[asked, *report_nodes],
            reference=[*reference_steps(a.origin, a.destination), *report_steps],
            reference_api=[
                gui.act("browser_open", url=directions_address(a.origin, a.destination)),
                *report_steps,
            ],
            program=parts.lookup_program(
                slot, lookup_steps(a.origin, a.destination), KEY, DESCRIPTION
            ),
            services=("web",),
            output=FlowValue(kind="number", text=str(a.minutes), description=DESCRIPTION),
        )
