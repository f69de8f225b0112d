"""A time moved twice: a step moves a time that an earlier step has already moved.

"An alarm one hour before the event" can be written two ways: ``shift_time`` the event's time
one hour back and set the alarm at the result, or ``set_alarm`` at the event's time with
``hours_before: 1``. The 1.5B planner wrote both in one program (pc01r1 at 3adad21): the alarm
rang two hours early, every step's own check passed and the run said "finished". Which of the
two the instruction means is for a model; that a time was moved by two steps is in the typed
program, so it is a doubt the Manager is re-asked with, and a kept doubt leaves the run
"unverified".

A skill marks each parameter that moves another one with ``json_schema_extra={"moves":
"time"}`` (the name of the parameter it moves); a step moves a time when one of them holds a
literal other than zero.
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, references
from pcagent.skills import SkillCatalog


def _offsets(catalog: SkillCatalog, skill: str) -> dict[str, str]:
    """The parameters of ``skill`` that move another, with the name of the one they move."""
    if skill == GUI:
        return {}
    marked = catalog.marked(skill, "moves").items()
    return {name: moved for name, moved in marked if isinstance(moved, str)}


def _moves(step: ProgramStep, catalog: SkillCatalog) -> tuple[str, list[str]] | None:
    """The parameter ``step`` moves and the offsets it moves it by (None: it moves none)."""
    offsets = _offsets(catalog, step.skill)
    given = [
        name
        for name in offsets
        if isinstance(step.args.get(name), int | float)
        and not isinstance(step.args.get(name), bool)
        and step.args[name] != 0
    ]
    return (offsets[given[0]], given) if given else None


def moved_twice(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each step that moves a value an earlier step of ``program`` moved."""
    by_id = {step.id: step for step in program.steps}
    doubts = []
    for step in program.steps:
        moves = _moves(step, catalog)
        if moves is None:
            continue
        parameter, offsets = moves
        for source_id in references({parameter: step.args.get(parameter)}):
            source = by_id.get(source_id)
            if source is None or _moves(source, catalog) is None:
                continue
            doubts.append(
                Doubt(
                    step.id,
                    f"{step.id} moves the {parameter} of {source_id} by {', '.join(offsets)}, "
                    f"and {source_id} ({source.skill}) has already moved it: move it once, "
                    f"either in {source_id} or with {step.id}'s {', '.join(offsets)}, not both",
                )
            )
    return doubts
