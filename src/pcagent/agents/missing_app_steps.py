"""The step in an application the instruction asks for and the program leaves out, asked for
alone.

Why: re-asked with its whole program and the doubt "the instruction asks for the writer, and no
step uses it", the 1.5B Manager wrote the same program again, three times (rewordings,
2026-11-28: a document opened from the file manager and never formatted; two paragraphs
composed and no document written). Asked for the one missing step alone, under a grammar of
that application's skills only, the model has one choice to make where it had a whole program
to write. The model still reads the instruction and picks the skill and its arguments; code
only says which application is missing (the reading of :mod:`pcagent.agents.named_apps`),
appends the step and keeps the longer program only where it is usable and has fewer doubts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pcagent.agents.named_apps import AskedApp
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.program_grammar import program_reply_type
from pcagent.agents.prompting import render
from pcagent.agents.step_ids import next_step_number
from pcagent.models.messages import Message
from pcagent.skills import SkillCatalog

#: Puts the messages to the Manager's model under a reply type: the program, or None.
AskProgram = Callable[[list[Message], type[Program]], Program | None]


@dataclass(frozen=True)
class MissingAppSteps:
    """Asks for the missing applications' steps of one instruction's program. ``settled``: the
    program mended, or None where it is unusable (its validation problems); ``doubts``: a
    program's doubts."""

    skills: SkillCatalog
    ask: AskProgram
    settled: Callable[[Program], Program | None]
    doubts: Callable[[Program], list[Doubt]]

    def added(
        self,
        instruction: str,
        program: Program,
        doubts: list[Doubt],
        missing: Sequence[AskedApp],
    ) -> tuple[Program, list[Doubt]]:
        """``program`` (and its ``doubts``) with a step for each application of ``missing``
        that the model wrote usably and that leaves fewer doubts; the rest as they were."""
        for use in missing:
            skills = SkillCatalog(one for one in self.skills if use.app in one.apps)
            reply = self.ask(
                self._messages(instruction, program, use, skills),
                program_reply_type(skills, [use.app]),
            )
            if reply is None:
                continue
            longer = self.settled(appended(program, reply.steps))
            if longer is None:
                continue
            fewer = self.doubts(longer)
            if len(fewer) < len(doubts):
                program, doubts = longer, fewer
        return program, doubts

    @staticmethod
    def _messages(
        instruction: str, program: Program, use: AskedApp, skills: SkillCatalog
    ) -> list[Message]:
        steps = "\n".join(step.model_dump_json(exclude_defaults=True) for step in program.steps)
        system, user = render(
            "manager_app_step",
            app=use.app,
            words=use.words,
            skills=skills.prompt_lines() or "- (none: write a gui step)",
            instruction=instruction,
            program=steps,
            next=f"s{next_step_number([step.id for step in program.steps])}",
        )
        return [Message.system(system), Message.user(user)]


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
