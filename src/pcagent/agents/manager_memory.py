"""What long-term memory shows the Manager: programs of similar earlier tasks, as examples
before the instruction, and the skills by which the examples are picked.

Kept apart from the Manager's asking so that the one place that decides which remembered
programs a small model is shown, and in what order, is short enough to read at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import Any, Protocol

from pcagent.agents.existing_files import FileCheck, works_on_given_file
from pcagent.agents.named_apps import AskedApp
from pcagent.agents.plan import Doubt
from pcagent.agents.program import ProgramStep
from pcagent.skills import SkillCatalog
from pcagent.skills.common import skills_for_file

#: How memory begins the line of an example's program.
PROGRAM_LINE = "Program: "
#: The line above the examples: the 1.5B model copied examples' files and names as its own.
EXAMPLES_INTRO = (
    "Programs of similar earlier tasks that succeeded (they show how such a task is "
    "written; their files, names and values are theirs, not this task's):\n"
)


class Remembers(Protocol):
    """Memory's programs for an instruction, as prompt lines ("" when none): the ``k`` nearest,
    or the nearest that call one of the skills ``using``; those that call a skill of each group
    of ``covering`` first, and of those, where any calls none of the skills ``avoiding``, only
    those; and of what is left, where any is ``preferring``, only those."""

    def __call__(
        self,
        instruction: str,
        k: int = ...,
        using: Collection[str] = ...,
        covering: Sequence[Collection[str]] = ...,
        avoiding: Collection[str] = ...,
        preferring: Callable[[Sequence[ProgramStep]], bool] | None = ...,
    ) -> str: ...


def skills_of_apps(skills: SkillCatalog, asked: Sequence[AskedApp]) -> list[list[str]]:
    """For each application asked for, the skills that work in it (none listed for one no
    skill works in)."""
    groups = [[one.name for one in skills if app.app in one.apps] for app in asked]
    return [group for group in groups if group]


def skills_outside_apps(skills: SkillCatalog, asked: Sequence[AskedApp]) -> list[str]:
    """The skills that work only in applications the instruction does not ask for (a
    language skill, which works in none, is not one of them)."""
    wanted = {app.app for app in asked}
    return [one.name for one in skills if one.apps and not wanted & set(one.apps)]


def with_apps_of_files(
    asked: Sequence[AskedApp], named: Sequence[str], skills: SkillCatalog
) -> tuple[AskedApp, ...]:
    """``asked`` and, for each file ``named`` (a model's reading) whose kind one application
    of the catalog works on, that application where ``asked`` lacks it, the file's name as its
    words: the examples are picked for it too. Why: asked to fill in the ratings missing from
    movie_rate.xlsx, the reading named only the file manager (its words for the browser,
    "imdb.com", name no application), so every program that filled a sheet was held back as
    working in an application not asked for, and the one program shown opened a document
    (a rewording of pc11, 2026-12-02). A file's kind is a typed fact about the file, not a
    reading of the instruction's words."""
    added = {one.app: one for one in asked}
    for name in named:
        owners = {
            app
            for skill in skills_for_file(name)[1]
            if skill in skills
            for app in skills.get(skill).apps
        }
        if len(owners) == 1:
            app = owners.pop()
            added.setdefault(app, AskedApp(app, name))
    return tuple(added.values())


def example_filters(
    skills: SkillCatalog, asked: Sequence[AskedApp], *, only_asked: bool, given_file: bool = False
) -> dict[str, Any]:
    """How memory picks the programs shown for an instruction that asks for the applications
    ``asked`` (none: the nearest as they come), as :class:`Remembers` takes them: those that
    cover them first, and with ``only_asked`` those that work in no other application alone
    where there are any; with ``given_file`` (the instruction names a file that is there), of
    those, the programs that work on a file the person had alone where there are any. The
    first ask and the re-asks pick alike: a re-ask shown the nearest program that found a
    value, a world clock's city, the 1.5B model wrote that program for a travel time (pc02r2,
    2026-11-28)."""
    covering = skills_of_apps(skills, asked)
    avoiding = skills_outside_apps(skills, asked) if asked and only_asked else []
    preferring = partial(works_on_given_file, catalog=skills) if given_file else None
    return {"covering": covering, "avoiding": avoiding, "preferring": preferring}


def names_given_file(named: Sequence[str], is_file: FileCheck | None) -> bool:
    """Whether one of the file names an instruction writes (``named``, a model's reading) is a
    file in HOME (False where the run cannot tell)."""
    return is_file is not None and any(is_file(name) for name in named)


def examples_text(
    memory: Remembers | None, instruction: str, nearest_last: bool = False, **filters: Any
) -> str:
    """The examples part of the Manager's prompt ("" without memory or a similar program),
    picked with ``filters`` (:func:`example_filters`). They come before the instruction, so
    the instruction is what the model reads last: after them, a small model wrote the nearest
    example's files and folders. Memory gives them nearest first; ``nearest_last`` shows them
    the other way round, the nearest next to the instruction (the 1.5B model copied the
    second or third program shown as often as the first)."""
    remembered = memory(instruction, **filters) if memory is not None else ""
    if nearest_last:
        remembered = _nearest_last(remembered)
    return f"{EXAMPLES_INTRO}{remembered}\n\n" if remembered else ""


def _nearest_last(remembered: str) -> str:
    """Memory's examples in the other order. Each is two lines, ``Instruction: ...`` and
    ``Program: ...`` (an instruction's spaces are joined and a program is compact JSON, so
    neither holds a line break)."""
    lines = remembered.split("\n")
    pairs = ["\n".join(lines[i : i + 2]) for i in range(0, len(lines), 2)]
    return "\n".join(reversed(pairs))


def reask_text(
    memory: Remembers | None,
    instruction: str,
    problem: str,
    doubts: Sequence[Doubt],
    filters: dict[str, Any],
) -> str:
    """What the Manager's model is told of its program: every problem, and, where a doubt
    names skills the program could take up, the nearest remembered program that calls one
    (picked with ``filters``). Told only what was wrong, the 1.5B model mostly wrote its
    program again (docs/bench.md, the second rewordings); a call of the missing skill is
    something it can copy."""
    text = f"That program is unusable: {problem}. Write a corrected one."
    wanted = tuple(dict.fromkeys(name for doubt in doubts for name in doubt.skills))
    shown = memory(instruction, 1, wanted, **filters) if wanted and memory is not None else ""
    calls = " or ".join(wanted)
    if calls_alone := _calls_of(shown, wanted):
        text += f"\nA similar earlier task, and its step that calls {calls}:\n{calls_alone}"
    elif shown:
        text += f"\nA similar earlier task whose program calls {calls}:\n{shown}"
    return text


def _calls_of(shown: str, wanted: Collection[str]) -> str:
    """A remembered program shown (``Instruction: ...`` and ``Program: ...``) as its
    instruction and its steps that call one of ``wanted``; "" where it has none. Why: shown
    the whole program of a similar task on a re-ask, the 1.5B model wrote it whole, with that
    task's file and its extraction's words, in place of its own: an alarm an hour before a
    memo's entry lost the hour (a rewording of pc01, 2026-12-04); a rewording of pc05 searched
    for an example's film and a rewording of pc09 wrote an example's document (the same day).
    The call is what the model lacked; the rest of the example is another task's."""
    lines = shown.split("\n")
    if len(lines) != 2 or not lines[1].startswith(PROGRAM_LINE):
        return ""
    try:
        steps = json.loads(lines[1].removeprefix(PROGRAM_LINE)).get("steps", [])
    except (ValueError, AttributeError):
        return ""
    kept = [
        json.dumps(step, ensure_ascii=False, separators=(",", ":"))
        for step in steps
        if isinstance(step, dict) and step.get("skill") in wanted
    ]
    return f"{lines[0]}\n" + "\n".join(f"Step: {step}" for step in kept) if kept else ""
