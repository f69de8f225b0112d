"""A multiple (a line spacing) that the instruction never says: the step's own doubt.

Why: told to centre a document's title and underline its last paragraph, the 1.5B planner
wrote the second call with ``line_spacing: 2.0`` and no underline, the spacing of a remembered
example ("double line spacing"); the call checked its own effect (the spacing was set), the
document was saved so and the run said "finished" (both rewordings of pc13, 2026-12-04). A
spacing is a value the person states, in digits ("1.5 line spacing") or in words ("double-
spaced", "single spacing", "one and a half"). A parameter marked ``numbers: "multiple"`` must
hold one of the multiples the instruction or a value found says; else the step is doubted, and
the Manager is re-asked with it.

Judged on the typed literal against the text the planner was given, as other given values
are: the words are the evidence a value is checked against, never what decides the step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pcagent.agents.given_values import known_numbers
from pcagent.agents.paragraph_numbers import said_numbers
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program
from pcagent.skills import SkillCatalog
from pcagent.text import word_parts

#: How a multiple is said in words, beside the counts ("two", "three").
_MULTIPLES = {"single": 1.0, "double": 2.0, "triple": 3.0}
#: One and a half, said in words.
_HALF = re.compile(r"\bone[\s-]+and[\s-]+a[\s-]+half\b")


def said_multiples(texts: Iterable[str]) -> set[float]:
    """The multiples ``texts`` say: numbers in digits (1.5; not a digit of a name:
    "test_doc2.docx" says no 2, :func:`~pcagent.agents.given_values.known_numbers`), counts in
    words up to twelve, "single", "double", "triple" and "one and a half"."""
    texts = [text.casefold() for text in texts]
    said = {float(n) for n in said_numbers(texts)} | known_numbers(texts)
    for text in texts:
        said |= {_MULTIPLES[token] for token in word_parts(text) if token in _MULTIPLES}
        if _HALF.search(text):
            said.add(1.5)
    return said


def _multiple_parameters(catalog: SkillCatalog, skill: str) -> list[str]:
    marked = catalog.marked(skill, "numbers").items()
    return [name for name, numbers in marked if numbers == "multiple"]


def unsaid_multiples(program: Program, catalog: SkillCatalog, given: Sequence[str]) -> list[Doubt]:
    """A doubt for each step whose ``numbers: "multiple"`` literal is a multiple none of
    ``given`` (the instruction first, then the values found) says."""
    said = said_multiples(given)
    doubts = []
    for step in program.steps:
        for name in _multiple_parameters(catalog, step.skill):
            value = step.args.get(name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue  # unset, or a reference to a value found
            if float(value) not in said:
                doubts.append(
                    Doubt(
                        step.id,
                        f"{name}={value!r}: the instruction says no {name.replace('_', ' ')} "
                        f"of {value:g}; set only what it asks for these paragraphs (bold, "
                        "italic, underline, alignment, a size), and a spacing only where it "
                        "gives one",
                        own=True,
                    )
                )
    return doubts
