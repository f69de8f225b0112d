"""A found value that a later step writes out in words, where it should refer to it, made the
reference.

The 1.5B Manager extracts a value under a name and then, in a later step, writes the words for
it instead of the reference: a search for "traffic side in the destination" after extracting
``destination`` (pc04, 2026-11-29), a map's "To" filled with "John's place" after extracting
``place`` (pc03, the same day). Asked again, with the doubt that the value found goes unused and
for that step alone, it wrote the same words back, and so did the ``search_words`` role. Such a
phrase ("the destination", "that place", "John's place": a determiner or a possessive, then the
value's name) can only mean the value found, since nothing else in the program gives it; it
becomes the value's slot (``{s2.destination}``), as a text that is exactly a value's name
already becomes a reference (:mod:`reference_keys`). So does the name in angle brackets, a
placeholder's form: a rewording of pc25 (2026-12-05) filled the booking form's "To", "Depart"
and "Return" with "<destination>", "<departure>" and "<return>", the names of the values its
extraction found (the only such program of 798 recorded). That holds where another step refers to
the value too: pc04's program put the destination into a form by reference and still searched
for "traffic side in the destination" (2026-11-29). Not for a name two extractions use (which
one is meant is the model's to say), never inside an extraction's own ``names`` or ``what``,
nor a form field's or an item's ``label``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.unused_values import finds_named_values
from pcagent.skills import SkillCatalog

#: The words before a value's name that point at one thing already known.
_POINTING = r"(?:the|that|this|its|their|his|her|my|your|our|[A-Z][\w-]*'s)"
#: An extraction's own arguments and a form field's or an item's name: never mended.
_KEPT = frozenset({"names", "what", "label"})


def with_found_values_named(program: Program, skills: SkillCatalog) -> Program:
    """``program`` with each phrase that names a found value in words made its slot."""
    steps = list(program.steps)
    found = Counter(name for step in steps for name in finds_named_values(step, skills))
    for index, step in enumerate(steps):
        for name in [name for name in finds_named_values(step, skills) if found[name] == 1]:
            words = r"\s+".join(re.escape(word) for word in name.split("_"))
            phrase = re.compile(rf"\b{_POINTING}\s+{words}\b|<\s*{words}\s*>", re.IGNORECASE)
            slot = f"{{{step.id}.{name}}}"
            for at in range(index + 1, len(steps)):
                steps[at] = _named(steps[at], phrase, slot)
    return program.model_copy(update={"steps": steps})


def _named(step: ProgramStep, phrase: re.Pattern[str], slot: str) -> ProgramStep:
    args = {
        key: value if key in _KEPT else _slotted(value, phrase, slot)
        for key, value in step.args.items()
    }
    return step if args == step.args else step.model_copy(update={"args": args})


def _slotted(value: Any, phrase: re.Pattern[str], slot: str) -> Any:
    if isinstance(value, str):
        return phrase.sub(slot, value)
    if isinstance(value, dict) and "from" not in value:
        return {
            key: item if key in _KEPT else _slotted(item, phrase, slot)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_slotted(item, phrase, slot) for item in value]
    return value
