"""One value found, written for several items of a list: caught before anything runs.

A table's rows and a list's items each stand for something of their own. A small planner
searched once for three companies' share prices, picked one company and one price out of the
page, and wrote that one price beside all three names in the sheet; every step checked its
effect and the run said "finished" (a rewording of pc07, 2026-11-28). A value an earlier step
found, referred to in two or more items of one list argument (rows of ``fill_cells``, items of
``pick_extreme`` or ``sort_items``), is a doubt the Manager is re-asked with: each item wants
its own value. Judged on the typed program alone (references and slots in texts); a literal
repeated is not judged, nor one list found whose items are picked by their places
(``{s2.films[0]}``, ``{s2.films[1]}``: each a value of its own).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, SLOT, Program, is_reference


def one_value_for_several_items(program: Program) -> list[Doubt]:
    """A doubt for each list argument in which one found value stands in several items."""
    doubts = []
    for step in program.steps:
        if step.skill == GUI:
            continue
        for name, value in step.args.items():
            if not isinstance(value, list):
                continue
            counts: Counter[tuple[str, str, str]] = Counter()
            for item in value:
                if isinstance(item, (list, dict)):
                    counts.update(set(_values_in(item)))
            repeated = [(found, times) for found, times in counts.most_common() if times > 1]
            if not repeated:
                continue
            (source, key, _), times = repeated[0]
            shown = f"{source}.{key}" if key else source
            doubts.append(
                Doubt(
                    step.id,
                    f"{step.id} writes the one value {shown} in {times} items of its {name}: "
                    "each item wants a value of its own; find each one's value (a search "
                    "and extract_values for each, or one name for each in extract_values) and "
                    "refer to each where it belongs",
                )
            )
    return doubts


def _values_in(value: object) -> Iterator[tuple[str, str, str]]:
    """The found values ``value`` refers to: step, key and the item's place ("" for the
    whole value), from reference objects and from slots in texts."""
    if is_reference(value):
        yield str(value["from"]), str(value.get("key") or ""), ""  # type: ignore[index,union-attr]
    elif isinstance(value, str):
        for match in SLOT.finditer(value):
            yield match.group(1), match.group(2) or "", match.group(3) or ""
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _values_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _values_in(inner)
