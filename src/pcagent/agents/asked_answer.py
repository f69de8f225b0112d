"""An instruction that asks to be told something must be answered by some step.

Why: a small planner finds the value asked for and stops there, or a screen step reaches the
page that shows it and says done, and the person is told nothing (measured 2026-11-27: pc02's
screen steps reached the maps page showing "38 min" and ended without reporting it; pc04's
programs never told the side of the road). Whether an instruction asks to be told something is
for a model to read: it copies the words that ask (a question, "tell me ...", "let me know
..."), or nothing; code keeps the words only where they stand in the instruction, and checks
that some step tells the person: a ``tell_user`` call or a screen step that reports named values
(its ``outputs``). A program without one is a doubt: the Manager is asked again, and a program
kept with it cannot end the run "finished".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program
from pcagent.agents.prompting import render
from pcagent.text import contains

#: The longest quote of the instruction's words that ask (a bound of the reply's grammar).
WORDS_CHARS = 160

#: The skill that tells the person an answer.
TELLS = "tell_user"


class AskedToTell(BaseModel):
    """The model's reply: the instruction's words that ask to be told something, or ""."""

    words: str = Field(default="", max_length=WORDS_CHARS)


@dataclass
class AnswerAskedAgent(Agent):
    """Reads whether an instruction asks to be told something; asked once per instruction.
    Its role's model is the default profile's unless ``[models.roles]`` names one for
    ``asked_answer``."""

    name: ClassVar[str] = "asked_answer"

    def asked(self, instruction: str, step: int | None = 0) -> str:
        """The instruction's words that ask to be told something, as it writes them; "" when
        it asks nothing to be told, or the model gives no valid reply or words it lacks."""
        system, user = render("asked_answer", instruction=instruction)
        result = self.ask(prompt_messages(system, user), AskedToTell, step)
        return kept_words(result.value.words if result.value else "", instruction)


def kept_words(words: str, instruction: str) -> str:
    """``words`` without quotes around them where they stand in ``instruction``; "" otherwise
    (a model's paraphrase is no evidence that the instruction asks)."""
    quoted = words.strip().strip("\"'").strip()
    return quoted if quoted and contains(instruction, quoted) else ""


class ReportingStep(Protocol):
    """What the check reads of a step, finished or planned."""

    skill: str
    outputs: Sequence[str]


def tells(step: ReportingStep) -> bool:
    """Whether ``step`` tells the person something: ``tell_user``, or a screen step that must
    report named values."""
    return step.skill == TELLS or (step.skill in (GUI, "") and bool(step.outputs))


def untold_answer(
    program: Program, asked: str, finished: Sequence[ReportingStep] = ()
) -> list[Doubt]:
    """A doubt, on the program's last step, when the instruction asks to be told something
    (``asked``, its words) and no step of the program, nor any of ``finished`` before it,
    tells the person."""
    if not asked or not program.steps:
        return []
    if any(tells(step) for step in (*finished, *program.steps)):
        return []
    last = program.steps[-1]
    return [
        Doubt(
            last.id,
            f'the instruction asks to be told something ("{asked}"), and no step tells the '
            f"person: end with {TELLS}(text=...) giving the answer, with the values found "
            '(e.g. "{s2.name}")',
            skills=(TELLS,),
        )
    ]
