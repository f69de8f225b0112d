"""A corrected program keeps what the program before it did right: a doubt where it drops it.

Why: asked to download a paper and type its abstract into a new document, the 1.5B planner
wrote a search, the paper's page, a read of a file that is not there, the typing and the save.
Told only that the read named no file, it wrote the search, the page and the read again and
stopped there; the read, used by nothing now, was left out, and the run said "finished" after
opening the paper's page, with no document written (pc10r2, 2026-12-02). Each step checked its
own effect, and no reading of the instruction named the document's application, so no other
doubt saw it.

Judged on the programs alone, never on the instruction's words: a step of the program the
re-ask showed that makes an effect (changes something in an application, or tells the person),
that no problem or doubt was about, and whose skill no step of the corrected program calls, was
dropped by the correction. That is a doubt on the corrected program's last step: the Manager is
asked again with it, and a program kept with it cannot end the run "finished". A step the
problems named may go (the model may rightly drop a wrong move), and so may a step that only
reads, searches, opens a page or works a value out: a corrected program may reach its value
another way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from pcagent.agents.asked_answer import tells
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, skill_of
from pcagent.skills import SkillCatalog


def _makes_effect(step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``step`` changes something in an application or tells the person something."""
    if tells(step):
        return True
    skill = skill_of(step, catalog)
    if skill is None:
        return False
    quiet = skill.only_reads or skill.computes or skill.navigates or skill.gives_list
    return bool(skill.apps) and not quiet


def faulted_steps(program: Program, problems: Iterable[str], doubts: Iterable[Doubt]) -> set[str]:
    """The ids of ``program``'s steps that a problem (by its id) or a doubt is about."""
    said = " ".join(problems)
    named = {step.id for step in program.steps if re.search(rf"\b{re.escape(step.id)}\b", said)}
    return named | {doubt.step for doubt in doubts}


def dropped_steps(
    before: Program | None, faulted: set[str], program: Program, catalog: SkillCatalog
) -> list[Doubt]:
    """A doubt on ``program``'s last step where it leaves out the skill of a step of ``before``
    (the program its re-ask showed) that makes an effect and is not in ``faulted``."""
    if before is None or not program.steps:
        return []
    called = {step.skill for step in program.steps}
    gone = [
        step
        for step in before.steps
        if step.id not in faulted and step.skill not in called and _makes_effect(step, catalog)
    ]
    if not gone:
        return []
    listed = ", ".join(f"{step.id} ({step.skill})" for step in gone)
    return [
        Doubt(
            program.steps[-1].id,
            f"the program before also had {listed}, which no problem was about, and this one "
            "leaves them out: a corrected program mends the steps named and keeps the others",
            skills=tuple(dict.fromkeys(step.skill for step in gone if step.skill != GUI)),
        )
    ]


@dataclass
class Corrections:
    """The program a re-ask shows, with the ids of its faulted steps, to judge the reply by."""

    catalog: SkillCatalog
    before: Program | None = None
    faulted: set[str] = field(default_factory=set)

    def doubts(self, program: Program) -> list[Doubt]:
        """What ``program``, the reply to the latest re-ask, dropped (:func:`dropped_steps`)."""
        return dropped_steps(self.before, self.faulted, program, self.catalog)

    def shown(self, program: Program, problems: Iterable[str], doubts: Iterable[Doubt]) -> None:
        """Remember ``program`` as the one the next re-ask shows, with what was said of it."""
        self.before, self.faulted = program, faulted_steps(program, problems, doubts)
