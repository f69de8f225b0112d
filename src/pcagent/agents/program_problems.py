"""What makes a written program unusable, before anything runs.

A program with a problem is never kept as it is: the Manager is re-asked with it, and where
every ask had one, its faulty steps are asked for alone (:mod:`focused_steps`). Doubts are the
other kind of finding: a program with doubts is usable, and kept where nothing better comes.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.existing_files import FileCheck, missing_files
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import Program, check_program
from pcagent.agents.repeated_steps import finished_calls, only_finished_again, repeated_failure
from pcagent.errors import PlanError
from pcagent.skills import SkillCatalog


def program_problems(
    program: Program,
    skills: SkillCatalog,
    apps: Sequence[str],
    desktops: Sequence[str],
    replanned: tuple[Sequence[SubtaskSpec], SubtaskSpec | None],
    is_file: FileCheck | None,
) -> list[str]:
    """``program``'s validation errors, else the files it reads that are not there and a
    re-plan repeating the call that failed or a value refused. ``replanned``: a re-plan's
    finished steps and the failed one (none and None for a first plan)."""
    known, failed = replanned
    ids, done = [s.id for s in known], finished_calls(known)
    try:
        check_program(program, skills, list(apps), desktops, known=ids, done=done)
    except PlanError as error:
        return [str(error)]
    problems = missing_files(program, skills, is_file) if is_file else []
    repeated = repeated_failure(program, failed, skills, done)
    repeated = repeated or (only_finished_again(program, done, skills) if failed else "")
    return [*problems, repeated] if repeated else problems
