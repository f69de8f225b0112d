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

A key of a sorted list may also be a slip where the whole list was meant: pc17 at 2e14a63
(2026-12-05), asked for three films' ratings "sorted from highest to lowest" in a file, sorted
them and wrote ``{"from": "s2", "key": "value"}``; made a pick, the file held the highest rating
alone and the run said "finished". Which was meant is the instruction's words, so a model's:
where the ``choice_reading`` model is given (``read``), it is asked whether the instruction asks
for every item in order or only the first, with the options in both orders, and the sort is
kept (its keys then dropped as slips) only where both answers say every item. Asked so, the
1.5B model said every item in both orders for pc17 and disagreed with itself for pc06, pc08
and four rewordings (pc06r1, pc17r1, pc17r2, pc24r1), which keep the pick (2026-12-05).
"""

from __future__ import annotations

from pcagent.agents.choice_readings import ChoiceQuestion, ReadsChoice
from pcagent.agents.program import GUI, SLOT, Program, ProgramStep, reference_values
from pcagent.skills import SkillCatalog

_SORT, _PICK = "sort_items", "pick_extreme"
#: The question of whether the whole sorted list is asked for, and its two meanings.
WHOLE_OR_FIRST = (
    "Does the instruction ask for every item of the sorted list, in that order, or only for "
    "the one that comes first?"
)
_MEANINGS = ((True, "every item, in that order"), (False, "only the item that comes first"))


def with_first_of_sorted_picked(
    program: Program,
    catalog: SkillCatalog,
    read: ReadsChoice | None = None,
    instruction: str = "",
) -> Program:
    """``program`` with each sort whose every use is an item's key made a pick of the first
    item, unless ``read`` reads every item asked for in both orders; else ``program``
    itself."""
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
        if read is not None and _whole_asked(read, instruction, catalog):
            continue
        which = "largest" if step.args.get("first") == "highest" else "smallest"
        args = {"items": step.args.get("items"), "which": which}
        steps[index] = step.model_copy(update={"skill": _PICK, "args": args})
    return program.model_copy(update={"steps": steps})


def _whole_asked(read: ReadsChoice, instruction: str, catalog: SkillCatalog) -> bool:
    """Whether ``read`` says, with the options in both orders, that every item is asked for."""
    description = catalog.get(_SORT).description
    answers = {
        read(
            instruction,
            ChoiceQuestion(_SORT, description, f"whole ({order})", WHOLE_OR_FIRST, options),
        )
        for order, options in (("declared", _MEANINGS), ("reversed", _MEANINGS[::-1]))
    }
    return answers == {True}


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
