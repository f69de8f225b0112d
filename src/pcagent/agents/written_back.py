"""A file written with nothing but what was read out of that same file.

Seen: asked to read a travel plan, add its destination to the world clocks and count the days
to the trip, the 1.5B planner read the plan, picked the destination out of it, and then
appended the destination to the person's own plan (a rewording of pc23, 2026-12-06). The step
checked its own effect (the file held the text) and nothing doubted it: a value read from a
file and written back into it adds nothing the file did not hold (appended), or keeps one piece
of it and loses the rest (written over); either way the person's file changes for nothing they
asked. :mod:`replaced_files` sees only a file written over with a value *not* made from it.

Judged on the typed program alone: which step reads a file whole (:attr:`Skill.only_reads`),
which copies pieces out of a text (:attr:`Skill.quotes`), and which texts a writing step
writes. A text written with words of its own beside the values ("Trip to {s2.city}") is new
and left alone, and so is a step that reads and writes the same file itself (a change in place).
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.existing_files import plain_path, skill_calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference
from pcagent.skills import SkillCatalog


def written_back(
    program: Program, catalog: SkillCatalog, finished: Sequence[ProgramStep] = ()
) -> list[Doubt]:
    """A doubt on each step of ``program`` that writes into a file only texts an earlier step
    (of the program, or ``finished`` before it) read out of that same file, whole or in
    pieces."""
    # Built unchecked, as in replaced_files: finished and new steps may pass a program's limit.
    whole = Program.model_construct(steps=[*finished, *program.steps])
    own = {step.id for step in program.steps}
    read_from: dict[str, tuple[str, str]] = {}  # step -> (file its value is from, reader)
    doubts = []
    for step, skill, literal in skill_calls(whole, catalog):
        reads = [plain_path(path) for path in skill.read_files(literal)]
        if skill.only_reads and len(reads) == 1:
            read_from[step.id] = (reads[0], step.id)
        elif skill.quotes and (origin := _origin(step.args.get(skill.quotes), read_from)):
            read_from[step.id] = origin
        if step.id not in own:
            continue
        written = [plain_path(path) for path in skill.written_files(literal)]
        texts = [step.args[name] for name in skill.texts if name in step.args]
        for path in (one for one in written if one not in reads):
            origins = [_origin(text, read_from) for text in texts]
            if origins and all(origin and origin[0] == path for origin in origins):
                doubts.append(_written_back(step.id, path, origins[0][1]))  # type: ignore[index]
    return doubts


def _origin(value: object, read_from: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """The file (and the step that read it) a text is made of, where it is nothing but values
    read out of one file: a reference, or slots with only spaces between them."""
    if is_reference(value):
        sources = [value["from"]]  # type: ignore[index]
    elif isinstance(value, str) and not SLOT.sub("", value).strip():
        sources = [match.group(1) for match in SLOT.finditer(value)]
    else:
        return None
    found = {read_from.get(source) for source in sources}
    if len(found) != 1 or None in found:
        return None
    return found.pop()


def _written_back(step: str, path: str, reader: str) -> Doubt:
    return Doubt(
        step,
        f"{step} writes into {path} only what {reader} read out of {path} itself: the file "
        f"holds it already, and the person's file would change for nothing. Leave {path} as it "
        "is unless the instruction asks for it to change; write what it asks to be written "
        "into the file it names for that",
    )
