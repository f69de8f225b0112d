"""A reference's key that the step it names does not give, mended where only one reading fits.

A small planner writes ``{"from": "s3", "key": "text"}`` for a step whose value is one value (a
file's text, a search's page), or ``"key": "ratings"`` where the step extracted one value named
``rating``. The program is refused and re-asked, and the re-ask often changes something else.
Where the step gives one value, the key can only mean that value, and is dropped; where it
gives an object of one field, the key can only mean that field. A key among several fields that
names none of them stays a problem the Manager is asked about: which one it meant is its to say.
"""

from __future__ import annotations

from pcagent.agents.program import Program, ProgramStep, value_keys
from pcagent.agents.step_ids import changed_step
from pcagent.skills import SkillCatalog


def with_keys_mended(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each key that can mean only one thing made to say it."""
    fields: dict[str, frozenset[str] | None] = {}
    steps: list[ProgramStep] = []

    def mended(source: str, key: str) -> tuple[str, str]:
        if not key or source not in fields:
            return source, key
        given = fields[source]
        if given is None:
            return source, ""
        if key not in given and len(given) == 1:
            return source, next(iter(given))
        return source, key

    for step in program.steps:
        steps.append(changed_step(step, mended))
        fields[step.id] = value_keys(step, catalog)
    return Program(steps=steps)
