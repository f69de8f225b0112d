"""Made-up dates, where as many readings go unused, become the dates extracted from them.

Asked for the days between two holidays of 2025 found on the web, the 1.5B Manager searched for
each holiday and then called ``days_between`` with dates of its own ("2025-04-15" for Labour
Day), leaving both pages unread (pc05, 2026-12-03). The doubt that the date is nobody's was
raised and the re-asks wrote the same program. The program says what it meant: each page was
searched for to find a date, and each date written stands where a found one belonged. Where
the dates nobody gave are exactly as many as the readings no step uses, and each comes after
them, the first date is the first reading's, the second the second's: an ``extract_values`` of
a ``date`` (described by the search's own words) follows each reading, and the date becomes a
reference to it. Anything else (one reading for two dates, a reading used, a date the
instruction writes) stays with its doubts for the Manager.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pcagent.agents.given_dates import ungiven_date
from pcagent.agents.given_values import given_parameters
from pcagent.agents.keys_of_readings import free_step_id, reading
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.unused_values import values_used
from pcagent.skills import SkillCatalog


def with_dates_of_unused_readings(
    program: Program, catalog: SkillCatalog, given: Sequence[str], before: Collection[str] = ()
) -> Program:
    """``program`` with its made-up dates referring to dates extracted from its unused
    readings, one each in order, where they are as many; else ``program`` itself.
    ``before``: the ids of steps already run, which a new step's id must not repeat."""
    if "extract_values" not in catalog:
        return program
    steps = program.steps
    unread = [
        index
        for index, step in enumerate(steps)
        if reading(step, catalog) and not any(step.id in values_used(o) for o in steps[index + 1 :])
    ]
    dates = [
        (index, name)
        for index, step in enumerate(steps)
        for name, holds in given_parameters(catalog, step.skill).items()
        if holds == "date" and ungiven_date(step.args.get(name), given)
    ]
    if not unread or len(dates) != len(unread) or min(i for i, _ in dates) < max(unread):
        return program
    taken = {step.id for step in steps} | set(before)
    found: dict[int, ProgramStep] = {}
    for index in unread:
        found[index] = _date_of(steps[index], free_step_id(taken))
        taken.add(found[index].id)
    placed = dict(zip(dates, [found[index].id for index in unread], strict=True))
    mended: list[ProgramStep] = []
    for index, step in enumerate(steps):
        args = {
            name: {"from": placed[(index, name)], "key": "date"}
            if (index, name) in placed
            else value
            for name, value in step.args.items()
        }
        mended.append(step.model_copy(update={"args": args}))
        if index in found:
            mended.append(found[index])
    return program.model_copy(update={"steps": mended})


def _date_of(source: ProgramStep, step_id: str) -> ProgramStep:
    """An extraction of the date ``source`` read; a search's words say whose date."""
    query = source.args.get("query")
    what = f"the date of {query}" if isinstance(query, str) and query.strip() else "the date"
    return ProgramStep(
        id=step_id,
        skill="extract_values",
        args={"text": {"from": source.id}, "names": ["date"], "what": what},
    )
