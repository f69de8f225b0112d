"""A value one step takes as a date and another computes with as a number: a doubt on the
step that computes.

Why: told to look two holidays' dates up and count the days between them on the calculator,
the 1.5B Manager found both dates, counted the days with ``days_between(start=s2.date,
end=s4.date)``, and then wrote ``calculate("({s5} - {s2}) / 7")``: the calculator refused the
date only when the step ran, and each re-plan wrote the step again, to the step cap (a
rewording of pc05 at ce77147, 2026-12-08). Which parameter takes a date and which takes numbers
is in the skills' schemas (``"given": "date"``, ``"given": "numbers"``), and which value goes
where is in the program's references: both typed, nothing read from the person's words. The
doubt is the computing step's own, so that step is asked for again alone, told which value is
a date and which step works a number out of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.extraction_uses import whole_reference
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep, reference_values
from pcagent.skills import SkillCatalog

#: The ``given`` marks of the parameters that take a date, and those that compute with numbers.
_DATE, _NUMBERS = "date", "numbers"


def dates_as_numbers(
    program: Program, catalog: SkillCatalog, finished: Sequence[ProgramStep] = ()
) -> list[Doubt]:
    """A doubt on each step of ``program`` that computes with a value which a step of
    ``program`` or ``finished`` takes whole as a date."""
    as_dates: dict[tuple[str, str], ProgramStep] = {}
    for step in (*finished, *program.steps):
        for parameter in _marked(step, catalog, _DATE):
            source, key = whole_reference(step.args.get(parameter))
            if source:
                as_dates.setdefault((source, key), step)
    doubts = []
    for step in program.steps:
        for parameter in _marked(step, catalog, _NUMBERS):
            for reference in reference_values({parameter: step.args.get(parameter)}):
                taker = _taken_as_date(as_dates, reference["from"], reference.get("key") or "")
                if taker is None:
                    continue
                slot = _slot(reference["from"], reference.get("key") or "")
                computes = taker.skill in catalog and catalog.get(taker.skill).computes
                instead = (
                    f"compute with what {taker.id} works out of it ({_slot(taker.id, '')})"
                    if computes
                    else "compute with numbers"
                )
                doubts.append(
                    Doubt(
                        step.id,
                        f"{step.id}'s {parameter} computes with {slot}, a date ({taker.id} takes "
                        f"it as one): a date is no number; {instead}",
                        own=True,
                    )
                )
                break
    return doubts


def _marked(step: ProgramStep, catalog: SkillCatalog, given: str) -> list[str]:
    return [name for name, kind in catalog.marked(step.skill, "given").items() if kind == given]


def _taken_as_date(
    as_dates: dict[tuple[str, str], ProgramStep], source: str, key: str
) -> ProgramStep | None:
    """The step that takes ``source``'s value (its ``key``; "" for the whole value, which
    stands for its one named value) as a date; None where none does."""
    if key:
        return as_dates.get((source, key)) or as_dates.get((source, ""))
    return next((step for (s, _), step in as_dates.items() if s == source), None)


def _slot(source: str, key: str) -> str:
    return "{" + source + (f".{key}" if key else "") + "}"
