"""A file's reader or writer of the wrong kind, swapped for its kind's before anything runs.

A small planner names the right file and picks the text file's skill for it
(`write_text_file(path="Documents/TechCompanies.docx")`), or the document's for a `.txt`. The
path is refused, the Manager is re-asked, and told that the path is of another kind it as often
changes the path as the skill (a right `.docx` became a `.txt`). Reading or writing a whole file
is one operation whichever kind the file is, and which skill does it for a `.docx` follows from
the typed path (:func:`pcagent.skills.common.kind_twin`), so the call is given to that skill
with the same arguments. Only where nothing is lost: an argument the other skill does not take
must be at its default (were there a writer without `append`, `append: true` would stay
refused). A name given without an ending to a writer of documents keeps that writer and takes
its kind's usual ending (:func:`pcagent.skills.common.with_usual_ending`).
"""

from __future__ import annotations

from pcagent.agents.program import Program, ProgramStep
from pcagent.skills import SkillCatalog
from pcagent.skills.common import kind_twin, with_usual_ending


def with_kind_twins(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each whole-file read or write given to the skill of its path's kind
    (the plan then shows the call as it runs)."""
    return Program(steps=[_swapped(step, catalog) or step for step in program.steps])


def _swapped(step: ProgramStep, catalog: SkillCatalog) -> ProgramStep | None:
    path = step.args.get("path")
    if not isinstance(path, str) or step.skill not in catalog:
        return None
    if ended := with_usual_ending(step.skill, path):
        return step.model_copy(update={"args": {**step.args, "path": ended}})
    twin = kind_twin(step.skill, path)
    if not twin or twin not in catalog:
        return None
    own = catalog.get(step.skill).parameters.model_fields
    takes = catalog.get(twin).parameters.model_fields
    dropped = [name for name in step.args if name not in takes]
    if any(name not in own or step.args[name] != own[name].default for name in dropped):
        return None
    args = {name: value for name, value in step.args.items() if name in takes}
    return step.model_copy(update={"skill": twin, "args": args})
