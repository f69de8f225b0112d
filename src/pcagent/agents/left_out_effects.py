"""An end the instruction asks of an application the program works in, that no step makes: a
doubt, read by a model one application at a time.

Why: every step checks its own effect, so a program that leaves out part of what was asked
ends with each check passed: the 1.5B planner read a paper's page and saved its abstract with
the download left out, and the run said "finished" (two rewordings of pc10, 2026-12-03). A
Judge asked of the whole run whether it did everything said yes to every recorded run
(:mod:`outcome_judge`); asked what one application is to leave done, among a few ends
(:data:`pcagent.skills.effects.ENDS`: the browser's pages only read, or a file downloaded), the
model has only that to read.

Which applications are asked about is code's, on the typed program: those the program (or the
steps done before a re-plan) works in, where some end is not made, and where no screen step
works (a screen step may make any end). Which end the instruction asks for is the model's:
asked with the options in both orders, a reading counts only where both answers agree. An end
read that no step makes is a doubt on the program's last step naming the skills that make it:
the Manager is asked again, and a program kept with it cannot end the run "finished". Off by
default (``[run] check_left_out_effects``) until measured on runs
(benchmarks/effect_readings.py measures the reading on generated tasks' gold programs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import create_model

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.named_apps import apps_used
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, step_apps
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog
from pcagent.skills.effects import ENDS, End

#: The end an instruction asks of an application (by its catalog name): None where no reading.
ReadsEnd = Callable[[str, str], End | None]


@dataclass
class EffectReadingAgent(Agent):
    """Asks what an instruction asks one application to leave done; its role's model is the
    default profile's unless ``[models.roles]`` names one for ``effect_reading``."""

    name: ClassVar[str] = "effect_reading"

    def end(self, instruction: str, app: str, step: int | None = 0) -> End | None:
        """The end of :data:`ENDS` the model chooses for ``app`` with the options in their
        order and the other way round, where both answers agree; None where they differ,
        either is invalid, or the application has no ends. Why both: a small model leans to
        the option listed first."""
        first, second = self.answers(instruction, app, step)
        return first if first is not None and first == second else None

    def answers(
        self, instruction: str, app: str, step: int | None = 0
    ) -> tuple[End | None, End | None]:
        """The ends chosen with the options in their order, then the other way round."""
        if app not in ENDS:
            return None, None
        words, ends = ENDS[app]
        return (
            self._answer(instruction, words, ends, step),
            self._answer(instruction, words, ends[::-1], step),
        )

    def _answer(
        self, instruction: str, app: str, ends: Sequence[End], step: int | None
    ) -> End | None:
        options = tuple(end.words for end in ends)
        system, user = render(
            "effect_reading",
            instruction=instruction,
            app=app,
            options="\n".join(f"- {option}" for option in options),
        )
        reply = create_model("EndReply", answer=(Literal[options], ...))  # type: ignore[valid-type]
        result = self.ask(prompt_messages(system, user), reply, step)
        if result.value is None:
            return None
        return next(end for end in ends if end.words == result.value.answer)


def apps_to_ask(
    program: Program, skills: SkillCatalog, finished: Sequence[ProgramStep] = ()
) -> list[str]:
    """The applications of :data:`ENDS` a model is asked about for ``program``: those it or
    ``finished`` works in, where some end is not made, and no screen step works."""
    steps = (*finished, *program.steps)
    if any(step.skill == GUI and not step.app for step in steps):
        return []  # a screen step in no named application may make any end
    called = {step.skill for step in steps}
    used = apps_used(Program(steps=list(steps)), skills)
    screens = set().union(*(step_apps(step, skills) for step in steps if step.skill == GUI))
    return [
        app
        for app, (_, ends) in ENDS.items()
        if app in used and app not in screens and not all(end.made(called) for end in ends)
    ]


def left_out_effects(
    program: Program,
    skills: SkillCatalog,
    reads: Callable[[str], End | None] | None,
    finished: Sequence[ProgramStep] = (),
) -> list[Doubt]:
    """A doubt on ``program``'s last step for each application of :func:`apps_to_ask` whose
    end ``reads`` (the instruction's reading, by the application) is not made by any step."""
    if reads is None or not program.steps:
        return []
    called = {step.skill for step in (*finished, *program.steps)}
    doubts = []
    for app in apps_to_ask(program, skills, finished):
        end = reads(app)
        if end is None or end.made(called):
            continue
        missing = end.missing(called)
        doubts.append(
            Doubt(
                program.steps[-1].id,
                f'the instruction asks for {ENDS[app][0]} to leave "{end.words}", and no step '
                f"does it: add the step that does (with {' or '.join(missing)})",
                skills=missing,
            )
        )
    return doubts
