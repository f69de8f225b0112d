"""A program that is an example's program with one step that leaves something done taken out
(or two such steps): a doubt naming that step (or both).

Why: the 1.5B Manager copies the nearest remembered program and now and then drops a step. pc10
at 2e14a63 (2026-12-05) was shown a program that searched a paper, followed its link, followed
"Download PDF", extracted the abstract and wrote the document; it wrote the same program without
the download, every step's check passed, and the run said "finished" with nothing downloaded.
No check of a step can see a step that is not there, and which ends the person asked for is a
reading of their words (:mod:`left_out_effects`, off: the model reads it badly). The program
and the examples are typed: that the program is an example's skills, in order, less exactly one
call of a skill that leaves something done (:data:`pcagent.skills.effects.ENDS`) is a fact of the
two programs. Whether this task asks for that step too is the model's: the doubt asks it, the
Manager is re-asked with the example's call, then asked for that one step alone, where it may
write none (:mod:`focused_steps`), and a program kept without the step ends the run
``unverified`` at best, never "finished".

Two such steps taken out are named together, in one doubt: the Manager is re-asked with it;
two in a row are then asked for together, as one step is; a program kept with it ends the run
``unverified``. A step of the example that only reads or works a value out (a search, an
extraction) is not named: leaving one out is other checks' business (a value used and never
found, an unused one), and examples differ in such steps more than in what they leave done.

Where an example shown is the program's own skills in order, nothing is doubted: the memory
then holds programs of both lengths, and which one this task is, is a reading of the words
that no comparison of programs settles. pc22 and a rewording of it at 5c481a6 (2026-12-06)
wrote `open_file` and one `format_paragraphs` (the title one size larger), as a shown example
of that shape did; doubted against another example that also centred the title and enlarged
its first paragraph, the Manager copied that one, and the run said "finished" on a centred
title and a larger first paragraph.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import combinations

from pcagent.agents.manager_memory import PROGRAM_LINE
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, literal_texts
from pcagent.skills.effects import ENDS

#: The skills that leave something done in an application (each end's needs).
EFFECT_SKILLS = frozenset(
    skill
    for _, ends in ENDS.values()
    for end in ends
    for alternatives in end.needs
    for skill in alternatives
)


def steps_left_out_of_examples(program: Program, examples: str) -> list[Doubt]:
    """A doubt for each call of an effect's skill that an example shown makes and ``program``
    leaves out, where the program is otherwise that example's skills in order."""
    skills = [step.skill for step in program.steps]
    programs = list(_example_programs(examples))
    if any([str(step.get("skill", "")) for step in steps] == skills for steps in programs):
        return []  # an example written just so: how many such steps is the instruction's
    doubts: dict[str, Doubt] = {}
    for steps in programs:
        example = [str(step.get("skill", "")) for step in steps]
        index = _left_out(skills, example, steps)
        if index is None:
            if pair := _two_left_out(skills, example, steps):
                doubts.setdefault(*_two_doubt(program, steps, pair))
            continue
        if steps[index].get("skill") not in EFFECT_SKILLS:
            continue
        call = json.dumps(steps[index], ensure_ascii=False, separators=(",", ":"))
        at = program.steps[max(index - 1, 0)].id
        where = f"after {at}" if index else "first"
        doubts.setdefault(
            call,
            Doubt(
                at,
                f"a similar earlier task's program is this one with one more step, {call} "
                f"({where} here), which this program leaves out: where the "
                "instruction asks for that too, add the step with this task's values; "
                "where it does not, keep the program as it is",
                skills=(str(steps[index]["skill"]),),
                wanted_after=at if index else "",
            ),
        )
    return list(doubts.values())


def _left_out(skills: Sequence[str], example: Sequence[str], steps: Sequence[dict]) -> int | None:
    """Where ``example``'s skills are ``skills`` with one more: the index in ``example`` of the
    step left out; None where they are not. Where the step could be any of a run of calls of
    one skill, the call whose literal texts no other step of the example repeats is taken (a
    link followed by the example's own search words is the one the program kept)."""
    places = [i for (i,) in _removals(skills, example, 1)]
    if not places:
        return None
    others = [
        {text for j, step in enumerate(steps) if j != i for text in _texts(step.get("args"))}
        for i in places
    ]
    unrepeated = [
        i for i, seen in zip(places, others, strict=True) if not _texts(steps[i].get("args")) & seen
    ]
    return (unrepeated or places)[-1]


def _two_left_out(
    skills: Sequence[str], example: Sequence[str], steps: Sequence[dict]
) -> tuple[int, int] | None:
    """Where ``example``'s skills are ``skills`` with two more, both an effect's skill:
    the indexes in ``example`` of the two steps (the last such pair); None where they are not.
    Why: pc10r2 at 5c481a6 (2026-12-06) was an example's program less the paper's link and its
    download, and said "finished" with nothing downloaded."""
    pairs = [
        (i, j)
        for i, j in _removals(skills, example, 2)
        if example[i] in EFFECT_SKILLS and example[j] in EFFECT_SKILLS
    ]
    return pairs[-1] if pairs else None


def _removals(skills: Sequence[str], example: Sequence[str], count: int) -> list[tuple[int, ...]]:
    """Each set of ``count`` indexes of ``example`` whose removal leaves ``skills``, in order."""
    if len(example) != len(skills) + count:
        return []
    return [
        gone
        for gone in combinations(range(len(example)), count)
        if [skill for k, skill in enumerate(example) if k not in gone] == list(skills)
    ]


def _two_doubt(program: Program, steps: Sequence[dict], pair: tuple[int, int]) -> tuple[str, Doubt]:
    """The doubt for two steps an example makes and ``program`` leaves out (its key: the
    calls). The Manager is re-asked with it; two steps in a row are then asked for together
    (:mod:`focused_steps`), put in where the example has them. Two apart are not (one place
    for both would put one of them out of order), and a program kept with the doubt ends the
    run ``unverified`` at best. Why together: pc10r2 at aaae802 (2026-12-06) kept the program
    less the paper's link and its download, re-asked whole, and ended ``unverified``."""
    calls = [json.dumps(steps[i], ensure_ascii=False, separators=(",", ":")) for i in pair]
    at = program.steps[max(pair[0] - 1, 0)].id
    where = f"after {at}" if pair[0] else "first"
    in_a_row = pair[1] == pair[0] + 1
    return " ".join(calls), Doubt(
        at,
        f"a similar earlier task's program is this one with two more steps, {calls[0]} and "
        f"{calls[1]} (from {where} here), which this program leaves out: where the "
        "instruction asks for them too, add the steps with this task's values; where it does "
        "not, keep the program as it is",
        skills=tuple(dict.fromkeys(str(steps[i]["skill"]) for i in pair)),
        wanted_after=(at if pair[0] else "") if in_a_row else None,
        wanted_steps=2 if in_a_row else 1,
    )


def _texts(value: object) -> set[str]:
    """The literal texts of an example step's arguments, casefolded (references left out)."""
    return {text.casefold() for text in literal_texts(value)}  # type: ignore[arg-type]


def _example_programs(examples: str) -> Iterator[list[dict]]:
    """The steps of each program in memory's examples text (a line ``Program: {...}`` each)."""
    for line in examples.splitlines():
        if not line.startswith(PROGRAM_LINE):
            continue
        try:
            steps = json.loads(line[len(PROGRAM_LINE) :]).get("steps")
        except (ValueError, AttributeError):
            continue
        if isinstance(steps, list) and all(isinstance(step, dict) for step in steps):
            yield steps
