"""A doubted step does not move or write over the user's files: it is left out, with the steps
that depend on it.

A program kept with its doubts runs, and the run ends "unverified"; but a doubted step that
moves a file that is there, or writes over one, changes the user's files on a judgement the
checks already doubt. Seen on a rewording of pc14 (2026-11-28): the translation was added
below the document's text, right, and then, copied from a remembered program, a folder of an
example ("Keepsakes", named nowhere in the instruction) was made and the user's document moved
into it; both steps carried the doubt, the run said "unverified", and the document was no
longer where the user keeps it. So such a step is left out, and so is every later step that
uses its value or works on a path it changes; the last step kept carries what was left out and
why: nothing the user has is changed on a doubt, and the run still ends "unverified". Where
every step would be left out, no program is kept at all: the Manager falls back as for a
program it could not use (a first plan becomes the instruction as one screen step, a re-plan
the failed step retried on the screen, or nothing left to try).

Until 2026-12-06 the program was cut before the first such step, and every step after it went
too: a rewording of pc23 appended the destination read out of the person's travel plan back
into it (:mod:`written_back`), and the calculator's count of days after it, which did not
depend on it, would have gone with it. Where a screen step comes after the first such step, the
program is still cut there (a screen step's words may rely on what the left-out step did).

A step that creates a new folder or file is left out the same way where the path it names is
one neither the instruction nor a value found names (an example's): pc11 at 2e14a63
(2026-12-05) re-planned by copying a remembered program whole, and made
"Documents/bin_counts.txt" and a folder "Outbox" in the person's HOME, each step doubted for
that name. A step that creates under a name given is left to run, and so is a screen step,
whose files are guarded by the effect checks; what is "there" is asked of the run
(``is_file``), and a file an earlier step read counts as there.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.existing_files import FileCheck, plain_path, skill_calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, steps_used
from pcagent.skills import SkillCatalog


def without_doubted_changes(
    program: Program,
    doubts: Sequence[Doubt],
    catalog: SkillCatalog,
    is_file: FileCheck | None = None,
) -> tuple[Program, list[Doubt]]:
    """``program`` without its doubted steps that move or write over a file that is there, or
    make a file or folder under a name nothing given names, and without the later steps that
    depend on them (cut at the first of them where a screen step follows it), with the doubts
    of the steps kept and one on the last of them that says what was left out; the program and
    doubts as they are where no step is left out. Where none would be left, no step and that
    one doubt (on the first step): the Manager then has no program to run
    (:meth:`~pcagent.agents.manager.Manager._kept`). Until 2026-12-07 such a program ran as
    written: a re-plan of a rewording of pc11 copied a remembered program whole, an example's
    workbook and then a move of the person's movie_rate.xlsx into an example's folder
    "Outbox", each doubted, and both ran (at 66e0f23)."""
    changes = _doubted_changes(program, doubts, catalog, is_file)
    if not changes:
        return program, list(doubts)
    ids = [step.id for step in program.steps]
    first = min(ids.index(step) for step in changes)
    later = program.steps[first:]
    if any(step.skill == GUI or step.skill not in catalog for step in later):
        left = {step.id for step in later}
    else:
        left = _with_dependants(later, changes, catalog)
    kept = Program.model_construct(steps=[s for s in program.steps if s.id not in left])
    why = "; ".join(
        f"{step} would change {', '.join(dict.fromkeys(paths))} on a doubt ({doubt.problem})"
        for step, (paths, doubt) in changes.items()
        if step in left
    )
    gone = [step for step in ids if step in left]
    note = Doubt(
        kept.steps[-1].id if kept.steps else ids[0],
        f"{_listed(gone)} {'was' if len(gone) == 1 else 'were'} left out: {why}",
    )
    if not kept.steps:
        return kept, [note]
    kept_ids = {step.id for step in kept.steps}
    return Program(steps=kept.steps), [*(d for d in doubts if d.step in kept_ids), note]


def _doubted_changes(
    program: Program,
    doubts: Sequence[Doubt],
    catalog: SkillCatalog,
    is_file: FileCheck | None,
) -> dict[str, tuple[list[str], Doubt]]:
    """Each doubted skill step (up to the first screen step) that changes files that are there
    or makes one under a name nobody gave: the paths, and the doubt."""
    doubted = {doubt.step: doubt for doubt in doubts}
    unnamed = {doubt.step: doubt for doubt in doubts if doubt.unnamed_path}
    read: set[str] = set()
    found: dict[str, tuple[list[str], Doubt]] = {}
    for step, skill, literal in skill_calls(program, catalog):
        changed = [
            *map(plain_path, skill.moved_files(literal)),
            *(
                path
                for path in map(plain_path, skill.written_files(literal))
                if path in read or (is_file is not None and is_file(path))
            ),
        ]
        doubt = doubted.get(step.id)
        if step.id in unnamed and not skill.only_reads and not changed:
            changed, doubt = [plain_path(unnamed[step.id].unnamed_path)], unnamed[step.id]
        if doubt is not None and changed:
            found[step.id] = (changed, doubt)
        read.update(map(plain_path, skill.read_files(literal)))
    return found


def _with_dependants(
    steps: Sequence[ProgramStep],
    changes: dict[str, tuple[list[str], Doubt]],
    catalog: SkillCatalog,
) -> set[str]:
    """The steps of ``changes`` and each of ``steps`` that uses a value of one left out or
    works on a path one left out would have changed."""
    left = set(changes)
    paths = {path for changed, _ in changes.values() for path in changed}
    for step, one, literal in skill_calls(Program.model_construct(steps=list(steps)), catalog):
        if step.id in left:
            continue
        moved = one.moved_files(literal)
        touched = {
            *one.read_files(literal),
            *one.written_files(literal),
            *moved,
            *moved.values(),
        }
        if set(steps_used(step)) & left or {plain_path(path) for path in touched} & paths:
            left.add(step.id)
            paths.update(plain_path(path) for path in one.written_files(literal))
    return left


def _listed(ids: Sequence[str]) -> str:
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"
