"""Rows looked up for several things that go to a comparison of numbers: the look-up is told
each value must be a number.

Why: asked for three companies' share prices, the 1.5B Manager wrote ``web_search_each`` with
``value="stock"`` and sorted its rows; the extraction read each company's name or ticker off
the pages ("NVIDIA Corporation (NVDA)", "AAPL"), the sort refused all three, and the run ended
(pc07 at db209bf, 2026-12-06). That the rows go whole to ``sort_items`` or ``pick_extreme``,
which compare numbers, is in the program's references and the skills' types, not in anyone's
words; the look-up's hidden ``numbers`` then has each value asked for as a number, its reply
held to one by the grammar (``skills.numbers_written.NUMBER_WRITTEN``; asked again in words
only, the model had answered "AAPL" twice, 9d0c5d5). The model still chooses the value.
"""

from __future__ import annotations

from pcagent.agents.extraction_uses import whole_reference
from pcagent.agents.program import Program, ProgramStep, skill_steps
from pcagent.skills import SkillCatalog
from pcagent.skills.values import LabelledValues

#: The hidden argument of a look-up whose values must be numbers, and the comparing skills'
#: argument that takes the rows.
_NUMBERS, _ITEMS = "numbers", "items"


def with_numbers_wanted(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with ``numbers`` set on each look-up whose rows a later step compares as
    numbers; ``program`` itself where none is."""
    takes_numbers = {
        step.id
        for step, one in skill_steps(program, catalog)
        if _NUMBERS in one.parameters.model_fields
    }
    wanted: set[str] = set()
    for step, one in skill_steps(program, catalog):
        if not issubclass(one.parameters, LabelledValues) or _ITEMS not in step.args:
            continue
        source, key = whole_reference(step.args[_ITEMS])
        if source in takes_numbers and not key:
            wanted.add(source)
    if not wanted:
        return program
    steps = [_told(step) if step.id in wanted else step for step in program.steps]
    return program if steps == program.steps else program.model_copy(update={"steps": steps})


def _told(step: ProgramStep) -> ProgramStep:
    if step.args.get(_NUMBERS) is True:
        return step
    return step.model_copy(update={"args": {**step.args, _NUMBERS: True}})
