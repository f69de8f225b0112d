"""A call the program already makes, written again, is dropped for the first one.

A small model that loses its place writes the same steps over and over until the program's
length limit (seen: `read_mail`, `extract_values`, `translate_text`, four times in a row). The
same skill with the same arguments does the same thing again: a second reading of the same
file reads the same text, a second identical mail sends the mail twice. So a step whose call
(skill and arguments, its references followed to the steps they now stand for) equals an
earlier one is dropped, and what referred to it refers to the earlier one: a whole repeated
block collapses onto its first writing. A re-plan's call of the skill that just failed, with
the same arguments, its screen step that just failed written again, or a value the
application refused sent again (:mod:`pcagent.agents.refused_values`), is a problem the
Manager is re-asked with (:func:`repeated_failure`).
Compared as typed calls, never as words, and as a model writes them: the hidden arguments code
fills in (an extraction's ``uses``) are left out, since a call written again lacks them where
its later steps changed (a failed extraction of a rewording of pc01 was re-planned word for
word, its ``uses`` gone, and not caught, 2026-12-07).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import GUI, Program, ProgramStep, step_description
from pcagent.agents.refused_values import sends_refused
from pcagent.agents.step_ids import changed_step, renaming
from pcagent.skills import SkillCatalog


def finished_calls(finished: Sequence[SubtaskSpec]) -> list[ProgramStep]:
    """The skill calls of a re-plan's finished steps, which a new step must not repeat (ids of
    retried GUI steps such as "s3r" are no program ids, so the calls are built unchecked)."""
    return [
        ProgramStep.model_construct(id=s.id, skill=s.skill, args=s.args, environment=s.environment)
        for s in finished
        if s.skill
    ]


def without_repeats(
    program: Program,
    done: Sequence[ProgramStep] = (),
    keeps: Collection[str] = (),
    catalog: SkillCatalog | None = None,
) -> Program:
    """``program`` with each step that repeats an earlier step's call dropped, references to
    it moved to the earlier step. ``done``: the calls a re-planned run already made, which a new
    step repeats as much as an earlier one of its own program (pc25's re-plans read the same
    mail again, then extracted from the new reading what had just failed on the old one).
    ``keeps``: skills whose calls are never dropped, because the same call later does something
    the steps after it need (a site's home opened again before its next film's link)."""
    renames: dict[str, str] = {}
    # a call's key -> the id of the step that makes it first
    first_of: dict[str, str] = {_call_key(step, catalog): step.id for step in done}
    steps: list[ProgramStep] = []
    for step in program.steps:
        step = changed_step(step, renaming(renames)) if renames else step
        key = _call_key(step, catalog)
        if key in first_of and step.skill not in keeps:
            renames[step.id] = first_of[key]
            continue
        first_of[key] = step.id
        steps.append(step)
    return Program(steps=steps) if renames and steps else program


def _call_key(step: ProgramStep, catalog: SkillCatalog | None) -> str:
    """What a step does, without its id: the skill and its arguments as a model writes them
    (a GUI step: its task in its application, with what it uses and reports)."""
    shown = step.model_dump(mode="json", exclude={"id"})
    if step.skill != GUI:
        args = _written(step.skill, shown["args"], catalog)
        shown = {"skill": step.skill, "args": args, "environment": step.environment}
    return json.dumps(shown, sort_keys=True, ensure_ascii=False)


def _written(skill: str, args: dict[str, Any], catalog: SkillCatalog | None) -> dict[str, Any]:
    """``args`` without the hidden ones code fills in, where ``catalog`` knows ``skill``."""
    if catalog is None or skill not in catalog:
        return args
    return catalog.get(skill).written_by_a_model(args)


def repeated_failure(
    program: Program,
    failed: SubtaskSpec | None,
    catalog: SkillCatalog | None = None,
    done: Sequence[ProgramStep] = (),
) -> str:
    """The problem when a re-plan calls the skill that just failed with the same arguments
    (it would fail the same way), or writes the screen step that just failed again, in the
    same application and the same words; "" otherwise. Why the screen step: a memo opened on
    the screen "without effect" was re-planned as the same step four times, each looping to
    its own cap, until the run's (a rewording of pc02, 2026-12-05). Compared as typed steps
    (the words are the Manager's own, compared whole), never read. A reference to a new step
    that makes a call of ``done`` (the finished steps) again is followed to the finished one:
    a re-plan searched again for the same words and extracted from the new search what had
    just failed on the old one, twice (a rewording of pc03 at faa8a78, 2026-12-07)."""
    if failed is None:
        return ""
    if refused := sends_refused(program, failed):
        return refused
    again = _made_again(program, done, catalog)
    calls = [
        (one, _written(one.skill, one.args, catalog)) for one in (failed, *failed.failed_before)
    ]
    for step in program.steps:
        step = changed_step(step, renaming(again)) if again else step
        written = _written(step.skill, step.args, catalog)
        for one, its in calls:
            if one.skill and step.skill == one.skill and written == its:
                when = "just failed" if one is failed else "failed earlier"
                return (
                    f"{step.id} repeats the call of {one.id} that {when} "
                    f"({one.description[:120]}): do it another way"
                )
        if not failed.skill and _same_screen_step(step, failed):
            return (
                f"{step.id} repeats the screen step {failed.id} that just failed "
                f"({failed.description[:120]}): do it another way (a skill, or what is left "
                "to do in other words)"
            )
    return ""


def only_finished_again(
    program: Program, done: Sequence[ProgramStep], catalog: SkillCatalog | None = None
) -> str:
    """The problem when every step of a re-plan's ``program`` makes a call of ``done`` (the
    finished steps) again; "" otherwise. Such a program has nothing new: dropping its repeats
    (:func:`without_repeats`) would leave no step, so it stood as written and ran again
    whole: a re-plan read a memo again, extracted the same time and set the same alarm, which
    the clock refused as there already (a rewording of pc03 at faa8a78, 2026-12-07); a mail
    would have gone out twice."""
    again = _made_again(program, done, catalog)
    if not program.steps or len(again) < len(program.steps):
        return ""
    shown = ", ".join(f"{new} is {old}" for new, old in again.items())
    return (
        f"every step repeats one already finished ({shown}): those are done; write only what "
        "is left, and the step that failed another way"
    )


def _made_again(
    program: Program, done: Sequence[ProgramStep], catalog: SkillCatalog | None
) -> dict[str, str]:
    """Each step of ``program`` whose call (its references followed) a finished step of
    ``done`` made, to that finished step's id."""
    made = {_call_key(step, catalog): step.id for step in done}
    again: dict[str, str] = {}
    for step in program.steps:
        step = changed_step(step, renaming(again)) if again else step
        if (first := made.get(_call_key(step, catalog))) is not None and first != step.id:
            again[step.id] = first
    return again


def _same_screen_step(step: ProgramStep, failed: SubtaskSpec) -> bool:
    """Whether ``step`` is a screen step in ``failed``'s application with its very words (a
    subtask's description is its step's line:
    :func:`~pcagent.agents.program.step_description`)."""
    return (
        step.skill == GUI
        and step.app == failed.app
        and step_description(step) == failed.description
    )
