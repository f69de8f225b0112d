"""A file a program reads must be there before it runs.

A small planner reads the file the instruction asks it to write (pc24: "note the cheapest shop
in switch_price.txt" began with reading switch_price.txt, which did not exist; the step failed,
and the re-plan read it again). What the skills read is declared with each skill (``reads``), the
files a program writes before it reads them count as there, and whether a path names a file is
asked of the run, which knows the desktop's HOME: the agents never look at the disk themselves.
A step through the screen may create any file, so the check stops at the first one. A file an
earlier step moves (``move_files``) is read at its new place: a planner that moved a report into a
new folder attached it from the old one; nor is a new file written where an earlier step moved
one away from (a planner moved a formatted document into a folder, then wrote a new document of
the same name in the old place, and the run said "finished": generated tasks of seed 2028).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pcagent.agents.program import (
    Program,
    ProgramStep,
    is_reference,
    skill_of,
    written_path,
)
from pcagent.agents.unused_values import values_used
from pcagent.skills import SkillCatalog
from pcagent.skills.base import Skill

#: Whether a path (as a program writes it: relative to HOME, or ``~/...``) names a file there.
FileCheck = Callable[[str], bool]


def skill_calls(
    program: Program, catalog: SkillCatalog
) -> Iterator[tuple[ProgramStep, Skill[Any], dict[str, Any]]]:
    """Each step of ``program`` with its skill and its literal arguments (references left
    out), up to the first screen step or unknown skill: a step through the screen may create
    or move any file, so what the files are after it is not known."""
    for step in program.steps:
        one = skill_of(step, catalog)
        if one is None:
            return
        literal = {name: value for name, value in step.args.items() if not is_reference(value)}
        yield step, one, literal


def _makers(catalog: SkillCatalog) -> str:
    """The skills that make a file without reading one (a document written, a mail's
    attachment saved), by name: the 1.5B Manager, told only that a file is not there, read it
    again in each re-ask and never saved the attachment it came in (a rewording of pc18,
    2026-12-03)."""
    return ", ".join(one.name for one in catalog if one.writes and not one.reads)


def missing_files(program: Program, catalog: SkillCatalog, is_file: FileCheck) -> list[str]:
    """A problem for each literal path a step reads that is neither a file in HOME nor one an
    earlier step writes, or that an earlier step moved away, and for each it writes anew
    where an earlier step moved a file away from."""
    written: set[str] = set()
    moved: dict[str, tuple[str, str]] = {}  # old path -> (new path, the step that moved it)
    problems: list[str] = []
    for step, one, literal in skill_calls(program, catalog):
        reads = list(map(plain_path, one.read_files(literal)))
        for path in reads:
            if path in moved:
                new, mover = moved[path]
                problems.append(
                    f"{step.id}: {path!r} is no longer there: {mover} moves it to {new!r}; use "
                    f"that path, or {mover}'s value"
                )
            elif path not in written and not is_file(path):
                problems.append(
                    f"{step.id}: {path!r} is no file in HOME: read or change only a file that is "
                    f"there, or one an earlier step makes ({_makers(catalog)})"
                )
        for path in map(plain_path, one.written_files(literal)):
            if path in moved and path not in reads:  # a read of it is a problem above
                new, mover = moved[path]
                problems.append(
                    f"{step.id}: {path!r} is written where {mover} moved it away from (to "
                    f"{new!r}): work on a moved file at its new place"
                )
            written.add(path)
        for old, new in one.moved_files(literal).items():
            gone, there = plain_path(old), plain_path(new)
            moved[gone] = (there, step.id)
            moved.pop(there, None)
            written.discard(gone)
            written.add(there)
    return problems


def without_unused_missing_reads(
    program: Program, catalog: SkillCatalog, is_file: FileCheck
) -> Program:
    """``program`` without each step that only reads files none of which is there yet (nor
    written before it) and whose value no later step uses: a reading of nothing, for nothing.
    Why: asked for a new document, the 1.5B planner began with reading it (pc09r1, 2026-11-28:
    the right `compose_text` and `write_document` after it); the step could only fail, and the
    re-asks that named it lost the rest of the program. Anything else a missing file makes is
    a problem (:func:`missing_files`)."""
    written: set[str] = set()
    dropped: set[str] = set()
    for step, one, literal in skill_calls(program, catalog):
        reads = {plain_path(path) for path in one.read_files(literal)}
        missing = bool(reads) and not any(p in written or is_file(p) for p in reads)
        used = any(step.id in values_used(later) for later in program.steps)
        if missing and not one.written_files(literal) and not used:
            dropped.add(step.id)
        written.update(map(plain_path, one.written_files(literal)))
        written.update(map(plain_path, one.moved_files(literal).values()))
    if not dropped or len(dropped) == len(program.steps):
        return program
    return Program(steps=[step for step in program.steps if step.id not in dropped])


def works_on_given_file(steps: Sequence[ProgramStep], catalog: SkillCatalog) -> bool:
    """Whether a step of ``steps`` reads or changes a file no earlier step wrote: one the
    person had before the task (a note read, a document formatted, a report attached). What
    memory shows the Manager for an instruction that names such a file is sorted by it: shown
    three programs that each work on a file, only the one of them that read a given note
    first, the 1.5B model copied one that wrote a new file (pc02, 2026-12-01)."""
    written: set[str] = set()
    for _step, one, literal in skill_calls(Program(steps=list(steps)), catalog):
        if any(plain_path(path) not in written for path in one.read_files(literal)):
            return True
        written.update(map(plain_path, one.written_files(literal)))
        written.update(map(plain_path, one.moved_files(literal).values()))
    return False


def plain_path(path: str) -> str:
    """A path as the application actions resolve it, so two spellings of one file compare
    equal ("~/Documents/a.txt", "Documents/a.txt")."""
    return str(written_path(path))
