"""A paragraph numbered beyond any number the instruction says: the step's own doubt.

Why: told to underline a document's final paragraph and centre its title, the 1.5B planner
wrote one call that underlined and centred paragraph 3; the document's last paragraph was
another, the title went uncentred, the step checked its own effect and the run said "finished"
(a rewording of pc13, 2026-12-02). Before it, a paragraph number had been copied from memory's
examples (a rewording of pc13, 2026-11-30). A program is written before the document is read,
so a paragraph's number comes from the instruction: "paragraph 3", "the third paragraph", "the
first two paragraphs" (1 and 2). The skill's own words stand for the rest ("title", "last").

Judged on the typed literal against what the planner was given, as other given values are: a
number of 2 or more in a parameter marked ``numbers: "paragraphs"`` is doubted where it is above
every number the instruction writes (in digits, or as a word up to twelve: "two", "second") and
above the line count of every value found (a re-plan after the document was read may count its
paragraphs). 0 and 1 are never doubted: the title, and the paragraph after it, which the
instruction may well name without a number ("the paragraph after the title"). This checks the
model's output against the text it was given; it decides nothing on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program
from pcagent.skills import SkillCatalog
from pcagent.text import word_parts

#: Numbers written as words, as counts and as places ("two paragraphs", "the second").
# fmt: off
_COUNTS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve")
_PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
           "tenth", "eleventh", "twelfth")
# fmt: on
_WORDS = {word: n for words in (_COUNTS, _PLACES) for n, word in enumerate(words, start=1)}


def said_numbers(texts: Iterable[str]) -> set[int]:
    """The whole numbers ``texts`` write, in digits or as words up to twelve."""
    said: set[int] = set()
    for text in texts:
        for token in word_parts(text.casefold()):
            if token.isdigit():
                said.add(int(token))
            elif token in _WORDS:
                said.add(_WORDS[token])
    return said


def _paragraph_parameters(catalog: SkillCatalog, skill: str) -> list[str]:
    """The parameters of ``skill`` whose numbers name paragraphs (``numbers: "paragraphs"``)."""
    marked = catalog.marked(skill, "numbers").items()
    return [name for name, numbers in marked if numbers == "paragraphs"]


def unsaid_paragraphs(program: Program, catalog: SkillCatalog, given: Sequence[str]) -> list[Doubt]:
    """A doubt for each step whose ``numbers: "paragraphs"`` literal numbers a paragraph above
    any number ``given`` (the instruction first, then the values found) says."""
    instruction, found = (given[0], given[1:]) if given else ("", ())
    highest = max({1, *said_numbers([instruction])})
    lines = max((value.count("\n") + 1 for value in found), default=0)
    doubts = []
    for step in program.steps:
        for name in _paragraph_parameters(catalog, step.skill):
            value = step.args.get(name)
            numbers = value if isinstance(value, list) else [value]
            unsaid = [
                n
                for n in numbers
                if isinstance(n, int) and not isinstance(n, bool) and n > max(highest, lines)
            ]
            if unsaid:
                doubts.append(
                    Doubt(
                        step.id,
                        f"{name}={value!r}: paragraph {unsaid[0]} is a number the instruction "
                        'does not say: name paragraphs as the instruction does ("title", '
                        '"last", or the numbers it gives; the first after the title is 1)',
                        own=True,
                    )
                )
    return doubts
