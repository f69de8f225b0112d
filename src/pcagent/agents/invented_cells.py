"""A number made up for a sheet's cell, where one value found or worked out goes unused, becomes
a reference to that value.

The 1.5B Manager finds a value (the number of books in a mail) or works one out (a sum on the
calculator), then fills the sheet's cell with a number of its own: ``[["Pallets stacked", 1]]``
after extracting ``number`` (generated task gen-6161-6, 2026-12-01), "20" and "0" where the
result belonged (seed 2030). Both doubts were raised (the value unused, the cell's number given
by nobody) and the re-asks, and the step asked for alone, wrote the same number again. Where the
program has exactly one such value and exactly one such cell after it, the cell can only have
been meant for the value: nothing else the program or the instruction holds could fill it, and
the number written is nobody's. Anything less clear (two values left, two made-up cells, a
value whose kind is an object of several fields) stays with its doubts for the Manager.

The same holds for a whole list: pc08's rewording (2026-12-03) looked up three populations with
``web_search_each``, left its rows unused, and wrote ``fill_cells`` rows of the same three
countries with populations of its own (``143372000000``), twice, and once more asked for the
step alone; pc07 sorted the rows of three share prices looked up as ``stock`` and wrote the
rows ``["Nvidia", "stock"]`` (the same day). Where one list of looked-up rows (or a sort of
them) goes unused and exactly one later list names the same things in the same order with
numbers nobody gave, or with the value's name for each value, or with one number for every
thing (a rewording of pc08, 2026-12-04, sorted the countries with the year 2024 as each one's
population), that list is the rows.

And for several values found by name: asked for two films' ratings, the 1.5B Manager extracted
``rating_interstellar`` and ``rating_12_angry_men`` and wrote the rows ``["Interstellar", 1.0]``
and ``["12 Angry Men", 0.0]`` (a rewording of pc11, 2026-12-03); the other rewording extracted
two values named ``rating``, described as "the rating of Interstellar" and "the rating of 12
Angry Men", and wrote ``["Interstellar", 12]`` and ``["12 Angry Men", 8]``. Where every row of
a label and a number has exactly one unused value whose name, or whose extraction's
description, holds each word of the label, and one number at least is nobody's, each row takes
its value. A label that two values answer to, or none, leaves the list as written.

And for a form's field: asked for the travel time to an interview, the 1.5B Manager extracted
the place from a note and left it unused, and filled the maps' "To" with an example's place (a
generated task of seed 2041, 2026-12-04); the field's words were doubted, and the re-asks wrote
them again. Where exactly one value found goes unused and exactly one form field after it
holds words nobody gave, that field was meant for the value; unless another field of the same
form holds a value of the same step, where which value goes where is the model's to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pcagent.agents.given_values import cell_number, given_parameters, invented_cells
from pcagent.agents.one_search_for_many import LABELLED_LISTS
from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference, skill_of
from pcagent.agents.ungiven_names import ungiven_words_typed
from pcagent.agents.unused_values import finds_named_values, unused_names, values_used
from pcagent.skills import SkillCatalog
from pcagent.text import folded


def with_unused_value_in_invented_cell(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with its one made-up cell referring to its one unused value, where there is
    exactly one of each and the cell comes after the value; else ``program`` itself."""
    left = _values_left(program, catalog)
    if len(left) != 1:
        return program
    at, reference = left[0]
    spots = [
        (index, name, row, column)
        for index, step in enumerate(program.steps)
        if index > at
        for name, holds in given_parameters(catalog, step.skill).items()
        if holds == "cells"
        for row, column in invented_cells(step.args.get(name), given)
    ]
    if len(spots) != 1:
        return program
    index, name, row, column = spots[0]
    step = program.steps[index]
    rows: list[Any] = [list(line) if isinstance(line, list) else line for line in step.args[name]]
    rows[row][column] = reference
    steps = list(program.steps)
    steps[index] = step.model_copy(update={"args": {**step.args, name: rows}})
    return program.model_copy(update={"steps": steps})


def with_unused_value_in_ungiven_field(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with its one form field of words nobody gave referring to its one unused
    value, where there is exactly one of each and the field comes after the value; else
    ``program`` itself."""
    left = _values_left(program, catalog)
    if len(left) != 1:
        return program
    at, reference = left[0]
    spots = [
        (index, name, number)
        for index, step in enumerate(program.steps)
        if index > at
        for name, holds in given_parameters(catalog, step.skill).items()
        if holds == "form" and isinstance(fields := step.args.get(name), list)
        for number, field in enumerate(fields)
        if isinstance(field, dict) and ungiven_words_typed(field.get("value"), given)
    ]
    if len(spots) != 1:
        return program
    index, name, number = spots[0]
    step = program.steps[index]
    if _beside_its_own(step.args[name], number, reference["from"]):
        return program
    fields = [dict(field) if isinstance(field, dict) else field for field in step.args[name]]
    fields[number]["value"] = reference
    steps = list(program.steps)
    steps[index] = step.model_copy(update={"args": {**step.args, name: fields}})
    return program.model_copy(update={"steps": steps})


def _beside_its_own(fields: list[Any], number: int, source: str) -> bool:
    """Whether a field of ``fields`` other than ``number`` holds a value of step ``source``
    (a reference, or its slot in a text). Then which of that step's values goes where is the
    model's to say, not code's: told a journey's "city" and "destination", the 1.5B Manager
    filled "To" with the city and "From" with a made-up name, and the mend gave "From" the
    destination left over, so both booking searches went the wrong way round and said
    "finished" (pc16 and pc25, 2026-12-05)."""
    for at, field in enumerate(fields):
        if at == number or not isinstance(field, dict):
            continue
        value = field.get("value")
        if is_reference(value) and value.get("from") == source:
            return True
        if isinstance(value, str) and any(m.group(1) == source for m in SLOT.finditer(value)):
            return True
    return False


def with_unused_values_in_labelled_rows(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with the numbers of its first list of labelled rows, one of them made up,
    referring to the unused values whose names (or descriptions) hold each row's label; else
    ``program`` itself."""
    left = _values_left(program, catalog)
    described = {
        step.id: str(step.args.get("what") or "")
        for step in program.steps
        if isinstance(names := step.args.get("names"), list) and len(names) == 1
    }
    for index, step in enumerate(program.steps):
        for name, holds in given_parameters(catalog, step.skill).items():
            rows = step.args.get(name)
            if holds != "cells" or not isinstance(rows, list) or not invented_cells(rows, given):
                continue
            numbered = [at for at, row in enumerate(rows) if _labelled_number(row)]
            earlier = [reference for at, reference in left if at < index]
            chosen = [_named_for(rows[at][0], earlier, described) for at in numbered]
            keys = [(one["from"], one.get("key", "")) for one in chosen if one is not None]
            if len(numbered) < 2 or len(keys) != len(numbered) or len(set(keys)) != len(keys):
                continue
            mended: list[Any] = [list(row) if isinstance(row, list) else row for row in rows]
            for at, reference in zip(numbered, chosen, strict=True):
                mended[at][1] = reference
            steps = list(program.steps)
            steps[index] = step.model_copy(update={"args": {**step.args, name: mended}})
            return program.model_copy(update={"steps": steps})
    return program


def _labelled_number(row: object) -> bool:
    """Whether ``row`` is ``[label, number]`` as written: a text, then a literal number."""
    return (
        isinstance(row, list)
        and len(row) == 2
        and isinstance(row[0], str)
        and cell_number(row[1]) is not None
    )


def _named_for(
    label: str, left: Sequence[dict[str, str]], described: dict[str, str]
) -> dict[str, str] | None:
    """The one value of ``left`` whose name, or whose extraction's description, holds every
    word of ``label``; None where none does or several do."""
    words = _words(label)
    holding = [
        one
        for one in left
        if words
        and (words <= _words(one.get("key", "")) or words <= _words(described.get(one["from"], "")))
    ]
    return holding[0] if len(holding) == 1 else None


def _words(text: str) -> set[str]:
    """A label's or a value's name's words, folded; underscores part words."""
    return set(folded(text.replace("_", " ")).split())


def _values_left(program: Program, catalog: SkillCatalog) -> list[tuple[int, dict[str, str]]]:
    """Each value a step finds or works out that no later step uses, as the reference to it,
    with the step's index: a value a computing skill gives whole, or one name of an
    extraction's that later steps leave out (where they use none, each of its names)."""
    left: list[tuple[int, dict[str, str]]] = []
    for index, step in enumerate(program.steps):
        one = skill_of(step, catalog)
        if one is None:
            continue
        later = program.steps[index + 1 :]
        names = finds_named_values(step, catalog)
        if names:
            kept = unused_names(step, later, names)
            left += [(index, {"from": step.id, "key": name}) for name in kept]
            continue
        whole = one.computes and not one.value_keys and not one.gives_list
        if whole and not any(step.id in values_used(other) for other in later):
            left.append((index, {"from": step.id}))
    return left


def with_unused_rows_in_invented_list(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with its one list of things and made-up values referring to its one unused
    list of looked-up rows of the same things, in the same order; else ``program`` itself.
    A step that looks up rows names its things in a list argument (``things``); a sort of
    its rows, taken whole, gives the same rows in another order."""
    steps = program.steps
    left = [
        (index, step, looked)
        for index, step in enumerate(steps)
        if (looked := _looked_up(step, steps[:index], catalog)) is not None
        and not any(step.id in values_used(other) for other in steps[index + 1 :])
    ]
    if len(left) != 1:
        return program
    at, found, (things, value) = left[0]
    spots = [
        (index, name)
        for index, step in enumerate(steps)
        if index > at and step.skill in LABELLED_LISTS
        for name, as_items in [LABELLED_LISTS[step.skill]]
        if _made_up_list_of(step.args.get(name), as_items, (things, value), given)
    ]
    if len(spots) != 1:
        return program
    index, name = spots[0]
    step: ProgramStep = steps[index]
    mended = list(steps)
    mended[index] = step.model_copy(update={"args": {**step.args, name: {"from": found.id}}})
    return program.model_copy(update={"steps": mended})


def _looked_up(
    step: ProgramStep, earlier: Sequence[ProgramStep], catalog: SkillCatalog
) -> tuple[list[str], str] | None:
    """The things whose rows ``step`` gives, and the name of their value, folded: a step with
    a list of names (``web_search_each``), or one that takes such a step's rows whole and
    gives rows (``sort_items``); None for any other."""
    one = skill_of(step, catalog)
    if one is None or not one.gives_list:
        return None
    named = [_folded(value) for value in step.args.values() if _folded(value)]
    if named:
        return named[0], _name(step.args.get("value"))
    sources = [value["from"] for value in step.args.values() if is_reference(value)]
    if len(sources) != 1 or len(step.args) > 2:
        return None
    source = next((one for one in earlier if one.id == sources[0]), None)
    return _looked_up(source, [], catalog) if source is not None else None


def _name(value: object) -> str:
    """A value's name as a person writes it: case-folded, underscores as spaces."""
    return " ".join(str(value).replace("_", " ").split()).casefold() if value else ""


def _folded(value: object) -> list[str]:
    """A list of names, each stripped and case-folded; empty for anything else."""
    if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
        return []
    return [one.strip().casefold() for one in value]


def _made_up_list_of(
    value: object, as_items: bool, looked: tuple[list[str], str], given: Sequence[str]
) -> bool:
    """Whether ``value`` is rows ``[label, value]`` (or items ``{"label", "value"}``) whose
    labels are ``looked``'s things in order, with at least one number nobody gave, or the
    value's own name written in every row ("stock" where the share price belonged)."""
    if not isinstance(value, list):
        return False
    rows = [
        [item.get("label"), item.get("value")] if as_items and isinstance(item, dict) else item
        for item in value
    ]
    if not all(isinstance(row, list) and len(row) == 2 for row in rows):
        return False
    things, name = looked
    if not as_items and _header(rows, things):
        rows = rows[1:]
    if _folded([row[0] for row in rows]) != things:
        return False
    named = bool(name) and all(isinstance(row[1], str) and _name(row[1]) == name for row in rows)
    return named or bool(invented_cells(rows, given)) or _one_number_for_all(rows)


def _one_number_for_all(rows: list[list[Any]]) -> bool:
    """Whether several rows all hold one and the same number: a value of each thing looked up
    written as one number given for all (the year of "the 2024 populations" as each country's
    population, a rewording of pc08, 2026-12-04), which no lookup of several things gives."""
    numbers = [cell_number(row[1]) for row in rows]
    return len(rows) > 1 and None not in numbers and len(set(numbers)) == 1


def _header(rows: list[list[Any]], things: list[str]) -> bool:
    """Whether a sheet's first row names its columns: two texts, no number, the first none of
    the things, above one row for each thing (a rewording of pc08, 2026-12-04, wrote
    ``["Country", "Population"]`` above three countries with populations of its own). The
    rows looked up take the whole list's place, the column names with it: a sheet without
    them is better than one with numbers nobody found."""
    return (
        len(rows) == len(things) + 1
        and all(isinstance(cell, str) and cell_number(cell) is None for cell in rows[0])
        and _folded(rows[0])[0] not in things
    )
