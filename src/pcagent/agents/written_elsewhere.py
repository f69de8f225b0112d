"""A file written in an application the instruction does not ask for, while one it asks for is
only read in: a doubt naming the asked application's writing skills.

Why: asked to type a document's translation "into a fresh Writer document", the 1.5B Manager
read the document with the word processor's skill, then typed the translation in the text
editor and saved it as a plain-text file; the word processor counted as used (it read), every
step checked its own effect and the run said "finished" (a rewording of pc21, 2026-12-03). Which
applications the instruction asks for is a model's reading (:mod:`named_apps`); which step
writes and where is the skills' declaration (``writes``, ``only_reads``, ``apps``): code
compares the two and decides nothing itself, the Manager is re-asked, and a program kept with
the doubt cannot end the run "finished".

The step is then asked for again alone, under the grammar of the asked application's writing
skills (:attr:`Doubt.skill_instead`): re-asked with the whole program, the 1.5B Manager wrote
the document with ``write_document`` once and copied an example's file into the same program,
which was not kept, and the plain-text file was written (a rewording of pc21, 2026-12-07).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pcagent.agents.named_apps import AskedApp
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, step_apps
from pcagent.skills import SkillCatalog


def written_elsewhere(
    program: Program,
    asked: Sequence[AskedApp],
    skills: SkillCatalog,
    finished: Sequence[ProgramStep] = (),
) -> list[Doubt]:
    """A doubt on each step of ``program`` that writes a file in an application not asked
    for, where an application asked for is only read in (by it or the ``finished`` steps)."""
    wanted = {use.app for use in asked}
    steps = (*finished, *program.steps)
    only_read = [use for use in asked if _only_read_in(use.app, steps, skills)]
    if not only_read:
        return []
    use = only_read[0]
    writers = _writers_in(use.app, skills)
    doubts = []
    for step in program.steps:
        apps = set(step_apps(step, skills))
        if not _writes(step, skills) or not apps or apps & wanted:
            continue
        path = step.args.get("path")
        what = f" {path}" if isinstance(path, str) else ""
        doubts.append(
            Doubt(
                step.id,
                f"{step.id} writes{what} with {step.skill}, in the {' and '.join(sorted(apps))}, "
                f'which the instruction does not ask for; it asks for the {use.app} ("{use.words}"), '
                f"where no step does more than read: write it there"
                + (f" ({', '.join(writers)})" if writers else " (a gui step)"),
                skills=writers,
                own=True,
                skill_instead=bool(writers),
            )
        )
    return doubts


def _only_read_in(app: str, steps: Collection[ProgramStep], skills: SkillCatalog) -> bool:
    """Whether some step works in ``app`` and every step that does only reads."""
    there = [step for step in steps if app in step_apps(step, skills)]
    return bool(there) and all(
        step.skill != GUI and step.skill in skills and skills.get(step.skill).only_reads
        for step in there
    )


def _writes(step: ProgramStep, skills: SkillCatalog) -> bool:
    """Whether ``step`` is a skill call that writes a file it names."""
    if step.skill == GUI or step.skill not in skills:
        return False
    declared = skills.get(step.skill)
    return bool(declared.writes) and not declared.only_reads


def _writers_in(app: str, skills: SkillCatalog) -> tuple[str, ...]:
    """The skills that write a new file in ``app`` (they read none)."""
    return tuple(one.name for one in skills if app in one.apps and one.writes and not one.reads)
