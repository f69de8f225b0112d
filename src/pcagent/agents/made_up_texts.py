"""A text made up for a document, where one composed text goes unused, becomes a reference to
the composed text.

Asked for two paragraphs introducing two companies in a new document, the 1.5B Manager shown a
remembered program that wrote a literal line copied that line ("Parcels weighed this week: 51")
as the document's text; re-asked with the doubt, it added the ``compose_text`` step the
instruction needed and left the copied line in ``write_document``, twice; the program was kept
with its doubt and the user's new document held another task's line (pc09, 2026-12-05). Where
exactly one step writes a text with a language model (``compose_text``, ``translate_text``,
``revise_text``, ``write_code``: a skill that needs a language model, works in no application
and gives one text) and no later step uses it, and exactly one later step writes a literal text
that is neither in the instruction nor found (the doubt of :func:`given_values.made_up_text`),
that text can only have been meant to be the composed one. Anything less clear (two composed
texts unused, two made-up texts) stays with its doubts for the Manager.

A text so written that no later step uses, where it is not the program's last step, is dropped
(:func:`without_unused_texts`): it changes nothing, shows nowhere, and only its failure could
matter. Asked which side of the road people drive on at a trip's destination, the 1.5B Manager
translated the destination "Tokyo, Japan" into English and searched with the untranslated
value; the translation failed ("in that language already"), the re-plan went to the screen,
and the run failed (a rewording of pc04, 2026-12-05; pc09's rewording the same day translated
two company names it then did not use).
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.given_values import given_parameters, made_up_text
from pcagent.agents.program import GUI, Program, ProgramStep, skill_of
from pcagent.agents.unused_values import values_used
from pcagent.skills import SkillCatalog


def _writes_a_text(step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``step``'s skill writes one text with a language model (compose, translate)."""
    one = skill_of(step, catalog)
    if one is None:
        return False
    return one.needs_language and not one.apps and not one.keys_argument and not one.gives_list


def _used_later(steps: Sequence[ProgramStep], at: int) -> bool:
    """Whether a step after ``steps[at]`` uses its value."""
    return any(steps[at].id in values_used(later) for later in steps[at + 1 :])


def with_unused_text_in_made_up_text(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with its one made-up text to write referring to its one unused composed
    text, where there is exactly one of each and the text comes after; else ``program``."""
    steps = program.steps
    unused = [
        at
        for at, step in enumerate(steps)
        if _writes_a_text(step, catalog) and not _used_later(steps, at)
    ]
    if len(unused) != 1:
        return program
    at = unused[0]
    spots = [
        (index, name)
        for index, step in enumerate(steps)
        if index > at and step.skill != GUI
        for name, holds in given_parameters(catalog, step.skill).items()
        if holds == "text"
        and isinstance(text := step.args.get(name), str)
        and made_up_text(text, given)
    ]
    if len(spots) != 1:
        return program
    index, name = spots[0]
    mended = list(steps)
    step = steps[index]
    mended[index] = step.model_copy(update={"args": {**step.args, name: {"from": steps[at].id}}})
    return program.model_copy(update={"steps": mended})


def without_unused_texts(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` without the steps that write a text with a language model (compose,
    translate) that no later step uses, the last step aside (its text may be what the
    program ends on); ``program`` itself where there is none."""
    steps = program.steps
    kept = [
        step
        for at, step in enumerate(steps)
        if at == len(steps) - 1 or not _writes_a_text(step, catalog) or _used_later(steps, at)
    ]
    return program if len(kept) == len(steps) else program.model_copy(update={"steps": kept})
