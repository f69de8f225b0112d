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

from collections.abc import Callable, Iterator
from typing import Any

from pcagent.agents.program import GUI, Program, ProgramStep, is_reference, written_path
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
        if step.skill == GUI or step.skill not in catalog:
            return
        literal = {name: value for name, value in step.args.items() if not is_reference(value)}
        yield step, catalog.get(step.skill), literal


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
                    "there (a file the instruction asks for is made by a skill that writes it)"
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


def plain_path(path: str) -> str:
    """A path as the application actions resolve it, so two spellings of one file compare
    equal ("~/Documents/a.txt", "Documents/a.txt")."""
    return str(written_path(path))
