"""Every doubt check at once, on gold programs as the Manager's code mends leave them.

Each check has its own test on the gold programs as the templates write them; this one runs
them all through :class:`~pcagent.agents.doubts.Evidence` after the mends that need no model
(an extraction told its uses, numbers asked for as numbers), with the other tasks' programs
shown as memory shows them (all of them, where memory shows the nearest three: so a longer
program of the same template is always among them, and the check that asks whether a step was
left out of an example has its own test, ``test_left_out_of_examples.py``). Why: an argument the mends write (an extraction's ``uses``) was
read by one check as an example's value, and a right program ended "unverified" (2026-12-07).
"""

from __future__ import annotations

import json

from pcagent.agents.doubts import Evidence
from pcagent.agents.extraction_uses import with_extraction_uses_told
from pcagent.agents.left_out_of_examples import steps_left_out_of_examples
from pcagent.agents.numbers_wanted import with_numbers_wanted
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog


def _shown(instruction: str, steps: list[dict[str, object]]) -> str:
    return f"Instruction: {instruction}\nProgram: {json.dumps({'steps': steps})}"


def test_no_gold_program_is_doubted_after_the_code_mends() -> None:
    catalog = default_catalog()
    tasks = [task for task in generate_tasks(200, 47) if task.program]
    shown = {
        task.id: _shown(
            task.instruction, [s.model_dump(exclude_defaults=True) for s in task.program or []]
        )
        for task in tasks
    }
    doubted, uses_told = [], 0
    for task in tasks:
        written = Program(steps=task.program or [])
        mended = with_numbers_wanted(with_extraction_uses_told(written, catalog), catalog)
        uses_told += mended != written
        others = "\n".join(text for key, text in shown.items() if key != task.id)
        doubts = Evidence(given=[task.instruction], examples=others).doubts(mended, catalog)
        longer = steps_left_out_of_examples(mended, others)
        doubted += [(task.id, str(doubt)) for doubt in doubts if doubt not in longer]
    assert doubted == []
    assert uses_told >= 10  # the mends changed enough programs for the test to mean something
