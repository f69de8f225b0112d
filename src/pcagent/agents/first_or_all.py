"""Whether a sorted list is asked for whole or only its first item: a model reads it, code sets
the program so.

``sort_items`` gives every item in order; ``pick_extreme`` the one that would come first. Told
to save "whichever of three stores sells a console for least, with that price", the 1.5B
Manager sorted the prices lowest first and wrote the whole sorted list into the file, and the
run said "finished" (a rewording of pc24, 2026-12-03); told to keep the longer of two films'
running times, it sorted them too (generated task gen-2041-4, 2026-12-04). No text the run reads
shows the list wrong, and the words that say "only the cheapest" are the user's: which one the
instruction asks for is a question about words, asked of a model alone
(:mod:`pcagent.agents.choice_readings`' agent, its own question), in both orders of the options
and taken only where the two answers agree.

Asked only where the program leaves it open to both: a sort whose list later steps use whole,
each in a text (a file's text, what the user is told), and no step uses by a key or an item
(:mod:`first_of_sorted` takes a sort used only by its first item's key). Where the reading is
"only the first", the sort becomes ``pick_extreme`` of the same items (the largest where the
highest came first), and each use of the list becomes the item's label and value
(``"{s4.label}: {s4.value}"``). A list written into cells or given to a screen step is left as
it is: what the first item would be there is not a text.

The other way round too (:func:`with_all_of_picked_read`): a pick whose item later steps use
only in texts, where the reading is "all of them", becomes a sort of the same items, and each
use of the item the whole sorted list. Told to write three films' ratings into a file "highest
rating first", the 1.5B Manager picked the largest and wrote its 9.3 alone, and both rewordings
said "finished" (pc17r1, pc17r2 at db209bf, 2026-12-06). A use that writes the item among other
words ("The best: {s2.label}") is left as it is: the list would not read right there.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from pcagent.agents.choice_readings import ChoiceQuestion, ReadsChoice, answered_both_ways
from pcagent.agents.program import GUI, SLOT, Program, ProgramStep, is_reference, reference_values
from pcagent.skills import SkillCatalog

_SORT, _PICK = "sort_items", "pick_extreme"
#: The reading's values: the sorted list whole, or its first item only.
WHOLE, FIRST = "whole", "first"


def first_or_all_question(first: str, reverse: bool = False) -> ChoiceQuestion:
    """The question for a sort whose ``first`` ("highest" or "lowest") comes first; ``reverse``:
    the options the other way round (a question of its own, read apart)."""
    options: tuple[tuple[JsonValue, str], ...] = (
        (WHOLE, "all of the items, in that order"),
        (FIRST, f"only the one item with the {first} value"),
    )
    return ChoiceQuestion(
        skill=_SORT,
        description=f"the task puts some items in order by a value, the {first} first",
        parameter=f"(the items wanted, {first} first{', reversed' if reverse else ''})",
        question="Which items does the instruction ask to be written down or told?",
        options=options[::-1] if reverse else options,
    )


def read_first_or_all(read: ReadsChoice, instruction: str, first: str) -> JsonValue | None:
    """The reading where both orders of the options agree; None otherwise."""
    once = read(instruction, first_or_all_question(first))
    if once is None:
        return None
    return once if read(instruction, first_or_all_question(first, reverse=True)) == once else None


def first_or_all_read_both_ways(read: ReadsChoice, instruction: str, first: str) -> bool:
    """Whether the two orders of the options got an answer each, and different ones: the
    model answered by the options' place, and which items are asked stays unread."""
    once = read(instruction, first_or_all_question(first))
    return answered_both_ways(once, read(instruction, first_or_all_question(first, reverse=True)))


def whole_or_first_calls(program: Program, catalog: SkillCatalog) -> list[tuple[str, str]]:
    """Each sort used whole in texts and each pick whose item is used alone in texts (the
    calls the reading is asked for), with the end of the order that comes first."""
    calls: list[tuple[str, str]] = []
    for index, step in enumerate(program.steps):
        later = program.steps[index + 1 :]
        first = _sorted_whole(step, later, catalog) or _picked_alone(step, later, catalog)[0]
        if first:
            calls.append((step.id, first))
    return calls


def _sorted_whole(step: ProgramStep, later: list[ProgramStep], catalog: SkillCatalog) -> str:
    """The end that comes first ("highest" or "lowest") where ``step`` is a sort whose list
    ``later`` use whole in texts; "" otherwise."""
    first = step.args.get("first")
    if step.skill != _SORT or first not in ("highest", "lowest"):
        return ""
    return str(first) if _used_whole_in_texts(step.id, later, catalog) else ""


def _picked_alone(
    step: ProgramStep, later: list[ProgramStep], catalog: SkillCatalog
) -> tuple[str, dict[str, set[str]]]:
    """The end a sort would put first and the uses of the item (:func:`_item_uses`) where
    ``step`` is a pick whose item ``later`` use alone in texts; ("", {}) otherwise."""
    which = step.args.get("which")
    if step.skill != _PICK or which not in ("largest", "smallest"):
        return "", {}
    uses = _item_uses(step.id, later, catalog)
    return ("highest" if which == "largest" else "lowest", uses) if uses else ("", {})


def with_first_or_all_read(
    program: Program, catalog: SkillCatalog, read: ReadsChoice, instruction: str
) -> Program:
    """``program`` with each sort used whole in texts made a pick of its first item where the
    instruction asks for that item only; else ``program`` itself."""
    if _PICK not in catalog:
        return program
    steps = list(program.steps)
    for index, step in enumerate(steps):
        later = steps[index + 1 :]
        first = _sorted_whole(step, later, catalog)
        if not first or read_first_or_all(read, instruction, first) != FIRST:
            continue
        args = {
            "items": step.args.get("items"),
            "which": "largest" if first == "highest" else "smallest",
        }
        steps[index] = step.model_copy(update={"skill": _PICK, "args": args})
        for at, other in enumerate(later, start=index + 1):
            whole = _item_text(step.id)
            mended = {k: _as_item(v, step.id, whole) for k, v in other.args.items()}
            steps[at] = other.model_copy(update={"args": mended})
    if steps == list(program.steps):
        return program
    return program.model_copy(update={"steps": steps})


def _used_whole_in_texts(source: str, later: list[ProgramStep], catalog: SkillCatalog) -> bool:
    """Whether some of ``later`` use ``source``'s value, each whole and in a text argument."""
    used = False
    for step in later:
        if step.skill == GUI:
            named = any(m.group(1) == source for m in SLOT.finditer(step.task))
            if named or source in step.uses:
                return False  # a screen step's words: not a text argument's
            continue
        if step.skill not in catalog:
            continue
        fields = catalog.get(step.skill).parameters.model_fields
        for name, value in step.args.items():
            found = [r for r in reference_values({name: value}) if r["from"] == source]
            if not found:
                continue
            field = fields.get(name)
            if field is None or field.annotation is not str:
                return False
            if any(r.get("key") or "item" in r for r in found):
                return False
            used = True
    return used


def _item_text(source: str) -> str:
    return f"{{{source}.label}}: {{{source}.value}}"


def _as_item(value: Any, source: str, whole: str) -> Any:
    """``value`` with each whole use of ``source`` (a reference, a ``{sN}`` slot) made the
    first item's label and value."""
    if is_reference(value) and value["from"] == source and not value.get("key"):
        return whole
    if isinstance(value, str):
        return SLOT.sub(
            lambda m: whole if m.group(0) == f"{{{source}}}" else m.group(0),
            value,
        )
    if isinstance(value, dict):
        return {k: _as_item(v, source, whole) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_item(v, source, whole) for v in value]
    return value


def with_all_of_picked_read(
    program: Program, catalog: SkillCatalog, read: ReadsChoice, instruction: str
) -> Program:
    """``program`` with each pick whose item is used only in texts, and only as the item
    alone, made a sort of the same items where the instruction asks for all of them; else
    ``program`` itself."""
    if _SORT not in catalog:
        return program
    steps = list(program.steps)
    for index, step in enumerate(steps):
        later = steps[index + 1 :]
        first, uses = _picked_alone(step, later, catalog)
        if not first or read_first_or_all(read, instruction, first) != WHOLE:
            continue
        args = {"items": step.args.get("items"), "first": first}
        steps[index] = step.model_copy(update={"skill": _SORT, "args": args})
        whole: dict[str, JsonValue] = {"from": step.id}
        for at, other in enumerate(later, start=index + 1):
            if other.id in uses:
                mended = {k: whole if k in uses[other.id] else v for k, v in other.args.items()}
                steps[at] = other.model_copy(update={"args": mended})
    if steps == list(program.steps):
        return program
    return program.model_copy(update={"steps": steps})


def _item_uses(source: str, later: list[ProgramStep], catalog: SkillCatalog) -> dict[str, set[str]]:
    """For each of ``later`` that uses ``source``'s item, the text arguments that hold it and
    nothing else (a reference, or slots of it with nothing but punctuation between); none
    where any use is another kind (a screen step's words, a typed parameter, a longer text)."""
    uses: dict[str, set[str]] = {}
    for step in later:
        if step.skill == GUI:
            named = any(m.group(1) == source for m in SLOT.finditer(step.task))
            if named or source in step.uses:
                return {}
            continue
        if step.skill not in catalog:
            continue
        fields = catalog.get(step.skill).parameters.model_fields
        for name, value in step.args.items():
            if not any(r["from"] == source for r in reference_values({name: value})):
                continue
            field = fields.get(name)
            if field is None or field.annotation is not str or not _only_the_item(value, source):
                return {}
            uses.setdefault(step.id, set()).add(name)
    return uses


def _only_the_item(value: JsonValue, source: str) -> bool:
    """Whether ``value`` is ``source``'s item alone: a reference to it, or its slots with only
    punctuation and spaces between ("{s2.label}: {s2.value}")."""
    if is_reference(value):
        return value["from"] == source  # type: ignore[index]
    if not isinstance(value, str):
        return False
    slots = list(SLOT.finditer(value))
    left = SLOT.sub("", value)
    return (
        bool(slots)
        and all(m.group(1) == source for m in slots)
        and not any(c.isalnum() for c in left)
    )
