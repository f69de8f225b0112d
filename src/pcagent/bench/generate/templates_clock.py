"""Templates for the clocks application: set an alarm, add a world clock.

One module per application family, so a new template for the clocks lands here.
"""

from __future__ import annotations

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import capitalized, carried_or, node, one_call
from pcagent.bench.generate.vocabulary import CITIES, TIMES
from pcagent.bench.generate.wording import clock_text, refer_to

# --- clocks ------------------------------------------------------------------------------------


class AlarmTime(TemplateAttributes):
    hour: int
    minute: int
    name: str


class ClockSetAlarm(SubtaskTemplate[AlarmTime], spec="clock_set_alarm"):
    """Set an alarm in gnome-clocks at a time of its own or the one before."""

    def draw(self, source: Draw) -> AlarmTime:
        if (given := source.given_as("time")) is not None:
            hour, minute = (int(part) for part in given.text.split(":"))
            return AlarmTime(
                hour=hour,
                minute=minute,
                name=capitalized(given.description),
                reference_to_previous=refer_to(given),
            )
        hour, minute = source.rng.choice(TIMES)
        return AlarmTime(hour=hour, minute=minute, name="Reminder")

    def build(self, attributes: AlarmTime, slot: Slot) -> Fragment:
        a = attributes
        at = a.reference_to_previous or clock_text(a.hour, a.minute)
        return self.fragment(
            a,
            slot,
            f"Set an alarm at {clock_text(a.hour, a.minute)}",
            words={"time": at},
            nodes=[
                node(
                    slot,
                    "alarm",
                    "clock_alarm",
                    {"hour": a.hour, "minute": a.minute},
                    description=f"an alarm at {clock_text(a.hour, a.minute)}",
                ),
            ],
            reference=gui.clock_add_alarm(a.hour, a.minute),
            reference_api=[
                gui.act("clock_add_alarm", time=clock_text(a.hour, a.minute), name=a.name)
            ],
            # No name: the instruction gives none, and a program copied from memory should not
            # invent one.
            program=one_call(
                "set_alarm",
                hands_on=False,
                time=carried_or(a.reference_to_previous, clock_text(a.hour, a.minute)),
            ),
        )


class WorldClockCity(TemplateAttributes):
    city: str


class ClockAddWorldClock(SubtaskTemplate[WorldClockCity], spec="clock_add_world_clock"):
    """Add a city to gnome-clocks' world clocks."""

    def draw(self, source: Draw) -> WorldClockCity:
        if (given := source.given_as("city")) is not None:
            return WorldClockCity(city=given.text, reference_to_previous=refer_to(given))
        return WorldClockCity(city=source.rng.choice(CITIES))

    def build(self, attributes: WorldClockCity, slot: Slot) -> Fragment:
        a = attributes
        return self.fragment(
            a,
            slot,
            f"Add {a.city} to the world clocks",
            words={"city": a.reference_to_previous or a.city},
            nodes=[node(slot, "world_clock", "world_clock", {"city": a.city})],
            reference=gui.clock_add_world_clock(a.city),
            reference_api=[gui.act("clock_add_world_clock", city=a.city)],
            program=one_call(
                "add_world_clock", hands_on=False, city=carried_or(a.reference_to_previous, a.city)
            ),
        )
