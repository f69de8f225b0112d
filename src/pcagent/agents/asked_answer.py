"""An instruction that asks to be told something must be answered by some step.

Why: a small planner finds the value asked for and stops there, or a screen step reaches the
page that shows it and says done, and the person is told nothing (measured 2026-11-27: pc02's
screen steps reached the maps page showing "38 min" and ended without reporting it; pc04's
programs never told the side of the road). Whether an instruction asks to be told something is
for a model to read: it says which of three ends the user asks for (a value to be told, changes
on the computer, or both), a choice its reply's grammar allows nothing else for; code checks that
some step tells the person where a value is asked for: a ``tell_user`` call or a screen step that
reports named values (its ``outputs``). A program without one is a doubt: the Manager is asked
again, and a program kept with it cannot end the run "finished".

Off by default (``[run] check_asked_answer``): the 1.5B model's reading doubted right programs
too often to be on (docs/agents.md, "An instruction that asks to be told a value"); asked to
copy the words that ask instead, it copied some for every instruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program
from pcagent.agents.prompting import render

#: The skill that tells the person an answer.
TELLS = "tell_user"

#: The ends an instruction may ask for, as the model chooses among them.
VALUE, CHANGES, BOTH = "a value to tell the user", "changes on the computer", "both"


class AskedEnd(BaseModel):
    """The model's reply: what the user gets at the end."""

    result: Literal["a value to tell the user", "changes on the computer", "both"]


@dataclass
class AnswerAskedAgent(Agent):
    """Reads whether an instruction asks to be told a value; asked once per instruction. Its
    role's model is the default profile's unless ``[models.roles]`` names one for
    ``asked_answer``."""

    name: ClassVar[str] = "asked_answer"

    def asked(self, instruction: str, step: int | None = 0) -> bool:
        """Whether the instruction asks to be told a value (alone or besides changes); False
        when the model gives no valid reply."""
        system, user = render("asked_answer", instruction=instruction)
        result = self.ask(prompt_messages(system, user), AskedEnd, step)
        return result.value is not None and result.value.result in (VALUE, BOTH)


class ReportingStep(Protocol):
    """What the check reads of a step, finished or planned."""

    skill: str
    outputs: Sequence[str]


def tells(step: ReportingStep) -> bool:
    """Whether ``step`` tells the person something: ``tell_user``, or a screen step that must
    report named values."""
    return step.skill == TELLS or (step.skill in (GUI, "") and bool(step.outputs))


def untold_answer(
    program: Program, asked: bool, finished: Sequence[ReportingStep] = ()
) -> list[Doubt]:
    """A doubt, on the program's last step, when the instruction asks to be told a value
    (``asked``) and no step of the program, nor any of ``finished`` before it, tells the
    person."""
    if not asked or not program.steps:
        return []
    if any(tells(step) for step in (*finished, *program.steps)):
        return []
    last = program.steps[-1]
    return [
        Doubt(
            last.id,
            "the instruction asks to be told a value, and no step tells the person: end with "
            f'{TELLS}(text=...) giving the answer, with the values found (e.g. "{{s2.name}}")',
            skills=(TELLS,),
        )
    ]
