"""A list passed to a step that takes a text, whose values only list-taking steps use: the list
itself goes to them, and the step goes.

Why: looking up one price at each of three shops, the 1.5B Manager wrote ``web_search_each``
(rows ``[shop, price]``), then ``extract_values`` of "the price" from those rows, and sorted
``{"from": "s5", "key": "price"}``: the extraction failed at run time on its type ("text:
Input should be a valid string"), the re-plan went to the screen and looped to the step cap (a
rewording of pc24, 2026-12-03). A step that takes a text cannot read a list, and where its
values are used only where a list is wanted (a sort's items, a pick's, a sheet's rows), the
program can only have meant the list: those uses take it whole (``{"from": "s4"}``) and the
step is dropped. A step used any other way (a slot in a text, a screen step's ``uses``) is left
as written, for the checks to name.
"""

from __future__ import annotations

from pcagent.agents.program import (
    Program,
    ProgramStep,
    is_reference,
    parameter_schemas,
    reference_values,
    skill_of,
)
from pcagent.agents.reference_shapes import takes_only_lists
from pcagent.skills import SkillCatalog


def with_lists_not_extracted(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each step that takes a list as its text, and whose every use takes a
    list, dropped for the list; else ``program`` itself."""
    steps = list(program.steps)
    lists = {
        step.id for step in steps if step.skill in catalog and catalog.get(step.skill).gives_list
    }
    changed = False
    for step in list(steps):
        given = _list_as_text(step, catalog, lists)
        if not given:
            continue
        later = steps[steps.index(step) + 1 :]
        uses = [(other, name) for other in later for name in _uses_of(step.id, other, catalog)]
        if not uses or any(not name for _, name in uses):
            continue  # unused, or used some way a list cannot stand for
        for other, name in uses:
            at = steps.index(other)
            args = {**steps[at].args, name: {"from": given}}
            steps[at] = steps[at].model_copy(update={"args": args})
        steps.remove(step)
        changed = True
    return program.model_copy(update={"steps": steps}) if changed else program


def _list_as_text(step: ProgramStep, catalog: SkillCatalog, lists: set[str]) -> str:
    """The id of the list ``step`` is given where it takes a text alone; "" where none."""
    one = skill_of(step, catalog)
    if one is None:
        return ""
    properties = parameter_schemas(one)
    for name, value in step.args.items():
        if (
            is_reference(value)
            and value["from"] in lists  # type: ignore[index]
            and not value.get("key")  # type: ignore[union-attr]
            and properties.get(name, {}).get("type") == "string"
        ):
            return str(value["from"])  # type: ignore[index]
    return ""


def _uses_of(source: str, step: ProgramStep, catalog: SkillCatalog) -> list[str]:
    """The parameters of ``step`` that take ``source``'s value as a list-only argument (a
    direct reference); "" for each use of another kind."""
    one = skill_of(step, catalog)
    if one is None:
        return [""] if source in step.uses else []
    properties = parameter_schemas(one)
    found: list[str] = []
    for name, value in step.args.items():
        inside = [r for r in reference_values({name: value}) if r["from"] == source]
        if not inside:
            continue
        direct = is_reference(value) and takes_only_lists(properties.get(name, {}))
        found.append(name if direct else "")
    return found
