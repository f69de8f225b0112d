"""Templates across the browser and a file: several things looked up on the web, one search
each, and written in order of the value found into a new spreadsheet or text file.

Why: memory held no program that looks up more than two things, nor one that writes what it
found in order. Asked for three countries' populations sorted into a sheet, or three films'
ratings into a text file highest first, the 1.5B planner searched once for all of them,
extracted one value and sorted that one value (seen on three tasks of the 25, 2026-12-02). The
program these templates write looks each thing up alone with ``web_search_each`` (a search each
and its value extracted from what the search read, the first result being the thing's page;
one step, where it was two steps a thing before 2026-12-03), then ``sort_items`` puts the
rows in order and the rows it gives are written as they are: a sheet's two columns, or a text
file's lines.
"""

from __future__ import annotations

from typing import ClassVar

from pcagent.agents.program import ProgramStep
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
from pcagent.bench.generate.vocabulary import TEXT_FILE_STEMS, WORKBOOK_STEMS
from pcagent.bench.generate.web_lookups import (
    Subject,
    drawn_things,
    lookup,
    number_text,
    visited_parts,
    web_search_each_step,
)

#: How an instruction says which way the list goes, by descending (True) or not; drawn, so no
#: one wording stands for an order.
_ORDER_WORDS: dict[bool, tuple[str, ...]] = {
    True: ("from the highest to the lowest", "largest first", "in descending order"),
    False: ("from the lowest to the highest", "smallest first", "in ascending order"),
}


class RankedLookup(TemplateAttributes):
    subject: Subject
    #: The things looked up, as the instruction names them (countries, films' titles).
    names: tuple[str, ...]
    #: Where each one's page is: facts.local's country slug or imdb.com's title id.
    keys: tuple[str, ...]
    values: tuple[float, ...]
    descending: bool
    order: str
    path: str

    @property
    def ordered(self) -> list[tuple[str, float]]:
        pairs = zip(self.names, self.values, strict=True)
        return sorted(pairs, key=lambda pair: pair[1], reverse=self.descending)

    @property
    def fact(self) -> str:
        return "populations" if self.subject == "population" else "IMDb ratings"

    @property
    def listed(self) -> str:
        """The things as the instruction lists them: films' titles in quotes."""
        shown = [f'"{name}"' if self.subject == "rating" else name for name in self.names]
        return ", ".join(shown[:-1]) + " and " + shown[-1]


class _RankedLookupTemplate(SubtaskTemplate[RankedLookup], spec="browser_ranked_sheet"):
    """What both targets share: the draw, the look-ups and the nodes that check them."""

    #: The file's suffix and the vocabulary its name comes from.
    suffix: ClassVar[str] = ".xlsx"
    stems: ClassVar[tuple[str, ...]] = WORKBOOK_STEMS

    def draw(self, source: Draw) -> RankedLookup:
        subject: Subject = source.rng.choice(("population", "rating"))
        keys, names, values = drawn_things(source.rng, subject, source.rng.choice((2, 3, 3)))
        descending = source.rng.choice((True, False))
        stem = source.names.pick(self.stems, "file name")
        return RankedLookup(
            subject=subject,
            names=names,
            keys=keys,
            values=values,
            descending=descending,
            order=source.rng.choice(_ORDER_WORDS[descending]),
            path=f"Documents/{stem}{self.suffix}",
        )

    def _program(self, a: RankedLookup, skill: str, rows_into: str, **args: str) -> FragmentProgram:
        """Each thing looked up (one step for all), the rows sorted by their values and
        ``skill`` called with the sorted rows as ``rows_into``."""
        names = [lookup(a.subject, key).name for key in a.keys]
        first = "highest" if a.descending else "lowest"
        steps: list[ProgramStep] = [
            web_search_each_step("s1", a.subject, list(names)),
            programs.call("s2", "sort_items", items=programs.reference("s1"), first=first),
            programs.call("s3", skill, **{rows_into: programs.reference("s2")}, **args),
        ]
        return FragmentProgram(tuple(steps), output=programs.reference("s3"))

    def _words(self, a: RankedLookup) -> dict[str, str]:
        whose = "country" if a.subject == "population" else "film"
        return {
            "items": a.listed,
            "fact": a.fact,
            "whose": whose,
            "order": a.order,
            "stem": a.path.rsplit("/", 1)[-1].removesuffix(self.suffix),
            "name": a.path.rsplit("/", 1)[-1],
        }


class BrowserRankedSheet(_RankedLookupTemplate, spec="browser_ranked_sheet"):
    """The things and their values into a new spreadsheet, a row each, in order."""

    def build(self, attributes: RankedLookup, slot: Slot) -> Fragment:
        a = attributes
        rows = [[name, number_text(value)] for name, value in a.ordered]
        visits, reference, reference_api = visited_parts(
            slot, [lookup(a.subject, k) for k in a.keys]
        )
        typed = "".join(f"{name}\t{value}\n" for name, value in rows)
        sheet = parts.node(
            slot,
            "sheet",
            "xlsx_rows",
            {"path": a.path, "rows": rows, "ordered": True},
            after=[visit.id for visit in visits],
            description=f"{a.path} lists {', '.join(name for name, _ in rows)} in that order",
        )
        saved_name = a.path.rsplit("/", 1)[-1]
        return self.fragment(
            a,
            slot,
            f"Look up the {a.fact} of {a.listed} and write them {a.order} into {a.path}",
            words=self._words(a),
            nodes=[*visits, sheet],
            reference=[
                *reference,
                *parts.new_document(
                    "spreadsheet",
                    typed,
                    gui.office_save_new_document(a.path.removesuffix(self.suffix), saved_name),
                ),
            ],
            reference_api=[
                *reference_api,
                gui.act("open_app", app="spreadsheet"),
                gui.act("sheet_set", cell="A1", values=rows),
                gui.act("sheet_save", path=a.path),
            ],
            program=self._program(a, "fill_cells", "rows", save_as=a.path),
            services=("web",),
            output=parts.file_output(a.path),
        )


class BrowserRankedText(_RankedLookupTemplate, spec="browser_ranked_text"):
    """The things and their values into a new text file, a line each, in order."""

    suffix: ClassVar[str] = ".txt"
    stems: ClassVar[tuple[str, ...]] = TEXT_FILE_STEMS

    def build(self, attributes: RankedLookup, slot: Slot) -> Fragment:
        a = attributes
        visits, reference, reference_api = visited_parts(
            slot, [lookup(a.subject, k) for k in a.keys]
        )
        saved = parts.node(
            slot,
            "saved",
            "file_exists",
            {"path": a.path},
            after=[visit.id for visit in visits],
            description=f"{a.path} is saved",
        )
        values = parts.node(
            slot,
            "values",
            "text_file_contains",
            {"path": a.path, "texts": [number_text(value) for _, value in a.ordered]},
            after=[saved.id],
            description=f"{a.path} holds each value found",
        )
        in_order = parts.node(
            slot,
            "in_order",
            "text_file_in_order",
            {"path": a.path, "texts": [name for name, _ in a.ordered]},
            after=[values.id],
            description=f"{a.path} lists {', '.join(n for n, _ in a.ordered)} in that order",
        )
        # As the program writes sort_items' rows into a text (skills.common.as_lines).
        text = "".join(f"{name}, {number_text(value)}\n" for name, value in a.ordered)
        return self.fragment(
            a,
            slot,
            f"Look up the {a.fact} of {a.listed} and write them {a.order} into {a.path}",
            words=self._words(a),
            nodes=[*visits, saved, values, in_order],
            reference=[
                *reference,
                *parts.new_document("text_editor", text, gui.editor_save_new_file(a.path)),
            ],
            reference_api=[*reference_api, *parts.api_new_document("text_editor", text, a.path)],
            program=self._program(a, "write_text_file", "text", path=a.path),
            services=("web",),
            output=parts.file_output(a.path),
        )
