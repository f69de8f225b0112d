"""A text to write copied from the instruction's own description of it: a doubt.

Why: asked for "a short document ... one paragraph that introduces Alibaba and a second one that
introduces OpenAI", a program wrote the words "One paragraph that introduces Alibaba and a second
one that introduces OpenAI." into the document, checked that it was saved, and the run said
"finished" (a rewording of pc09, 2026-12-02). Every word of that text stands in the instruction,
so the check of given texts let it pass. An instruction that gives a text to write word for word
sets it apart in quotation marks ('the sentence "..."'), as every gold program's text of five
words or more is; words of the instruction outside them say what to write, for a language step
(``compose_text``) to write. Judged on the typed program against the instruction: a literal of
a text parameter (``given: "text"``) of :data:`_WORDS` words or more that no value found holds
and that stands in the instruction only outside quotation marks. A short text ("hello") is not
judged: an instruction to type a word or two seldom quotes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.given_values import given_parameters
from pcagent.agents.plan import Doubt
from pcagent.agents.program import SLOT, Program
from pcagent.skills import SkillCatalog
from pcagent.text import contains, shortened, single_spaced

#: A text this many words long or longer is judged.
_WORDS = 5
#: The marks that open or close a quotation (a single quote is an apostrophe too often).
_QUOTES = frozenset('"“”«»„')


def _quoted_in(text: str, instruction: str) -> bool:
    """Whether ``text`` stands somewhere in ``instruction`` between quotation marks."""
    said, wanted = single_spaced(instruction).casefold(), single_spaced(text).casefold()
    at = said.find(wanted)
    while at >= 0:
        if sum(char in _QUOTES for char in said[:at]) % 2 == 1:
            return True
        at = said.find(wanted, at + 1)
    return False


def described_texts(program: Program, skills: SkillCatalog, given: Sequence[str]) -> list[Doubt]:
    """A doubt on each step whose text to write is the instruction's words outside quotation
    marks; ``given``: the instruction first, then the values found."""
    if not given:
        return []
    instruction, found = given[0], given[1:]
    doubts = []
    for step in program.steps:
        for name, holds in given_parameters(skills, step.skill).items():
            text = step.args.get(name)
            if (
                holds != "text"
                or not isinstance(text, str)
                or len(text.split()) < _WORDS
                or SLOT.search(text)
                or any(contains(value, text) for value in found)
                or not contains(instruction, text)
                or _quoted_in(text, instruction)
            ):
                continue
            doubts.append(
                Doubt(
                    step.id,
                    f"{name}={shortened(text, 80)!r} copies the instruction's words, which say "
                    "what to write, not a text it gives (that would be in quotation marks): "
                    "write the text with compose_text (its request: what the instruction asks "
                    "for) and pass it on by reference",
                    skills=("compose_text",),
                    own=True,
                    argument=name,
                )
            )
    return doubts
