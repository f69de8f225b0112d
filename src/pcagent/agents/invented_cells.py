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
step alone. Where one list of looked-up rows goes unused and exactly one later list names the
same things in the same order with numbers nobody gave, that list is the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pcagent.agents.given_values import given_parameters, invented_cells
from pcagent.agents.one_search_for_many import LABELLED_LISTS
from pcagent.agents.program import GUI, Program, ProgramStep
from pcagent.agents.unused_values import finds_named_values, unused_names, values_used
from pcagent.skills import SkillCatalog


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


def _values_left(program: Program, catalog: SkillCatalog) -> list[tuple[int, dict[str, str]]]:
    """Each value a step finds or works out that no later step uses, as the reference to it,
    with the step's index: a value a computing skill gives whole, or one name of an
    extraction's that later steps leave out (where they use none, each of its names)."""
    left: list[tuple[int, dict[str, str]]] = []
    for index, step in enumerate(program.steps):
        if step.skill == GUI or step.skill not in catalog:
            continue
        later = program.steps[index + 1 :]
        names = finds_named_values(step, catalog)
        if names:
            kept = unused_names(step, later, names)
            left += [(index, {"from": step.id, "key": name}) for name in kept]
            continue
        one = catalog.get(step.skill)
        whole = one.computes and not one.value_keys and not one.gives_list
        if whole and not any(step.id in values_used(other) for other in later):
            left.append((index, {"from": step.id}))
    return left


def with_unused_rows_in_invented_list(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> Program:
    """``program`` with its one list of things and made-up numbers referring to its one unused
    list of looked-up rows of the same things, in the same order; else ``program`` itself.
    A step that looks up rows names its things in a list argument (``things``)."""
    left = [
        (index, step)
        for index, step in enumerate(program.steps)
        if step.skill in catalog
        and catalog.get(step.skill).gives_list
        and any(_folded(value) for value in step.args.values())
        and not any(step.id in values_used(other) for other in program.steps[index + 1 :])
    ]
    if len(left) != 1:
        return program
    at, found = left[0]
    named = [_folded(value) for value in found.args.values() if _folded(value)]
    spots = [
        (index, name)
        for index, step in enumerate(program.steps)
        if index > at and step.skill in LABELLED_LISTS
        for name, as_items in [LABELLED_LISTS[step.skill]]
        if _made_up_list_of(step.args.get(name), as_items, named, given)
    ]
    if len(spots) != 1:
        return program
    index, name = spots[0]
    step: ProgramStep = program.steps[index]
    steps = list(program.steps)
    steps[index] = step.model_copy(update={"args": {**step.args, name: {"from": found.id}}})
    return program.model_copy(update={"steps": steps})


def _folded(value: object) -> list[str]:
    """A list of names, each stripped and case-folded; empty for anything else."""
    if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
        return []
    return [one.strip().casefold() for one in value]


def _made_up_list_of(
    value: object, as_items: bool, named: list[list[str]], given: Sequence[str]
) -> bool:
    """Whether ``value`` is rows ``[label, number]`` (or items ``{"label", "value"}``) whose
    labels are one of ``named`` in order and at least one of whose numbers nobody gave."""
    if not isinstance(value, list):
        return False
    rows = [
        [item.get("label"), item.get("value")] if as_items and isinstance(item, dict) else item
        for item in value
    ]
    if not all(isinstance(row, list) and len(row) == 2 for row in rows):
        return False
    labels = _folded([row[0] for row in rows])
    return len(labels) == len(rows) and labels in named and bool(invented_cells(rows, given))
