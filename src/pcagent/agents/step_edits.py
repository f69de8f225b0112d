"""Edits of a program by single steps: one put in, added at the end, written again, or put
before the step it feeds. Why a module of its own: the asks for single steps
(:mod:`focused_steps`) decide what to ask; these say only where the reply goes, and a test can
check each placing without a model."""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.step_ids import next_step_number


def inserted(program: Program, after: str, step: ProgramStep) -> Program:
    """``program`` with ``step`` put in after step ``after`` ("": before the first), under the
    next free id; the later steps' references are left as they are."""
    ids = [one.id for one in program.steps]
    fresh = step.model_copy(update={"id": f"s{next_step_number(ids)}"})
    at = ids.index(after) + 1 if after in ids else 0
    return program.model_copy(update={"steps": [*program.steps[:at], fresh, *program.steps[at:]]})


def appended(program: Program, added: Sequence[ProgramStep]) -> Program:
    """``program`` with ``added`` after its steps, each added step whose id is taken renamed to
    the next free one. The added steps' references are left as written: they name the program's
    steps, which the model was shown by these ids."""
    steps = list(program.steps)
    for step in added:
        ids = [one.id for one in steps]
        fresh = (
            step
            if step.id not in ids
            else step.model_copy(update={"id": f"s{next_step_number(ids)}"})
        )
        steps.append(fresh)
    return program.model_copy(update={"steps": steps})


def feeding(
    program: Program, wrong: str, written: ProgramStep, arguments: Sequence[str]
) -> Program:
    """``program`` with ``written`` (a step of another skill, asked for in place of step
    ``wrong``) put before that step under a fresh id, and the step's doubted ``arguments``
    referring to its value. Why: told that a document's text copied the instruction's words and
    asked for that step again, the 1.5B model wrote the ``compose_text`` the doubt asked for,
    in the document's place, and the document was lost with it (a rewording of pc09,
    2026-12-04); the doubt's remedy is both steps, the new one feeding the old."""
    fresh = f"s{next_step_number([step.id for step in program.steps])}"
    feeder = written.model_copy(update={"id": fresh})
    steps: list[ProgramStep] = []
    for step in program.steps:
        if step.id == wrong:
            fed = {name: {"from": fresh} for name in arguments if name in step.args}
            steps += [feeder, step.model_copy(update={"args": {**step.args, **fed}})]
        else:
            steps.append(step)
    return program.model_copy(update={"steps": steps})


def replaced(program: Program, written: Sequence[ProgramStep]) -> Program:
    """``program`` with each step of ``written`` in place of its step of the same id (a screen
    step keeps its application's step's place too)."""
    again = {step.id: step for step in written}
    steps = [again.get(step.id, step) for step in program.steps]
    return program.model_copy(update={"steps": steps})
