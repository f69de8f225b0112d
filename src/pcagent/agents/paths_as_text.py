"""A file's path written as a text: a doubt.

Why: asked to make a document's title one font size step larger, a program opened the document,
made its title bold and then added the text "Documents/test_doc1.docx" at its end; each step
checked its effect and the run said "finished" (a rewording of pc22, 2026-12-02). A path is
given in the instruction, so the check of given values let it pass; but what a step writes,
types, sends or tells is what the instruction gives to write, what a step found or what a
language step composed, never the name of a file the program works on. Judged on the typed
program: a whole-text parameter (``Skill.takes_text``) given as a literal that is one of the
paths the program's steps read, write or move, or that file's name. No gold program of the
generated tasks does so.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from pcagent.agents.existing_files import plain_path
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program
from pcagent.skills import SkillCatalog


def _comparable(path: str) -> str:
    return plain_path(path).strip("/").casefold()


def _program_paths(program: Program, skills: SkillCatalog) -> set[str]:
    """The paths the steps of ``program`` read, write or move, and those files' names."""
    found: set[str] = set()
    for step in program.steps:
        if step.skill == GUI or step.skill not in skills:
            continue
        one = skills.get(step.skill)
        moved = one.moved_files(step.args)
        for path in (
            *one.read_files(step.args),
            *one.written_files(step.args),
            *moved,
            *moved.values(),
        ):
            if isinstance(path, str) and path.strip():
                found |= {_comparable(path), _comparable(PurePosixPath(path).name)}
    return found - {""}


def paths_as_text(program: Program, skills: SkillCatalog) -> list[Doubt]:
    """A doubt on each step whose whole text (what it writes, types, sends, tells) is one of
    the program's file paths or file names."""
    paths = _program_paths(program, skills)
    doubts = []
    for step in program.steps:
        if step.skill == GUI or step.skill not in skills:
            continue
        one = skills.get(step.skill)
        for name, value in step.args.items():
            if one.takes_text(name) and isinstance(value, str) and _comparable(value) in paths:
                doubts.append(
                    Doubt(
                        step.id,
                        f"{step.id} gives {step.skill} the file path {value!r} as its {name}: "
                        "a text to write, type, send or tell is one the instruction gives, a "
                        "step finds or a language step composes, not the name of a file the "
                        "program works on",
                        own=True,
                    )
                )
                break
    return doubts
