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

from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, reference_values


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
                    counts.update({_named(found) for found in reference_values({"": item})})
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


def _named(reference: dict[str, object]) -> tuple[str, str, str]:
    """A found value: step, key and the item's place ("" for the whole value)."""
    return str(reference["from"]), str(reference.get("key") or ""), str(reference.get("item", ""))
