"""A file that only memory's examples name, written with a value: the value is told instead.

Why: shown programs of similar tasks, the 1.5B Manager copies their steps with their files.
Asked "... how long the journey takes, and let me know?", it found the 38 minutes and wrote them
into ``Documents/logbook_entry.txt``, a file of an example, and nobody was told (a rewording of
pc02, 2026-11-28, evening; the doubt "neither the instruction nor an earlier step names this
file" re-asked it, and it wrote the same program again). That a step's file is named by the
examples shown and by nothing the run was given is in the program and the prompt, not in the
instruction's wording; such a file is the example's, and what the step would write in it is
the value the program found: ``tell_user`` says it to the person, and no file is made up in
their HOME. A step that writes more than a text (a sheet's rows, a document's formatting) is
left to its doubt, and so is one in an application the instruction asks for (the applications'
reading): there the file is wanted and only its name is the example's. Told instead, a
translation asked "into a new LibreOffice Writer document" and saved "as translation" was
said to the person, no document was written, and the run said "finished" (a rewording of
pc21 at 5c481a6, 2026-12-06); left to its doubt, the Manager is asked for the step again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import PurePosixPath

from pcagent.agents.asked_answer import TELLS
from pcagent.agents.program import Program, ProgramStep
from pcagent.skills import SkillCatalog
from pcagent.text import contains

#: What a text-writing step may hold besides its file and its text.
_TEXT_WRITE = frozenset({"text", "append"})


def with_example_files_told(
    program: Program,
    catalog: SkillCatalog,
    examples: str,
    given: Sequence[str],
    asked_apps: Collection[str] = (),
) -> Program:
    """``program`` with each step that writes only a text into files that only ``examples``
    name (not ``given``: the instruction and the values found), in no application of
    ``asked_apps``, made a ``tell_user`` of that text; ``program`` itself when none is."""
    if not examples or TELLS not in catalog:
        return program
    steps = [_told(step, catalog, examples, given, asked_apps) for step in program.steps]
    if all(new is old for new, old in zip(steps, program.steps, strict=True)):
        return program
    return program.model_copy(update={"steps": steps})


def _told(
    step: ProgramStep,
    catalog: SkillCatalog,
    examples: str,
    given: Sequence[str],
    asked_apps: Collection[str],
) -> ProgramStep:
    if step.skill not in catalog or "text" not in step.args:
        return step
    one = catalog.get(step.skill)
    if not one.writes or set(step.args) - {*one.writes, *_TEXT_WRITE}:
        return step
    if set(one.apps) & set(asked_apps):
        return step
    paths = one.written_files(step.args)
    if not paths or not all(_examples_file(path, examples, given) for path in paths):
        return step
    return ProgramStep(id=step.id, skill=TELLS, args={"text": step.args["text"]})


def _examples_file(path: str, examples: str, given: Sequence[str]) -> bool:
    """Whether the examples name the file ``path`` and nothing given names it (by its name, or
    by its stem: "save it as TechCompanies")."""
    name = PurePosixPath(path).name
    stem = PurePosixPath(name).stem or name
    return contains(examples, name) and not any(contains(text, stem) for text in given)
