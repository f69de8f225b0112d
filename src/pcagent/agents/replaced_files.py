"""A file read for what it holds, then written over with something not made from it.

A program that reads a file and later replaces it loses what the file held, unless what it
writes is built on what it read (a corrected script written back, a note with a line changed).
Seen: the 1.5B planner read the meeting place out of the user's note, searched the web, took
"10 results" off the results page and wrote that over the note (a rewording of pc02,
2026-11-28); each step checked its own effect and the note was gone but for the run's HOME
snapshot. Judged on the typed program: what each skill declares it reads and writes, whether
a write appends, and which earlier steps' values each step uses, directly or through others.
A step that reads and writes the same file itself (formatting a document in place) changes it
rather than replaces it, and is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.existing_files import plain_path, skill_calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep, steps_used
from pcagent.skills import SkillCatalog


def replaced_files(
    program: Program, catalog: SkillCatalog, finished: Sequence[ProgramStep] = ()
) -> list[Doubt]:
    """A doubt on each step of ``program`` that replaces a file an earlier step (of the
    program, or ``finished`` before it) read, with a value that step's reading did not go
    into."""
    # Built unchecked: a re-plan's steps with the finished ones may be more than a program's
    # length limit (a re-plan of pc03r1 after twelve steps raised it and ended the run).
    whole = Program.model_construct(steps=[*finished, *program.steps])
    own = {step.id for step in program.steps}
    read_by: dict[str, str] = {}  # path -> the first step that read it
    built_on: dict[str, set[str]] = {}  # step -> every earlier step its values come from
    doubts = []
    for step, skill, literal in skill_calls(whole, catalog):
        sources = set(steps_used(step))
        built_on[step.id] = sources.union(*(built_on.get(s, set()) for s in sources))
        reads = {plain_path(path) for path in skill.read_files(literal)}
        replaces = step.id in own and literal.get("append") is not True
        for path in map(plain_path, skill.written_files(literal) if replaces else ()):
            reader = read_by.get(path)
            # Read and written by the step itself: changed in place, not replaced.
            if reader is not None and path not in reads and reader not in built_on[step.id]:
                doubts.append(_replaced(step.id, path, reader))
        for path in reads:
            read_by.setdefault(path, step.id)
    return doubts


def _replaced(step: str, path: str, reader: str) -> Doubt:
    return Doubt(
        step,
        f"{step} writes over {path}, which {reader} read, with a value not made from what "
        f"{reader} read: what the file holds would be lost. Write to a new file, or set "
        f'append; change the file only with a text made from {reader}\'s value ({{"from": '
        f'"{reader}"}})',
    )
