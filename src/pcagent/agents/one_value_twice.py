"""One value given to two parameters of one step: a doubt on that step.

Why: the 1.5B Manager wired the travel time it extracted into both ``set_alarm``'s ``time``
and its ``minutes_before`` (pc03 at 357032e, 2026-12-05); the meeting's time it had found two
steps before went nowhere, the extraction was told its value was a clock time and gave none,
and the run spent its steps on the screen. Two parameters of one skill say two different
things (a time and how long before it; a start and an end; a file and where it goes), so the
same value in both is in the typed program, and none of the 360 gold programs of the
generated tasks does it. Which value goes where is the model's: the doubt is the step's own
(:attr:`~pcagent.agents.plan.Doubt.own`), so the step is written again alone, told which
values an earlier step found and no step uses yet; a kept doubt leaves the run "unverified".

Only whole references count: one value written into two texts ("{s2} ... {s2}") is common
and often right.
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, is_reference
from pcagent.agents.unused_values import finds_named_values, unused_names
from pcagent.skills import SkillCatalog


def one_value_twice(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each step of ``program`` that gives one earlier step's value (the same
    ``from`` and ``key``) to two or more of its parameters."""
    doubts = []
    for index, step in enumerate(program.steps):
        given: dict[tuple[str, str], list[str]] = {}
        for name, value in step.args.items():
            if is_reference(value):
                source = (str(value["from"]), str(value.get("key", "")))  # type: ignore[index,union-attr]
                given.setdefault(source, []).append(name)
        for (source, key), names in given.items():
            if len(names) < 2:
                continue
            value = f"{{{source}.{key}}}" if key else f"{{{source}}}"
            doubts.append(
                Doubt(
                    step.id,
                    f"{step.id} gives the one value {value} to {' and '.join(names)}: each "
                    "parameter says something else, so each takes its own value (another "
                    "value an earlier step found, or one the instruction gives)"
                    + _unused_before(program, index, catalog),
                    own=True,
                )
            )
    return doubts


def _unused_before(program: Program, index: int, catalog: SkillCatalog) -> str:
    """The named values the steps before step ``index`` find and no step uses, as the doubt's
    last words ("" for none): the value the step wants is most often one of them."""
    slots = [
        f"{{{earlier.id}.{name}}}"
        for at, earlier in enumerate(program.steps[:index])
        for name in unused_names(
            earlier, program.steps[at + 1 :], finds_named_values(earlier, catalog)
        )
    ]
    return f"; found and used by no step: {', '.join(slots)}" if slots else ""
