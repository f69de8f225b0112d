"""A doubted step does not move or write over the user's files: the program stops before it.

A program kept with its doubts runs, and the run ends "unverified"; but a doubted step that
moves a file that is there, or writes over one, changes the user's files on a judgement the
checks already doubt. Seen on a rewording of pc14 (2026-11-28): the translation was added
below the document's text, right, and then, copied from a remembered program, a folder of an
example ("Keepsakes", named nowhere in the instruction) was made and the user's document moved
into it; both steps carried the doubt, the run said "unverified", and the document was no
longer where the user keeps it. So the program is cut before the first such step, and the step
it now ends with carries what was left out and why: nothing asked is lost by stopping (the run
still ends "unverified"), and nothing the user has is changed on a doubt.

A step that creates a new folder or file is cut the same way where the path it names is one
neither the instruction nor a value found names (an example's): pc11 at 2e14a63 (2026-12-05)
re-planned by copying a remembered program whole, and made "Documents/bin_counts.txt" and a
folder "Outbox" in the person's HOME, each step doubted for that name. A step that creates
under a name given is left to run, and so is a screen step, whose files are guarded by the
effect checks; what is "there" is asked of the run (``is_file``), and a file an earlier step
read counts as there.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.existing_files import FileCheck, plain_path, skill_calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program
from pcagent.skills import SkillCatalog


def cut_before_doubted_changes(
    program: Program,
    doubts: Sequence[Doubt],
    catalog: SkillCatalog,
    is_file: FileCheck | None = None,
) -> tuple[Program, list[Doubt]]:
    """``program`` without its first doubted step that moves or writes over a file that is
    there, or makes a file or folder under a name nothing given names, and every step after
    it, with the doubts of the steps kept and one on the last of them that says what was left
    out; the program and doubts as they are where no step is cut (or where the first step
    would be: an empty program cannot run)."""
    doubted = {doubt.step: doubt for doubt in doubts}
    unnamed = {doubt.step: doubt for doubt in doubts if doubt.unnamed_path}
    read: set[str] = set()
    for index, (step, skill, literal) in enumerate(skill_calls(program, catalog)):
        changed = [
            *map(plain_path, skill.moved_files(literal)),
            *(
                path
                for path in map(plain_path, skill.written_files(literal))
                if path in read or (is_file is not None and is_file(path))
            ),
        ]
        if step.id in unnamed and not skill.only_reads and not changed:
            changed = [plain_path(unnamed[step.id].unnamed_path)]
            doubted[step.id] = unnamed[step.id]
        if step.id in doubted and changed and index > 0:
            kept = Program(steps=program.steps[:index])
            ids = {one.id for one in kept.steps}
            left = Doubt(
                kept.steps[-1].id,
                f"{step.id} and the steps after it were left out: {step.id} would change "
                f"{', '.join(dict.fromkeys(changed))} on a doubt ({doubted[step.id].problem})",
            )
            return kept, [*(d for d in doubts if d.step in ids), left]
        read.update(map(plain_path, skill.read_files(literal)))
    return program, list(doubts)
