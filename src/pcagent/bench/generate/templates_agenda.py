"""Templates across the text editor, the browser (and the Clocks app): where an event of an
agenda note takes place, read in the text editor, and the travel time there from a place the
instruction gives, asked on maps.local; told, or made the alarm for when to set off.

Why: a place found in a file is what the maps form needs, and memory held no program that fills
a form with a value read from a file: its travel times came from places the instruction names,
and its alarms from times read in notes. Asked where a meeting in a note takes place and how long
the trip there is, the 1.5B planner extracted the meeting's time and put it in the form's "To"
field (2026-11-29). Each template is a task of its own (it takes and hands on nothing), so the
step ids in its program stay as written.
"""

from __future__ import annotations

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate import templates_maps as maps
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import AGENDA_STEMS, PEOPLE, TIMES
from pcagent.bench.generate.wording import clock_text
from pcagent.bench.tasks import FileFixture, SubGoal

#: What an agenda's entries are, each with a person's first name after it.
_ACTIVITIES: tuple[str, ...] = ("Coffee", "Lunch", "Interview", "Planning session", "Walk")
#: Every place the maps site knows, for the agenda's other entries.
_PLACES: tuple[str, ...] = tuple(sorted({place for pair in maps.TRAINING_ROUTES for place in pair}))


class AgendaEntry(TemplateAttributes):
    hour: int
    minute: int
    activity: str
    person: str
    place: str

    @property
    def line(self) -> str:
        return f"{clock_text(self.hour, self.minute)}  {self.activity} with {self.person} at {self.place}"


class AgendaTrip(TemplateAttributes):
    """An agenda of three entries, the one asked about (``asked``) held at the end of a route
    that starts at ``origin``."""

    path: str
    entries: tuple[AgendaEntry, AgendaEntry, AgendaEntry]
    asked: int
    origin: str
    minutes: int

    @property
    def event(self) -> AgendaEntry:
        return self.entries[self.asked]

    @property
    def event_words(self) -> str:
        """How the instruction names the event: "the lunch with Tomas"."""
        return f"the {self.event.activity.lower()} with {self.event.person}"

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def text(self) -> str:
        return "Agenda\n\n" + "\n".join(entry.line for entry in self.entries) + "\n"


def draw_agenda_trip(source: Draw) -> AgendaTrip:
    """A route of the maps site, either way round, and an agenda whose asked entry is at the
    route's end; the other entries at other places, with other people, at other times."""
    route = maps.drawn_route(source)
    people = source.rng.sample([p.first_name for p in PEOPLE], 3)
    activities = source.rng.sample(_ACTIVITIES, 3)
    others = source.rng.sample([p for p in _PLACES if p != route.destination], 2)
    times = source.rng.sample(TIMES, 3)
    entries = sorted(
        (
            AgendaEntry(hour=hour, minute=minute, activity=activity, person=person, place=place)
            for (hour, minute), activity, person, place in zip(
                times, activities, people, [route.destination, *others], strict=True
            )
        ),
        key=lambda entry: (entry.hour, entry.minute),
    )
    stem = source.names.pick(AGENDA_STEMS, "agenda note")
    return AgendaTrip(
        path=f"Documents/{stem}.txt",
        entries=tuple(entries),  # type: ignore[arg-type]
        asked=next(i for i, e in enumerate(entries) if e.place == route.destination),
        origin=route.origin,
        minutes=route.minutes,
    )


def _nodes(a: AgendaTrip, slot: Slot) -> list[SubGoal]:
    """The agenda opened in the editor, then the maps site asked the way to the event's place."""
    opened = parts.opened_node(slot, a.file_name, f"{a.file_name} is open in the editor")
    asked = parts.node(
        slot,
        "asked",
        "web_asked",
        {"words": [a.event.place], "host": maps.SITE},
        after=[opened.id],
        description=f"maps.local was asked the way to {a.event.place}",
    )
    return [opened, asked]


def _program(
    a: AgendaTrip, names: list[str], what: str, last: list[ProgramStep]
) -> FragmentProgram:
    """Read the agenda, extract the event's ``names``, ask the maps form the way from the origin
    to the place found, extract the minutes, then the ``last`` steps (s6 on)."""
    return FragmentProgram(
        (
            *programs.file_read(a.path, names, what),
            programs.call("s3", "open_page", address=maps.SITE),
            programs.call(
                "s4",
                "fill_form",
                fields=[
                    {"label": "From", "value": a.origin},
                    {"label": "To", "value": programs.reference("s2", "place")},
                ],
            ),
            programs.call(
                "s5",
                "extract_values",
                text=programs.reference("s4"),
                names=[maps.KEY],
                what=maps.DESCRIPTION,
            ),
            *last,
        )
    )


class EditorAgendaTravelTime(SubtaskTemplate[AgendaTrip], spec="editor_agenda_travel_time"):
    """Where an agenda's event is, then the travel time there on maps.local, told."""

    def build(self, attributes: AgendaTrip, slot: Slot) -> Fragment:
        a, nodes = attributes, _nodes(attributes, slot)
        report_nodes, report_steps = parts.report_parts(slot, str(a.minutes), nodes[-1].id)
        told = [programs.report("s6", programs.reference("s5", maps.KEY))] if slot.report else []
        return self.fragment(
            a,
            slot,
            f"Find where {a.event_words} is in {a.path} ({a.event.place}) and the travel time "
            f"from {a.origin} ({a.minutes} min)",
            words={"file": a.file_name, "event": a.event_words, "origin": a.origin},
            nodes=[*nodes, *report_nodes],
            reference=[
                *gui.editor_open_file(a.path),
                *maps.reference_steps(a.origin, a.event.place),
                *report_steps,
            ],
            reference_api=[
                gui.act("editor_open", path=a.path),
                gui.act("browser_open", url=maps.directions_address(a.origin, a.event.place)),
                *report_steps,
            ],
            program=_program(a, ["place"], f"where {a.event_words} takes place", told),
            files=[FileFixture(path=a.path, text=a.text)],
            services=("web",),
        )

    def draw(self, source: Draw) -> AgendaTrip:
        return draw_agenda_trip(source)


class EditorAgendaLeaveAlarm(EditorAgendaTravelTime, spec="editor_agenda_leave_alarm"):
    """When and where an agenda's event is, the travel time there on maps.local, and an alarm
    in the Clocks app that many minutes before the event (the same agenda drawn)."""

    def build(self, attributes: AgendaTrip, slot: Slot) -> Fragment:
        a, nodes = attributes, _nodes(attributes, slot)
        starts = a.event.hour * 60 + a.event.minute
        leave = clock_text(*divmod((starts - a.minutes) % (24 * 60), 60))
        alarm = parts.node(
            slot,
            "alarm",
            "clock_alarm",
            {"hour": int(leave[:2]), "minute": int(leave[3:])},
            after=[nodes[-1].id],
            description=f"an alarm at {leave}, {a.minutes} min before {a.event_words}",
        )
        set_alarm = programs.call(
            "s6",
            "set_alarm",
            time=programs.reference("s2", "time"),
            minutes_before=programs.reference("s5", maps.KEY),
        )
        return self.fragment(
            a,
            slot,
            f"Set an alarm at {leave} to leave {a.origin} for {a.event_words} at "
            f"{a.event.place} ({a.minutes} min)",
            words={"file": a.file_name, "event": a.event_words, "origin": a.origin},
            nodes=[*nodes, alarm],
            reference=[
                *gui.editor_open_file(a.path),
                *maps.reference_steps(a.origin, a.event.place),
                *gui.clock_add_alarm(int(leave[:2]), int(leave[3:])),
            ],
            reference_api=[
                gui.act("editor_open", path=a.path),
                gui.act("browser_open", url=maps.directions_address(a.origin, a.event.place)),
                gui.act("clock_add_alarm", time=leave, name="Leave"),
            ],
            program=_program(
                a, ["time", "place"], f"the time and place of {a.event_words}", [set_alarm]
            ),
            files=[FileFixture(path=a.path, text=a.text)],
            services=("web",),
        )
