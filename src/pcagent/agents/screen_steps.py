"""A screen step where skills work is a doubt: the Manager is asked for a skill call first.

A screen step (``gui``) is handed to the Decision agent, which points and types one action at
a time; a skill does the same work in one call and checks what it did. The 1.5B Manager wrote
screen steps for work a skill of the catalog does ("calculate" with the step it uses, beside
``calculate``; "type in editor" beside ``type_in_editor``; an alarm "for when I have to set off
..." beside ``set_alarm``) and for what no application shows ("name the one with the shortest
flight", after a sort): in the four runs of the 50 rewordings on 2026-12-07 (79126f2, faa8a78,
0e716b8 and 27d0e28, 130 task runs), 1 of the 23 runs whose plans held a screen step passed,
and not through it (its screen step gave up and a re-plan's skill calls did the work), where 71
of the 107 whose plans held skill calls alone did. No training program in memory holds one:
the templates' programs are skill calls.

So a screen step in an application where skills work (naming them), or in none (naming the
skills of no application: a value picked, a time worked out, the person told), carries a doubt
of its own: the Manager is re-asked with it, the step is asked for alone (:mod:`focused_steps`)
under a grammar of the skills named and no screen step (:func:`skills_instead`), and a program
without it is kept over one with it. Where every ask keeps it, it runs as written
(:attr:`~pcagent.agents.plan.Doubt.asks_only`): the way is in doubt, not a value, and what the
step did is judged by its effect as before. A screen step in an application no skill works in
is left as it is: there it is the only way. Nothing here reads the step's words, only its kind
and its application.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep
from pcagent.skills import SkillCatalog


def screen_steps_beside_skills(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each screen step in an application some skill of ``catalog`` works in, or
    in none where a skill of no application is there, naming those skills."""
    doubts: list[Doubt] = []
    for step in program.steps:
        if step.skill != GUI:
            continue
        names = tuple(one.name for one in catalog.working_in(step.app))
        if not names:
            continue
        where = f"in the {step.app}" if step.app else "without an application"
        doubts.append(
            Doubt(
                step.id,
                f"{step.id} is a screen step, done by pointing and typing one action at a time; "
                f"{', '.join(names)} work {where} and check what they did: "
                f"call the one that does what {step.id} is for, with its arguments (a screen "
                "step only for what none of them does)",
                skills=names,
                own=True,
                asks_only=True,
            )
        )
    return doubts


def skills_instead(
    step: ProgramStep | None, doubts: Sequence[Doubt], catalog: SkillCatalog
) -> SkillCatalog | None:
    """The skills a step is asked for alone under, with no screen step allowed: for a screen
    step with a doubt of this module, and for any step with a doubt whose remedy is another
    skill (:attr:`Doubt.skill_instead`), the skills the doubts name (None for another step).
    Why: asked for again alone under the whole catalog and a screen step's branch, the 1.5B
    Manager wrote the screen step again every time (pc06r2 at bbc9bb1, 2026-12-07: "name the
    one with the shortest flight" after a sort, to the step cap); the grammar leaves it the
    choice among the skills named."""
    if step is None:
        return None
    named = {
        name
        for one in doubts
        if one.step == step.id and (one.skill_instead or (one.asks_only and step.skill == GUI))
        for name in one.skills
    }
    offered = catalog.among(named)
    return offered if len(offered) else None
