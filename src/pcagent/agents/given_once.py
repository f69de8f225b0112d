"""A number the instruction gives once, written as the value of several rows: a doubt.

Why: asked for the 2024 populations of three countries in a new sheet, the 1.5B planner made no
search and wrote 2024, the year the instruction gives, as each country's population; the
number is given, so the check of cells nobody gave let it pass, every step checked its effect,
and the run said "finished" (a rewording of pc08, 2026-12-02). Each row of a table stands for
something of its own (as :mod:`repeated_values` judges for values found); a number written in
one column of several rows more often than the instruction and the values found hold it was
not found for each row. Judged on the program's cell literals against the given texts; a
number the instruction writes as often as the rows hold it is its own ("3 apples, 3 pears").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from pcagent.agents.given_values import cell_number, given_parameters
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program
from pcagent.skills import SkillCatalog

#: A number as a given text writes it (not the end of a name: "doc1.docx" gives no 1).
_NUMBER = re.compile(r"(?<![A-Za-z_\d.])\d+(?:\.\d+)?")


def _times_given(given: Sequence[str]) -> Counter[float]:
    """How often each number stands in the given texts, all together."""
    counts: Counter[float] = Counter()
    for text in given:
        counts.update(float(number) for number in _NUMBER.findall(text.replace(",", "")))
    return counts


def given_once_in_rows(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> list[Doubt]:
    """A doubt for each cells parameter of ``program`` in which one number stands in one
    column of more rows than the ``given`` texts hold it (and in two rows at least)."""
    doubts: list[Doubt] = []
    times = _times_given(given)
    for step in program.steps:
        if step.skill == GUI:
            continue
        for name, holds in given_parameters(catalog, step.skill).items():
            rows = step.args.get(name)
            if holds != "cells" or not isinstance(rows, list):
                continue
            column_numbers: Counter[tuple[int, float]] = Counter(
                (column, number)
                for row in rows
                if isinstance(row, list)
                for column, cell in enumerate(row)
                if (number := cell_number(cell)) is not None
            )
            for (_column, number), count in column_numbers.most_common():
                if count >= 2 and count > times[number]:
                    doubts.append(
                        Doubt(
                            step.id,
                            f"{name} writes {number:g} in {count} rows, and the instruction "
                            f"gives it {times[number]} time(s): each row wants a value of its "
                            "own; find each one's value (a search and extract_values for each) "
                            "and refer to each where it belongs",
                            own=True,
                        )
                    )
                    break
    return doubts
