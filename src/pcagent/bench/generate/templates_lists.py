"""A template across the text editor and the browser: a note lists two or three things
(countries, films), each is looked up on the web, and the one with the largest or smallest
value is told.

Why: memory held no program that looks up each item of a list a file gave; asked for the
shortest flight to each of three destinations listed in a note, the 1.5B planner extracted one
destination, searched once and sorted that one value (2026-12-02). The program this template
writes reads the note, extracts the list under one name, looks each item up with
``web_search_each`` given that list whole (``{"from": "s2", "key": "countries"}``: before
2026-12-03 the program searched for each item by its place, ``{s2.countries[0]}``, two steps an
item), keeps the extreme of the rows with ``pick_extreme`` and tells its label.
"""

from __future__ import annotations

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate import web_lookups as web
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.web_lookups import Subject
from pcagent.bench.tasks import FileFixture

#: The list notes' names (none a built-in task's file).
LIST_NOTE_STEMS: tuple[str, ...] = (
    "shortlist",
    "options_list",
    "candidates",
    "watch_list",
    "compare_list",
    "picks",
)
#: What the note is headed, by subject.
_HEADINGS: dict[Subject, tuple[str, ...]] = {
    "population": ("Countries to compare", "Where we might open the next office", "Shortlist"),
    "rating": ("Films to choose from", "Film night candidates", "Shortlist"),
}
#: How the instruction asks for the extreme, by subject and whether the largest is wanted.
_EXTREMES: dict[tuple[Subject, bool], tuple[str, ...]] = {
    ("population", True): ("has the most people", "is the most populous"),
    ("population", False): ("has the fewest people", "is the least populous"),
    ("rating", True): ("is rated highest", "has the best IMDb rating"),
    ("rating", False): ("is rated lowest", "has the worst IMDb rating"),
}
_COUNTS = {2: "two", 3: "three"}


class ListExtreme(TemplateAttributes):
    subject: Subject
    path: str
    heading: str
    keys: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[float, ...]
    largest: bool
    extreme: str

    @property
    def answer(self) -> str:
        pairs = zip(self.names, self.values, strict=True)
        pick = max if self.largest else min
        return pick(pairs, key=lambda pair: pair[1])[0]

    @property
    def plural(self) -> str:
        """What the list holds, as the instruction and the program name it."""
        return "countries" if self.subject == "population" else "films"

    @property
    def text(self) -> str:
        """The note: a heading, the things numbered, a line of its own after them."""
        lines = [f"{number}. {name}" for number, name in enumerate(self.names, start=1)]
        return f"{self.heading}\n\n" + "\n".join(lines) + "\n\nTo be decided this week.\n"


class EditorListExtreme(SubtaskTemplate[ListExtreme], spec="editor_list_extreme"):
    """Read the things a note lists, look each one up on the web, tell the largest or
    smallest."""

    def draw(self, source: Draw) -> ListExtreme:
        subject: Subject = source.rng.choice(("population", "rating"))
        keys, names, values = web.drawn_things(source.rng, subject, source.rng.choice((2, 3, 3)))
        largest = source.rng.choice((True, False))
        stem = source.names.pick(LIST_NOTE_STEMS, "list note")
        return ListExtreme(
            subject=subject,
            path=f"Documents/{stem}.txt",
            heading=source.rng.choice(_HEADINGS[subject]),
            keys=keys,
            names=names,
            values=values,
            largest=largest,
            extreme=source.rng.choice(_EXTREMES[(subject, largest)]),
        )

    def _program(self, a: ListExtreme, slot: Slot) -> FragmentProgram:
        listed = a.plural
        steps = programs.file_read(
            a.path, [listed], f"the {_COUNTS[len(a.names)]} {listed} the note lists"
        )
        found = web.web_search_each_step("s3", a.subject, programs.reference("s2", listed))
        picked = programs.call(
            "s4",
            "pick_extreme",
            items=programs.reference("s3"),
            which="largest" if a.largest else "smallest",
        )
        steps += [found, picked]
        told = programs.report("s5", programs.reference("s4", "label"))
        return FragmentProgram((*steps, *([told] if slot.report else [])))

    def build(self, attributes: ListExtreme, slot: Slot) -> Fragment:
        a = attributes
        file_name = a.path.rsplit("/", 1)[-1]
        opened = parts.opened_node(slot, file_name, f"{file_name} is open in the editor")
        visits, reference, reference_api = web.visited_parts(
            slot, [web.lookup(a.subject, key) for key in a.keys], after=[opened.id]
        )
        report_nodes, report_steps = parts.report_parts(slot, a.answer, visits[-1].id)
        return self.fragment(
            a,
            slot,
            f"Read the {a.plural} in {a.path}, look each one up and find which {a.extreme} "
            f"({a.answer})",
            words={
                "file": file_name,
                "count": _COUNTS[len(a.names)],
                "things": a.plural,
                "fact": "population" if a.subject == "population" else "IMDb rating",
                "extreme": a.extreme,
                "tell": ", and tell me which one it is" if slot.report else "",
            },
            nodes=[opened, *visits, *report_nodes],
            reference=[*gui.editor_open_file(a.path), *reference, *report_steps],
            reference_api=[gui.act("editor_open", path=a.path), *reference_api, *report_steps],
            program=self._program(a, slot),
            files=[FileFixture(path=a.path, text=a.text)],
            services=("web",),
        )
