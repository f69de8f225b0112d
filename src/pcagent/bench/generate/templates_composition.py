"""A template for writing in the word processor: paragraphs composed to a request (introducing a
city, or two), saved as a new document.

Why: composing is one of the language steps a program takes (``compose_text``), and memory held
no program that does; the 1.5B planner, asked for paragraphs on a subject, wrote a description
of the text as the text, or a document with a sentence copied from a training program. The
check is that each city is named in a paragraph of its own, which any right text meets.
"""

from __future__ import annotations

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
from pcagent.bench.generate.vocabulary import CITIES, DOCUMENT_STEMS
from pcagent.bench.generate.wording import refer_to


class Composition(TemplateAttributes):
    stem: str
    #: The cities introduced, a paragraph each (one or two).
    cities: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"Documents/{self.stem}.docx"


def _asked(cities: tuple[str, ...]) -> str:
    """What the paragraphs are, as the instruction and the program's request say it."""
    if len(cities) == 1:
        return f"a short paragraph introducing {cities[0]}"
    return f"two paragraphs, one introducing {cities[0]} and one introducing {cities[1]}"


class WriterComposeDocument(SubtaskTemplate[Composition], spec="writer_compose_document"):
    """Write paragraphs introducing one or two cities into a new document and save it."""

    def draw(self, source: Draw) -> Composition:
        stem = source.names.pick(DOCUMENT_STEMS, "document name")
        if (given := source.given_as("city")) is not None:
            return Composition(
                stem=stem, cities=(given.text,), reference_to_previous=refer_to(given)
            )
        count = source.rng.choice((1, 2))
        return Composition(stem=stem, cities=tuple(source.rng.sample(CITIES, count)))

    def build(self, attributes: Composition, slot: Slot) -> Fragment:
        a = attributes
        told = (a.reference_to_previous,) if a.reference_to_previous else a.cities
        # The reference's text: a sentence a city, a paragraph each.
        text = "\n".join(
            f"{city} is a city with a long history, lively streets and good museums."
            for city in a.cities
        )
        saved = parts.new_writer_document(slot, a.stem, text, list(a.cities), "")
        written = parts.node(
            slot,
            "written",
            "docx_paragraphs_about",
            {"path": a.path, "subjects": list(a.cities)},
            after=[slot.node_id("saved")],
            description=f"{a.path} has a paragraph about each of {', '.join(a.cities)}",
        )
        request = _asked((programs.GIVEN_SLOT,) if a.reference_to_previous else a.cities)
        return self.fragment(
            a,
            slot,
            f"Write {_asked(a.cities)} into {a.path}",
            words={"paragraphs": _asked(told), "stem": a.stem},
            nodes=[saved.nodes[0], written],
            reference=saved.reference,
            reference_api=saved.reference_api,
            program=FragmentProgram(
                (
                    programs.call("s1", "compose_text", request=request, paragraphs=len(a.cities)),
                    programs.call(
                        "s2", "write_document", path=a.path, text=programs.reference("s1")
                    ),
                ),
                output=programs.reference("s2"),
            ),
            output=parts.file_output(a.path),
        )
