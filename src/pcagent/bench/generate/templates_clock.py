"""Templates for the clocks application: set an alarm, add a world clock.

One module per application family, so a new template for the clocks lands here.
"""

from __future__ import annotations

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import templates_maps as maps
from pcagent.bench.generate.programs import FragmentProgram
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


class LeavingTime(maps.TravelTime):
    """The route and its travel time, and the time to arrive by."""

    hour: int
    minute: int


class ClockAlarmToLeave(SubtaskTemplate[LeavingTime], spec="clock_alarm_to_leave"):
    """An alarm for when to set off to arrive somewhere by a time: the travel time looked up on
    maps.local, and the alarm that many minutes before the time (``set_alarm`` with
    ``minutes_before`` the value found). Why: memory held alarms at a time found and travel times
    looked up, and no program that takes one value off the other; the 1.5B planner, asked to
    leave in time for a meeting (a rewording of pc03, 2026-11-28), set the alarm at a time
    extracted from the maps page, nothing taken off any time."""

    def draw(self, source: Draw) -> LeavingTime:
        route = maps.drawn_route(source)
        if (given := source.given_as("time")) is not None:
            hour, minute = (int(part) for part in given.text.split(":"))
            carried = refer_to(given)
        else:
            (hour, minute), carried = source.rng.choice(TIMES), ""
        return LeavingTime(
            hour=hour,
            minute=minute,
            origin=route.origin,
            destination=route.destination,
            minutes=route.minutes,
            reference_to_previous=carried,
        )

    def build(self, attributes: LeavingTime, slot: Slot) -> Fragment:
        a = attributes
        arrive = clock_text(a.hour, a.minute)
        leave = clock_text(*divmod((a.hour * 60 + a.minute - a.minutes) % (24 * 60), 60))
        lookup = maps.lookup_steps(a.origin, a.destination)
        asked = maps.asked_node(slot, a.destination)
        alarm = node(
            slot,
            "alarm",
            "clock_alarm",
            {"hour": int(leave[:2]), "minute": int(leave[3:])},
            after=[asked.id],
            description=f"an alarm at {leave}, {a.minutes} min before {arrive}",
        )
        found = f"s{len(lookup) + 1}"
        return self.fragment(
            a,
            slot,
            f"Set an alarm at {leave} to leave {a.origin} for {a.destination} ({a.minutes} min)",
            words={
                "time": a.reference_to_previous or arrive,
                "origin": a.origin,
                "destination": a.destination,
            },
            nodes=[asked, alarm],
            reference=[
                *maps.reference_steps(a.origin, a.destination),
                *gui.clock_add_alarm(int(leave[:2]), int(leave[3:])),
            ],
            reference_api=[
                gui.act("browser_open", url=maps.directions_address(a.origin, a.destination)),
                gui.act("clock_add_alarm", time=leave, name="Leave"),
            ],
            program=FragmentProgram(
                (
                    *lookup,
                    programs.call(
                        found,
                        "extract_values",
                        text=programs.reference(lookup[-1].id),
                        names=[maps.KEY],
                        what=maps.DESCRIPTION,
                    ),
                    programs.call(
                        f"s{len(lookup) + 2}",
                        "set_alarm",
                        time=carried_or(a.reference_to_previous, arrive),
                        minutes_before=programs.reference(found, maps.KEY),
                    ),
                )
            ),
            services=("web",),
        )
