"""A sorted list of which only an item's label or value is used becomes the pick of its first
item.

``sort_items`` gives rows ``[label, value]`` in order; ``pick_extreme`` gives the one item
``{"label", "value"}`` that would come first. Told to name the destination with the shortest
flight, the 1.5B Manager sorted the flight times lowest first and told ``{"from": "s5", "key":
"label"}`` of the sorted list (pc06, 2026-12-03): a key a list does not give, which was
dropped, and the whole list would have been told. Where every use of a sort is such a key
(``label`` or ``value``, a reference or a ``{s5.label}`` slot) and no step takes the list
itself, the program can only have meant the first item: the sort becomes ``pick_extreme`` of
the same items, the largest where the highest came first. Only where the program says which
comes first: where it does not, the instruction's words are read for the sort's order later
(:mod:`pcagent.agents.choice_readings`), and a pick's ``largest`` is not read so.
"""

from __future__ import annotations

from pcagent.agents.program import GUI, SLOT, Program, ProgramStep, reference_values
from pcagent.skills import SkillCatalog

_SORT, _PICK = "sort_items", "pick_extreme"


def with_first_of_sorted_picked(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each sort whose every use is an item's key made a pick of the first
    item; else ``program`` itself."""
    if _PICK not in catalog:
        return program
    keys = set(catalog.get(_PICK).value_keys)
    steps = list(program.steps)
    for index, step in enumerate(steps):
        if step.skill != _SORT or step.args.get("first") not in ("highest", "lowest"):
            continue  # which comes first, where the program leaves it out, is read later
        used = [_keys_used(step.id, other) for other in steps[index + 1 :]]
        asked = [key for keys_of in used for key in keys_of]
        if not asked or not set(asked) <= keys:
            continue
        which = "largest" if step.args.get("first") == "highest" else "smallest"
        args = {"items": step.args.get("items"), "which": which}
        steps[index] = step.model_copy(update={"skill": _PICK, "args": args})
    return program.model_copy(update={"steps": steps})


def _keys_used(source: str, step: ProgramStep) -> list[str]:
    """The keys by which ``step`` uses ``source``'s value ("" for the whole value)."""
    if step.skill == GUI:
        named = [m.group(2) or "" for m in SLOT.finditer(step.task) if m.group(1) == source]
        return named + ([""] if source in step.uses else [])
    return [
        str(reference.get("key") or "")
        for reference in reference_values(step.args)
        if reference["from"] == source
    ]
