"""A whole reading put where one value is wanted: caught before anything runs.

A small planner passes a file's or a page's whole text on as if it were the value it holds:
pc02 (2026-12-01) filled the maps form with the meeting place found, then computed
``60 * (24 - {s4.to})`` on the calculator, ``s4`` being the form's page of directions; the key
was mended away (the page is one value) and the calculator was given the whole page. The
program was usable and had no doubt, the step failed at run time, and the re-plan copied an
example's screen step. Which values are readings is declared with each skill (a step that only
reads, or that opens, follows, searches or fills a page: :attr:`Skill.gives_reading`), and so is
which parameters take a whole text (what is written, typed, sent or told, and every argument
of a language skill: :meth:`Skill.takes_text`); a reading referred to by any other parameter is
a doubt the Manager is re-asked with, naming the extraction that finds the value. GUI steps
are not judged (their values are what was read, and their words are for an agent).

A reading given whole to a parameter that takes only a list, by a skill that declares one doing
its work for each of several things (``web_search``'s ``for_each``), is left to the problem of
:mod:`pcagent.agents.reference_shapes`, which names that skill: told both, the 1.5B Manager
followed this doubt's extraction, found one population for three countries and dropped the
sort it had written (a rewording of pc08, 2026-12-03).
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import (
    Program,
    is_reference,
    parameter_schemas,
    reference_values,
    skill_steps,
)
from pcagent.agents.reference_shapes import takes_only_lists
from pcagent.skills import SkillCatalog


def whole_readings(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each skill step that gives a reading to a parameter of single values."""
    readings: dict[str, str] = {}  # step id -> what its skill gives
    for_each: set[str] = set()  # the readings whose skill has one for each of several things
    doubts: list[Doubt] = []
    for step, one in skill_steps(program, catalog):
        properties = parameter_schemas(one)
        for name, value in step.args.items():
            if one.takes_text(name):
                continue
            whole = is_reference(value) and not value.get("key")  # type: ignore[union-attr]
            if whole and value["from"] in for_each and takes_only_lists(properties.get(name, {})):  # type: ignore[index]
                continue
            used = [ref["from"] for ref in reference_values({name: value})]
            source = next((ref for ref in used if ref in readings), None)
            if source is not None:
                doubts.append(
                    Doubt(
                        step.id,
                        f"{step.id}'s {name} takes single values, and {source} gives "
                        f"{readings[source]}: find the value in it first (extract_values with "
                        f'{{"text": {{"from": "{source}"}}}}) and refer to the value found',
                    )
                )
                break
        if one.gives_reading:
            readings[step.id] = one.returns or "a whole text"
            if one.for_each in catalog:
                for_each.add(step.id)
    return doubts
