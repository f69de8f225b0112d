"""Templates that read a note's value and use it in another application: a trip's destination
read from a note, and a fact about the country it is in looked up with a web search (which
side of the road traffic keeps to there, or how many people live there); the day something
begins, and the days until it counted on the calculator.

Why: a value found in a file is often what a web look-up needs, and memory held no program
that searches the web with words taken from a file's value; the 1.5B planner, asked which
side of the road a trip's destination drives on, filled the maps site's route form with the
note's path and the place (2026-11-29). The program this template writes reads the note,
extracts the destination, searches for the fact with the destination's words in the query
("{s2.destination}") and extracts the fact from the results.
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlencode

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.templates_calculator import DayCount, on_the_calculator
from pcagent.bench.generate.templates_flights import TRAVEL_DAYS, date_words
from pcagent.bench.generate.vocabulary import (
    DESTINATIONS,
    RESERVED_NUMBERS,
    TIMES,
    TRIP_NOTE_STEMS,
)
from pcagent.bench.generate.wording import clock_text
from pcagent.bench.tasks import FileFixture
from pcagent.bench.web.data import FACTS, country_name

FactKind = Literal["driving", "population"]

#: Per fact: the value's name in the program, how the instruction asks for it (a choice of
#: wordings), the search's words before the destination, and what the extraction looks for.
_FACTS: dict[FactKind, tuple[str, tuple[str, ...], str, str]] = {
    "driving": (
        "side",
        (
            "which side of the road traffic drives on there",
            "which side of the road cars keep to there",
            "which side of the road they drive on in that country",
        ),
        "which side of the road does traffic drive on in",
        "which side of the road traffic drives on in",
    ),
    "population": (
        "population",
        (
            "how many people live in that country",
            "the population of the country it is in",
            "how many inhabitants that country has",
        ),
        "population of",
        "the population of the country of",
    ),
}
#: The note's line that names the destination, by label.
_DESTINATION_LABELS: tuple[str, ...] = ("Destination", "Going to", "Trip to", "Travelling to")


class TripFact(TemplateAttributes):
    path: str
    label: str
    city: str
    slug: str
    fact: FactKind
    asked: str
    hour: int
    minute: int
    nights: int

    @property
    def country(self) -> str:
        return country_name(self.slug)

    @property
    def answer(self) -> str:
        return str(FACTS[self.fact][self.slug])

    @property
    def text(self) -> str:
        """The note: its destination among a few other lines, the country after the city."""
        return (
            f"Trip notes\n\n{self.label}: {self.city}, {self.country}\n"
            f"Departure: {clock_text(self.hour, self.minute)}\n"
            f"Nights away: {self.nights}\n"
        )


class EditorTripFact(SubtaskTemplate[TripFact], spec="editor_trip_fact"):
    """Read where a trip goes in a note, then look a fact about that country up on the web.
    Only countries that drive on the right are asked about: "left" is a built-in task's
    answer, which no generated task may expect (the program is the same either way)."""

    def draw(self, source: Draw) -> TripFact:
        fact: FactKind = source.rng.choice(("driving", "population"))
        slug = source.rng.choice(
            sorted(s for s in DESTINATIONS if s in FACTS[fact] and FACTS[fact][s] != "left")
        )
        hour, minute = source.rng.choice(TIMES)
        stem = source.names.pick(TRIP_NOTE_STEMS, "trip note")
        return TripFact(
            path=f"Documents/{stem}.txt",
            label=source.rng.choice(_DESTINATION_LABELS),
            city=source.rng.choice(DESTINATIONS[slug]),
            slug=slug,
            fact=fact,
            asked=source.rng.choice(_FACTS[fact][1]),
            hour=hour,
            minute=minute,
            nights=source.rng.randint(2, 12),
        )

    def build(self, attributes: TripFact, slot: Slot) -> Fragment:
        a = attributes
        name, _, query_words, looked_for = _FACTS[a.fact]
        file_name = a.path.rsplit("/", 1)[-1]
        opened = parts.opened_node(slot, file_name, f"{file_name} is open in the editor")
        searched = parts.node(
            slot,
            "searched",
            "web_asked",
            {"words": [f"{a.country.lower()}|{a.city.lower()}"]},
            after=[opened.id],
            description=f"the web was asked about {a.country}",
        )
        report_nodes, report_steps = parts.report_parts(slot, a.answer, searched.id)
        query = f"{query_words} {a.city}, {a.country}"
        # The fragment is always a task of its own (it takes and hands on nothing), so the
        # step ids inside the texts below stay as written.
        steps = [
            *programs.file_read(a.path, ["destination"], "where the trip goes"),
            programs.call("s3", "web_search", query=f"{query_words} {{s2.destination}}"),
            programs.call(
                "s4",
                "extract_values",
                text=programs.reference("s3"),
                names=[name],
                what=f"{looked_for} {{s2.destination}}",
            ),
        ]
        if slot.report:
            steps.append(programs.report("s5", programs.reference("s4", name)))
        return self.fragment(
            a,
            slot,
            f"Find the destination in {a.path} ({a.city}, {a.country}) and {a.asked} ({a.answer})",
            words={"file": file_name, "fact": a.asked},
            nodes=[opened, searched, *report_nodes],
            reference=[
                *gui.editor_open_file(a.path),
                gui.act("open_app", app="browser"),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=query + "\n"),
                gui.wait_for(a.country),
                *report_steps,
            ],
            reference_api=[
                gui.act("editor_open", path=a.path),
                gui.act(
                    "browser_open", url=f"http://search.local/search?{urlencode({'q': query})}"
                ),
                *report_steps,
            ],
            program=FragmentProgram(tuple(steps)),
            files=[FileFixture(path=a.path, text=a.text)],
            services=("web",),
        )


# --- text editor, then the calculator: the days until a day a note gives --------------------------

#: Things that begin on a day a note gives: how an instruction names it, the note's title, the
#: label of the day it begins and of the day it ends.
_EVENTS: tuple[tuple[str, str, str, str], ...] = (
    ("the trip", "Trip notes", "Setting off", "Home again"),
    ("the course", "Course notes", "First lesson", "Last lesson"),
    ("the festival", "Festival plans", "Opening day", "Closing day"),
    ("the exchange visit", "Exchange visit", "Arrival", "Departure"),
)
#: The names of the notes, by event (text files in Documents).
_EVENT_STEMS: tuple[tuple[str, ...], ...] = (
    TRIP_NOTE_STEMS,
    ("course_notes", "evening_class", "pottery_course"),
    ("festival_plans", "music_weekend", "folk_festival"),
    ("exchange_notes", "school_exchange", "host_family"),
)


class DaysUntil(TemplateAttributes):
    path: str
    event: int
    #: YYYY-MM-DD: the day counted from (given), the day the note says it begins, and ends.
    start: str
    begins: str
    ends: str

    @property
    def count(self) -> DayCount:
        return DayCount(start=self.start, end=self.begins)

    @property
    def text(self) -> str:
        """The note: the day it begins, the day it ends after it (a date not to count to)."""
        _, title, begins, ends = _EVENTS[self.event]
        return f"{title}\n\n{begins}: {date_words(self.begins)}\n{ends}: {date_words(self.ends)}\n"


class EditorDaysUntil(SubtaskTemplate[DaysUntil], spec="editor_days_until"):
    """Read in a note the day something begins, then count on the calculator the days until
    it from a date the instruction gives.

    Why: memory held days counted between two dates the instruction gives, never to a date a
    file gives; asked for that, the 1.5B planner wrote dates of its own into the calculator's
    expression (a rewording of pc23, 2026-12-03). The program reads the note, extracts the day,
    counts with ``days_between`` from the given date to the one found, and shows the count on
    the calculator by its reference."""

    def draw(self, source: Draw) -> DaysUntil:
        event = source.rng.randrange(len(_EVENTS))
        stem = source.names.pick(_EVENT_STEMS[event], "event note")
        while True:
            start, begins, ends = sorted(source.rng.sample(TRAVEL_DAYS, 3))
            drawn = DaysUntil(
                path=f"Documents/{stem}.txt",
                event=event,
                start=start.isoformat(),
                begins=begins.isoformat(),
                ends=ends.isoformat(),
            )
            if drawn.count.days >= 20 and drawn.count.days not in RESERVED_NUMBERS:
                return drawn

    def build(self, attributes: DaysUntil, slot: Slot) -> Fragment:
        a = attributes
        count = a.count
        event = _EVENTS[a.event][0]
        file_name = a.path.rsplit("/", 1)[-1]
        shown = on_the_calculator(slot, count.days, count.keys, count.keys)
        opened = parts.opened_node(slot, file_name, f"{file_name} is open in the editor")
        # The fragment is always a task of its own: the step ids below stay as written.
        steps = (
            *programs.file_read(a.path, ["date"], f"the day {event} begins"),
            programs.call(
                "s3", "days_between", start=a.start, end=programs.reference("s2", "date")
            ),
            programs.call("s4", "calculate", expression="{s3}"),
        )
        return self.fragment(
            a,
            slot,
            f"Find when {event} in {a.path} begins ({a.begins}) and count the days from "
            f"{a.start}: {count.days}",
            words={"file": file_name, "event": event, "start": date_words(a.start)},
            nodes=[opened, *shown["nodes"]],
            reference=[*gui.editor_open_file(a.path), *shown["reference"]],
            reference_api=[gui.act("editor_open", path=a.path), *shown["reference_api"]],
            program=FragmentProgram(steps, output=programs.reference("s4")),
            files=[FileFixture(path=a.path, text=a.text)],
        )
