"""A screen step whose task is a skill's name, on one file, becomes that skill's call.

Why: asked for one step alone (the file manager the instruction names was left unused), the
1.5B Manager wrote a screen step for the file manager with the task ``"open_file"`` and the
file ``Documents/test_doc3.docx``: the name of the skill that opens a file, written where a
task in words belongs. The Decision loop opened the file three times, its Progress never saw
the step done, and the run spent its steps on it (a rewording of pc14, 2026-12-03). A task that
is exactly a skill's name is that skill asked for, a typed value the model chose; where the
skill's one required parameter is a path, an application it needs is the step's, and the step
names one file, the call is written with it. Any other screen step stays a screen step.
"""

from __future__ import annotations

from pcagent.agents.program import GUI, Program, ProgramStep
from pcagent.skills import SkillCatalog


def with_skill_named_tasks_called(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each screen step whose task names a skill of one path made that call;
    ``program`` itself where none is."""
    steps = [_called(step, catalog) for step in program.steps]
    changed = any(new is not old for new, old in zip(steps, program.steps, strict=True))
    return program.model_copy(update={"steps": steps}) if changed else program


def _called(step: ProgramStep, catalog: SkillCatalog) -> ProgramStep:
    name = step.task.strip()
    if step.skill != GUI or name not in catalog or len(step.files) != 1:
        return step
    skill = catalog.get(name)
    required = [n for n, f in skill.parameters.model_fields.items() if f.is_required()]
    if required != ["path"] or (skill.apps and step.app not in skill.apps):
        return step
    return ProgramStep(id=step.id, skill=name, args={"path": step.files[0]})
