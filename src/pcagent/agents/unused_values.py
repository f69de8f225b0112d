"""A value found and then never used: caught before anything runs.

A step that finds named values (``extract_values``: a skill whose values are named by an
argument) is there for the steps after it. A small planner finds the value and then writes the
later step without it: "travel time from the Empire State Building to " searched, the meeting
place found the step before left out of the words; the skill's effect checks pass and the run
would end "finished" on a search for half of what was asked. Each such step is a doubt the
Manager is re-asked with, naming the value and how to refer to it. A step that works a value
out (``calculate``, ``shift_time``...: a skill declared ``computes``) is there for its result
too: when later steps go on without it, the program has left the result out (the number the
instruction added written into the sheet, not the sum); and when it is the last step and works
in no application (``shift_time``, not ``calculate``, whose result is on the calculator's
display), the result shows nowhere: the person is not told it and no application holds it.
So is a step that only reads (a file's text, a folder's mails: a skill declared
``only_reads``): pc02r2 read the memo naming the meeting place and then searched the web with
the instruction's own words, the place left out. No gold program of 600 generated tasks leaves
such a read unused before later steps. So is a web search whose page of results the steps
after it neither read nor work on: a re-plan searched for the sights of two cities and then
composed two paragraphs about them from nothing (a rewording of pc20, 2026-11-28), and the run
said "finished". So is a look-up of a value for each of several things
(``web_search_each``) whose rows no step uses, last or not. So, last, is each name an
extraction finds that no later step refers to, where later steps refer to others by name.
Judged on the typed program alone: references in arguments, slots in texts, and the steps a
screen step says it uses.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.plan import Doubt
from pcagent.agents.program import (
    GUI,
    SLOT,
    Program,
    ProgramStep,
    reference_values,
    skill_of,
    steps_used,
)
from pcagent.skills import SkillCatalog


def finds_named_values(step: ProgramStep, catalog: SkillCatalog) -> list[str]:
    """The names of the values ``step`` finds ([] for a step that finds none by name): the
    list in the argument its skill declares as naming them (``keys_argument``)."""
    one = skill_of(step, catalog)
    argument = one.keys_argument if one is not None else ""
    names = step.args.get(argument) if argument else None
    if not isinstance(names, list):
        return []
    return [name for name in names if isinstance(name, str)]


def _computes(step: ProgramStep, catalog: SkillCatalog) -> bool:
    one = skill_of(step, catalog)
    return one is not None and one.computes


def _only_reads(step: ProgramStep, catalog: SkillCatalog) -> bool:
    one = skill_of(step, catalog)
    return one is not None and one.only_reads


def _page_left(step: ProgramStep, later: list[ProgramStep], catalog: SkillCatalog) -> bool:
    """Whether ``step`` searches or submits a form (a page of results, there to be followed
    or read) and the steps after it neither work on that page (follow a link of it, fill its
    form, a screen step in the browser) before another page is opened, nor refer to it
    (checked before). A page opened by its address or a link is not judged: it may be there
    to be looked at. Why forms too: asked for the trip's length before an alarm, the 1.5B
    planner filled the maps form, left the page with the 38 minutes unread and set the alarm
    at the meeting's own time; the run said "finished" (a rewording of pc03, 2026-12-02)."""
    one = skill_of(step, catalog)
    if one is None or one.page not in ("searches", "fills"):
        return False
    if step.args.get("submit") is False:
        return False
    browser = set(one.apps)
    for other in later:
        if other.skill == GUI:
            if other.app in browser:
                return False
            continue
        if other.skill not in catalog:
            continue
        one = catalog.get(other.skill)
        if one.on_page:
            return False
        if one.navigates:
            return True
    return True


def _looks_up(step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``step`` looks up a value for each of several things (a skill some other one
    names as its ``for_each``): it changes nothing and is there for its rows alone."""
    return step.skill != GUI and any(one.for_each == step.skill for one in catalog)


def _looked_up_doubt(step: ProgramStep, later: bool) -> Doubt:
    """Why: asked to set an alarm for when to leave for a meeting, the 1.5B planner set it at
    the meeting's own time and looked the trip's length up last, its 38 minutes used by no
    step; each step's effect check passed and the run said "finished" (a rewording of pc03,
    2026-12-05). Last or not, rows nobody uses are a look-up for nothing; no gold program of
    600 generated tasks leaves them unused."""
    where = "and no later step uses them" if later else "last, and nothing uses them"
    return Doubt(
        step.id,
        f"{step.id} looks up a value for each thing with {step.skill}, {where}: work with the "
        f'rows where the instruction needs them ({{"from": "{step.id}"}}, before the steps '
        "that need them), or tell them with tell_user where the instruction asks to be told",
    )


def values_used(step: ProgramStep) -> set[str]:
    """The ids of the steps whose values ``step`` uses: :func:`steps_used`, and for a GUI
    step the steps its words name as well (``{s2.city}``: the agents working on it are shown
    the hub's values, where a skill step's value is kept under its id)."""
    used = set(steps_used(step))
    if step.skill == GUI:
        used |= {match.group(1) for match in SLOT.finditer(step.task)}
    return used


def _names_left(step: ProgramStep, later: list[ProgramStep], catalog: SkillCatalog) -> list[str]:
    """The names ``step`` finds that no later step refers to, where later steps refer to some
    by name: pc03 (2026-11-29) found the meeting's time and place, set the alarm from the time,
    and filled the map's "To" with "Meeting with John" instead of the place. A reference to
    the whole value (no key), or a screen step that uses it, uses every name."""
    names = finds_named_values(step, catalog)
    return unused_names(step, later, names) if len(names) >= 2 else []


def unused_names(step: ProgramStep, later: Sequence[ProgramStep], names: list[str]) -> list[str]:
    """The ``names`` ``step`` finds that no step of ``later`` refers to; none where one of them
    refers to the whole value, or is a screen step using it (its agents are shown every value
    found)."""
    if any(other.skill == GUI and step.id in values_used(other) for other in later):
        return []
    keys = keys_referred(step.id, later)
    return [] if keys is None else [name for name in names if name not in keys]


def keys_referred(step_id: str, steps: Sequence[ProgramStep]) -> set[str] | None:
    """The keys under which the skill steps of ``steps`` refer to the values of ``step_id``;
    None where one of them refers to the whole value (no key), which uses every name."""
    keys: set[str] = set()
    for other in steps:
        for reference in reference_values(other.args) if other.skill != GUI else []:
            if reference.get("from") == step_id:
                if not reference.get("key"):
                    return None
                keys.add(str(reference["key"]))
    return keys


def _names_doubt(step: str, left: list[str]) -> Doubt:
    first = left[0]
    return Doubt(
        step,
        f"{step} finds {', '.join(left)}, and no later step uses it: refer to it where the "
        f'instruction needs it ({{"from": "{step}", "key": "{first}"}}, or "{{{step}.{first}}}" '
        "inside a text), or leave it out of the names",
    )


#: The skills that take several items' values together (the doubt below names them, so a
#: re-ask is shown a remembered program that calls one).
_TOGETHER = ("pick_extreme", "sort_items")


def _alike_doubt(step: str, names: list[str], alike: list[str]) -> Doubt:
    """Why: asked which of three films a note lists is rated lowest, the 1.5B planner looked
    each one up and then told the last rating found (gen-9002-14, twice, 2026-12-02); the
    plain "no later step uses it" was answered by dropping the look-ups or naming one value.
    Steps that find the same names are one look-up per item, and their values go together."""
    first = names[0]
    refs = ", ".join(f'"{{{one}.{first}}}"' for one in (step, *alike))
    return Doubt(
        step,
        f"{step} finds {', '.join(names)} as {', '.join(alike)} also do (one look-up per "
        f"item), and no later step uses {step}'s: use every item's value together where the "
        f"instruction needs them, as it asks: pick_extreme over the items (each "
        f'{{"label": ..., "value": {{"from": "{step}", "key": "{first}"}}}}) for the largest '
        f"or smallest, sort_items to order them, or a text giving each ({refs})",
        skills=_TOGETHER,
    )


def unused_values(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each step of ``program`` that finds named values no later step uses, and
    for each step that works a value out, or only reads, that the steps after it go on
    without."""
    doubts = []
    for index, step in enumerate(program.steps):
        later = program.steps[index + 1 :]
        if any(step.id in values_used(other) for other in later):
            left = _names_left(step, later, catalog)
            if left:
                doubts.append(_names_doubt(step.id, left))
            continue
        doubt = _left_unused(step, later, catalog) or _found_unused(step, program, catalog)
        if doubt is not None:
            doubts.append(doubt)
    return doubts


def _left_unused(
    step: ProgramStep, later: list[ProgramStep], catalog: SkillCatalog
) -> Doubt | None:
    """The doubt on ``step``, whose value no later step uses, where it looks up, works out or
    reads a value, or opens a page of results; None where it does none of these."""
    if _looks_up(step, catalog):
        return _looked_up_doubt(step, bool(later))
    if not later and _computes(step, catalog) and not catalog.get(step.skill).apps:
        # Worked out last in no application, the value shows nowhere: nothing tells the
        # person, nothing puts it in an application. pc01r2 (2026-11-28) ended with the
        # time an hour before the meeting worked out, no alarm set, and said "finished".
        return Doubt(
            step.id,
            f"{step.id} works out a value with {step.skill} last, and nothing shows it: "
            f"do with it what the instruction asks (a skill of the application it asks "
            f'for, with {{"from": "{step.id}"}}), or tell it with tell_user where the '
            "instruction asks to be told",
        )
    if later and _computes(step, catalog):
        return Doubt(
            step.id,
            f"{step.id} works out a value with {step.skill}, and no later step uses "
            f'it: refer to the result where the instruction needs it ({{"from": '
            f'"{step.id}"}}, or "{{{step.id}}}" inside a text)',
        )
    if later and _only_reads(step, catalog):
        # No remembered program is shown with it (no skills named): shown the nearest that
        # found a value, a world clock's city, the 1.5B model wrote that program for
        # pc02r2's travel time, twice (2026-11-28).
        return Doubt(
            step.id,
            f"{step.id} reads with {step.skill}, and no later step uses what it read: "
            f"find the values the instruction needs in it (extract_values with "
            f'{{"text": {{"from": "{step.id}"}}}}) and refer to them where they are needed',
        )
    if later and _page_left(step, later, catalog):
        return Doubt(
            step.id,
            f"{step.id} opens a page with {step.skill}, and no later step reads it: "
            f"find the values the instruction needs in it (extract_values with "
            f'{{"text": {{"from": "{step.id}"}}}}) or follow one of its links, and '
            "refer to what it gives where it is needed",
        )
    return None


def _found_unused(step: ProgramStep, program: Program, catalog: SkillCatalog) -> Doubt | None:
    """The doubt on ``step``, whose named values no later step uses; None where it finds
    none by name."""
    names = finds_named_values(step, catalog)
    if not names:
        return None
    alike = [
        o.id for o in program.steps if o is not step and finds_named_values(o, catalog) == names
    ]
    if alike:
        return _alike_doubt(step.id, names, alike)
    first = names[0]
    return Doubt(
        step.id,
        f"{step.id} finds {', '.join(names)}, and no later step uses it: refer to it where the "
        f'instruction needs it ({{"from": "{step.id}", "key": "{first}"}}, or '
        f'"{{{step.id}.{first}}}" inside a text), or leave the step out',
    )
