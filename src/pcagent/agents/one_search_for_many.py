"""One search for several things, whose one value is given to each of them, becomes one
``web_search_each`` of those things.

The 1.5B Manager, asked for three countries' populations sorted into a sheet, three share
prices or one console's price at three shops, wrote one ``web_search`` naming all of them, one
``extract_values`` of one value, and then that value beside each thing's name in the items of
``sort_items`` or ``pick_extreme`` or the rows of ``fill_cells`` (pc07, pc08 and pc24 of the 25,
2026-12-03; the doubt that names it, :mod:`pcagent.agents.repeated_values`, re-asked the
Manager and the re-asks wrote the same program). Its program says everything the look-up
needs, in the model's own typed values: the things are the items' labels, the value is the
extraction's name, and the search's words are the query the model wrote less the things'
names. So the search becomes ``web_search_each`` (the same step id), the extraction goes when no
other step uses it, and the list argument takes the look-up's rows whole.

The same holds where the things are a value found before: told to find which of three
destinations listed in a note has the shortest flight, the 1.5B Manager extracted the
destinations, searched for "flight time from Beijing to {s2.destinations}", extracted one
value of that page and sorted it as if it were the list (pc06, 2026-12-03; the run failed on
the sort's type). The search becomes ``web_search_each`` of the things that value lists (its
``things`` the reference, its words the query less the slot) and the list argument takes the
rows, where the list argument is wholly the one extraction and the query holds one slot.

Only these shapes are mended: every item or row a literal label and the same one found value,
that value an extraction of one name from that search's reading, each label written in the
query. Anything else stays with its doubt for the Manager.
"""

from __future__ import annotations

from typing import Any

from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference, reference_values
from pcagent.agents.unused_values import values_used
from pcagent.skills import SkillCatalog

#: The argument of each skill that takes labelled values, and whether it takes them as items
#: ``{"label", "value"}`` (or else as rows ``[label, value]``).
LABELLED_LISTS: dict[str, tuple[str, bool]] = {
    "sort_items": ("items", True),
    "pick_extreme": ("items", True),
    "fill_cells": ("rows", False),
}


def with_one_search_for_each(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with its first search for several things, whose one value stands for each
    of them, made one ``web_search_each``; else ``program`` itself."""
    if "web_search_each" not in catalog:
        return program
    steps = {step.id: step for step in program.steps}
    for step in program.steps:
        if step.skill not in LABELLED_LISTS:
            continue
        name, as_items = LABELLED_LISTS[step.skill]
        if is_reference(given := step.args.get(name)):
            mended = _of_found_list(program, step, name, given, steps)  # type: ignore[arg-type]
            if mended is not None:
                return mended
            continue
        pairs = _labelled(given, as_items)
        if pairs is None:
            continue
        labels = [label for label, _ in pairs]
        found = {(ref["from"], ref.get("key", "")) for _, ref in pairs}
        if len(found) != 1 or len(set(labels)) != len(labels) or len(labels) < 2:
            continue
        ((extraction_id, key),) = found
        extraction = steps.get(extraction_id)
        search = _searched_by(extraction, key, steps)
        if extraction is None or search is None:
            continue
        words = _without(str(search.args.get("query", "")), labels)
        # The search's reading becomes rows: a step that reads the page itself keeps it.
        readers = [s for s in program.steps if search.id in values_used(s)]
        if words is None or readers != [extraction]:
            continue
        return _mended(program, step, name, search, extraction, labels, words, key)
    return program


def _of_found_list(
    program: Program,
    listing: ProgramStep,
    name: str,
    reference: dict[str, Any],
    steps: dict[str, ProgramStep],
) -> Program | None:
    """``program`` with the search whose words hold one found value (``{s2.destinations}``)
    made a look-up of each thing that value lists, where ``listing``'s list argument is
    wholly the one value extracted from that search; None where the program is otherwise."""
    extraction = steps.get(str(reference["from"]))
    names = extraction.args.get("names") if extraction is not None else None
    whole = names[0] if isinstance(names, list) and len(names) == 1 else ""
    key = str(reference.get("key") or whole)  # the whole extraction: its one value
    search = _searched_by(extraction, key, steps)
    query = search.args.get("query") if search is not None else None
    if extraction is None or search is None or not isinstance(query, str):
        return None
    slots = list(SLOT.finditer(query))
    words = " ".join(SLOT.sub(" ", query).split())
    if len(slots) != 1 or slots[0].group(3) or not words:
        return None  # a slot that picks one item names one thing
    if [s for s in program.steps if search.id in values_used(s)] != [extraction]:
        return None
    source, field = slots[0].group(1), slots[0].group(2)
    things = {"from": source, "key": field} if field else {"from": source}
    return _mended(program, listing, name, search, extraction, things, words, key)


def _labelled(value: object, as_items: bool) -> list[tuple[str, dict[str, Any]]] | None:
    """Each item's (or row's) literal label and its one reference, or None where any item is
    otherwise."""
    if not isinstance(value, list):
        return None
    pairs = []
    for item in value:
        if as_items and isinstance(item, dict):
            label, rest = item.get("label"), {"value": item.get("value")}
        elif not as_items and isinstance(item, list) and len(item) == 2:
            label, rest = item[0], {"value": item[1]}
        else:
            return None
        refs = reference_values(rest)
        if not isinstance(label, str) or not label.strip() or len(refs) != 1:
            return None
        pairs.append((label.strip(), refs[0]))
    return pairs


def _searched_by(
    extraction: ProgramStep | None, key: str, steps: dict[str, ProgramStep]
) -> ProgramStep | None:
    """The ``web_search`` whose reading ``extraction`` picks its one value ``key`` out of."""
    if extraction is None or extraction.skill != "extract_values":
        return None
    names = extraction.args.get("names")
    if not (isinstance(names, list) and len(names) == 1 and names[0] in (key, "")):
        return None
    text = extraction.args.get("text")
    source = text.get("from") if isinstance(text, dict) and not text.get("key") else None
    search = steps.get(str(source))
    return search if search is not None and search.skill == "web_search" else None


def _without(query: str, labels: list[str]) -> str | None:
    """The query's words less each label (each must be in it, in any case), and less the
    commas between them; None where a label is not in it or no word is left."""
    rest = query
    for label in labels:
        at = rest.lower().find(label.lower())
        if at < 0:
            return None
        rest = rest[:at] + " " + rest[at + len(label) :]
    words = " ".join(rest.replace(",", " ").split())
    return words or None


def _mended(
    program: Program,
    listing: ProgramStep,
    name: str,
    search: ProgramStep,
    extraction: ProgramStep,
    things: list[str] | dict[str, str],
    words: str,
    key: str,
) -> Program:
    value = key or str(extraction.args["names"][0])  # type: ignore[index]
    looked = ProgramStep(
        id=search.id,
        skill="web_search_each",
        args={"things": things, "search": words, "value": value},
    )
    others = [step for step in program.steps if step.id not in (listing.id, extraction.id)]
    still_used = any(extraction.id in values_used(step) for step in others)
    rows = {"from": search.id}
    steps = []
    for step in program.steps:
        if step.id == search.id:
            steps.append(looked)
        elif step.id == extraction.id and not still_used:
            continue
        elif step.id == listing.id:
            steps.append(step.model_copy(update={"args": {**step.args, name: rows}}))
        else:
            steps.append(step)
    return program.model_copy(update={"steps": steps})
