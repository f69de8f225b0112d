"""What long-term memory shows the Manager: programs of similar earlier tasks, as examples
before the instruction, and the skills by which the examples are picked.

Kept apart from the Manager's asking so that the one place that decides which remembered
programs a small model is shown, and in what order, is short enough to read at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from pydantic import JsonValue

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


@dataclass(frozen=True)
class Example:
    """One remembered program as the Manager is shown it: the earlier instruction (its spaces
    joined, a long one cut) and the program's steps as the Manager writes them (JSON objects,
    fields at their defaults left out, long literals cut). Typed, so that what is shown of it
    (the whole program, or its steps that call one skill) is picked from the steps, not from
    the prompt's text."""

    instruction: str
    steps: tuple[dict[str, JsonValue], ...]

    def shown(self) -> str:
        """The example's two prompt lines, ``Instruction: ...`` and ``Program: ...`` (compact
        JSON on one line)."""
        program = _compact({"steps": list(self.steps)})
        return f"Instruction: {self.instruction}\n{PROGRAM_LINE}{program}"

    def calling(self, wanted: Collection[str]) -> str:
        """The instruction and the steps that call one of ``wanted``, a line each ("" where
        none does)."""
        kept = [_compact(step) for step in self.steps if step.get("skill") in wanted]
        if not kept:
            return ""
        return f"Instruction: {self.instruction}\n" + "\n".join(f"Step: {step}" for step in kept)


def _compact(value: JsonValue) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def shown_examples(examples: Sequence[Example]) -> str:
    """Examples as prompt lines, one after another ("" for none)."""
    return "\n".join(example.shown() for example in examples)


class Remembers(Protocol):
    """Memory's programs for an instruction, nearest first (none where none is alike): the
    ``k`` nearest, or the nearest that call one of the skills ``using``; those that call a skill
    of each group of ``covering`` first, and of those, where any calls none of the skills
    ``avoiding``, only those; and of what is left, where any is ``preferring``, only those."""

    def __call__(
        self,
        instruction: str,
        k: int = ...,
        using: Collection[str] = ...,
        covering: Sequence[Collection[str]] = ...,
        avoiding: Collection[str] = ...,
        preferring: Callable[[Sequence[ProgramStep]], bool] | None = ...,
    ) -> Sequence[Example]: ...


def skills_of_apps(skills: SkillCatalog, asked: Sequence[AskedApp]) -> list[list[str]]:
    """For each application asked for, the skills that work in it (none listed for one no
    skill works in)."""
    groups = [[one.name for one in skills.working_in(app.app)] for app in asked]
    return [group for group in groups if group]


def skills_outside_apps(skills: SkillCatalog, asked: Sequence[AskedApp]) -> list[str]:
    """The skills that work only in applications the instruction does not ask for (a
    language skill, which works in none, is not one of them). Lookups among them too: with
    the web's skills let through where the browser was not read as asked, the nearest program
    shown for an alarm before a memo's entry became a film's look-up with an alarm, and the
    1.5B Manager's program set no alarm (a rewording of pc01 at c88c274, 2026-12-08)."""
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
    remembered = list(memory(instruction, **filters)) if memory is not None else []
    if nearest_last:
        remembered.reverse()
    shown = shown_examples(remembered)
    return f"{EXAMPLES_INTRO}{shown}\n\n" if shown else ""


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
    shown = memory(instruction, 1, wanted, **filters) if wanted and memory is not None else ()
    calls = " or ".join(wanted)
    # Only the steps that make the call: shown the whole program of a similar task on a
    # re-ask, the 1.5B model wrote it whole, with that task's file and its extraction's words,
    # in place of its own: an alarm an hour before a memo's entry lost the hour (a rewording
    # of pc01, 2026-12-04); a rewording of pc05 searched for an example's film and a rewording
    # of pc09 wrote an example's document (the same day). The call is what the model lacked;
    # the rest of the example is another task's.
    if calls_alone := next((one.calling(wanted) for one in shown[:1]), ""):
        text += f"\nA similar earlier task, and its step that calls {calls}:\n{calls_alone}"
    elif shown:
        text += f"\nA similar earlier task whose program calls {calls}:\n{shown_examples(shown)}"
    return text
