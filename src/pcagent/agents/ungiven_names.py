"""A name in a search's words that nobody gave: the step's own doubt.

Why: asked which side of the road people drive on at a note's destination, the 1.5B Manager
searched for "which side of the road does traffic drive on in {s2.destination} in the United
States". Most of the words were given, so the search was grounded (:func:`grounded`), nothing
doubted it, the page of the United States answered "right" for Tokyo, and the run said
"finished" (a rewording of pc04, 2026-12-03). A capitalised word after the search's first
(a name: "United States", "Kyoto"), longer than three letters, that neither the instruction nor
a value found holds, is what a program can only have made up or remembered; the Manager is
re-asked, and a program kept with it ends "unverified" at best. Judged on the model's typed
literal against what it was given, as other given values are; it decides nothing alone.

So are the words typed into a form (a parameter marked ``given: "form"``: a list of fields,
each a label and a value): a value with a word of letters longer than three that nobody gave
was copied from an example or made up. On a rewording of pc15 (2026-12-03) the 1.5B Manager
searched arxiv.org's form for "multi-application", an example's topic, where the instruction
asked for "multimodal agent"; the first result was downloaded and the run said "finished".
Each such word must be given (a form's value is short: "multi-application" was half given, by
"multimodal"). Numbers and dates are left to the checks of their kind, and a check box's
state ("true") is the skill's word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pcagent.agents.given_values import given_parameters, grounded, words_of
from pcagent.agents.plan import Doubt
from pcagent.agents.program import SLOT, Program, ProgramStep
from pcagent.skills import SkillCatalog
from pcagent.text import word_written

#: A check box's states as a form's value (``"Round trip": "true"``): the skill's words.
BOX_STATES = frozenset({"true", "false", "checked", "unchecked"})

#: Names shorter than this ("US", "UK", "NYC") are left alone: they are as often units or
#: codes a template writes as names.
_LONGER_THAN = 3


def ungiven_names(query: str, given: Sequence[str]) -> list[str]:
    """The capitalised words of ``query`` after its first, longer than three letters, that no
    text of ``given`` holds, each once."""
    return [
        word
        for word in dict.fromkeys(words_of(query)[1:])
        if len(word) > _LONGER_THAN and word[:1].isupper() and not word_written(word, given)
    ]


def ungiven_words_typed(value: object, given: Sequence[str]) -> list[str]:
    """The words of letters longer than three of a form field's literal ``value`` that nobody
    gave (none for a reference, a number or a check box's state)."""
    if not isinstance(value, str) or value.strip().casefold() in BOX_STATES:
        return []
    long_words = [w for w in words_of(value) if len(w) > _LONGER_THAN and w.isalpha()]
    return [w for w in long_words if not word_written(w, given)]


def ungrounded_form_values(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> list[Doubt]:
    """A doubt on each step for each form field's literal value (a parameter holding a
    ``form``) with a longer word neither in the instruction nor in a value found."""
    doubts = []
    for step in program.steps:
        for name, holds in given_parameters(catalog, step.skill).items():
            fields = step.args.get(name)
            if holds != "form" or not isinstance(fields, list):
                continue
            for field in fields:
                value = field.get("value") if isinstance(field, dict) else None
                ungiven = ungiven_words_typed(value, given)
                if ungiven:
                    doubts.append(
                        Doubt(
                            step.id,
                            f"{name}: {field.get('label')!r}={value!r}: {' '.join(ungiven)} is "
                            "neither in the instruction nor in a value found: type what the "
                            "instruction gives, in its words or by reference to a value found",
                        )
                    )
    return doubts


def ungiven_names_in_searches(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> list[Doubt]:
    """A doubt on each step whose search words (a parameter holding a ``search``) are grounded
    and still name something nobody gave (an ungrounded search is doubted already)."""
    doubts = []
    for step in program.steps:
        for name, holds in given_parameters(catalog, step.skill).items():
            query = step.args.get(name)
            if holds != "search" or not isinstance(query, str) or not grounded(query, given):
                continue
            if named := ungiven_names(query, given):
                doubts.append(
                    Doubt(
                        step.id,
                        f"{name}={query!r} names {' '.join(named)}, which neither the "
                        "instruction nor a value found gives: search for what the instruction "
                        "asks about, in its words or by reference to a value found",
                    )
                )
    return doubts


#: Words that tie a trailing name to a search's words ("in the United States").
_TIES = ("in", "of", "for", "at", "on", "from", "to", "near")


def without_ungiven_names(program: Program, catalog: SkillCatalog, given: Sequence[str]) -> Program:
    """``program`` with the names nobody gave left out of each search that looks up a value
    found (its words hold a reference to it), where what remains is grounded; the same words
    are left out of the steps' other texts (the reading of that page: "which side ... in
    {s2.destination} in the United States"). Why a mend: the 1.5B Manager was shown a program
    that searched "which side of the road does traffic drive on in {s2.destination}", wrote it
    with "in the United States" added, and kept it through two asks that named the name (a
    rewording of pc04, 2026-12-03 and again 2026-12-05); the page of the United States answered
    for Tokyo. A search whose subject is such a name (no reference left) stays as written, with
    its doubt: without the name it would search for something else."""
    dropped: list[str] = []
    steps = []
    for step in program.steps:
        args = dict(step.args)
        for name, holds in given_parameters(catalog, step.skill).items():
            query = args.get(name)
            if holds != "search" or not isinstance(query, str) or not SLOT.search(query):
                continue
            named = ungiven_names(query, given)
            if not named:
                continue
            pattern = _tied_names(named)
            left = " ".join(pattern.sub(" ", f" {query} ").split())
            if SLOT.search(left) and grounded(left, given) and not ungiven_names(left, given):
                dropped += [" ".join(m.split()) for m in pattern.findall(f" {query} ")]
                args[name] = left
        steps.append(step.model_copy(update={"args": args}) if args != step.args else step)
    if not dropped:
        return program
    return program.model_copy(update={"steps": [_without(step, dropped) for step in steps]})


def _tied_names(names: Sequence[str]) -> re.Pattern[str]:
    """A run of ``names`` with the tie and article before it, each a word of its own."""
    alternatives = "|".join(re.escape(name) for name in names)
    ties = "|".join(_TIES)
    return re.compile(rf"(?:\s(?:{ties}))?(?:\sthe)?(?:\s(?:{alternatives}))+(?=\W)")


def _without(step: ProgramStep, phrases: Sequence[str]) -> ProgramStep:
    """``step`` with each of ``phrases`` left out of its texts (single-spaced after)."""
    args = dict(step.args)
    for key, value in step.args.items():
        if isinstance(value, str) and any(phrase in value for phrase in phrases):
            for phrase in phrases:
                value = value.replace(phrase, " ")
            args[key] = " ".join(value.split())
    return step if args == step.args else step.model_copy(update={"args": args})
