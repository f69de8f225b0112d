"""A call whose one check is a reading the model gave both ways: a doubt.

Why: whether a sorted list is wanted whole or only its first item (:mod:`first_or_all`), and
which paragraphs a formatting is for (:mod:`format_targets`), is read from the instruction by a
model, asked twice with the options in both orders; a reading counts where the answers agree,
and the program is then set so. Where they differ, the 1.5B model answered by the options'
place (the first option both times), the program was left as the planner wrote it, and the run
said "finished" with nothing that had checked that choice: the largest of three films' ratings
written alone where all three were asked, highest first (two rewordings of pc17 at 914764a),
a larger font given to the paragraph after the title where the title's was asked (a rewording
of pc22, at db209bf and at 914764a).

So such a call is doubted: the program runs as written, and the run ends "unverified" at best,
saying which choice no reading confirmed. A formatting call doubted so writes over the person's
document, so it is left out with what depends on it (:mod:`doubted_changes`): nothing is
changed on a choice no reading confirmed. Not re-asked for: a program written again cannot make
the reading agree (added where the program is kept, as :mod:`ends_on_reading`).

In the recorded runs of 2026-12-06 and 2026-12-07 (the 25 and the 50 rewordings at two commits,
the development subsets, 34 generated tasks), the whole-or-first question was asked 13 times
and never answered alike in both orders: 8 of those runs passed their checks (7 had said
"finished", and would now say "unverified": honest, though the pick was right), 5 failed (2 had
said "finished"). The paragraphs' question was answered both ways only on the pc22 rewording
(three runs, each a false "finished"); its 12 readings answered alike were all in runs that
passed.
"""

from __future__ import annotations

from pcagent.agents.first_or_all import first_or_all_read_both_ways, whole_or_first_calls
from pcagent.agents.format_targets import formattings, named_alone
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program
from pcagent.skills import SkillCatalog


def unsure_readings(
    program: Program, catalog: SkillCatalog, readings: InstructionReadings, instruction: str
) -> list[Doubt]:
    """A doubt on each call of ``program`` whose reading the model gave both ways (none where
    the readings are off)."""
    doubts = []
    if readings.choices is not None:
        for step, first in whole_or_first_calls(program, catalog):
            if first_or_all_read_both_ways(readings.chosen, instruction, first):
                doubts.append(
                    Doubt(
                        step,
                        f"whether the instruction asks for every item, the {first} first, or "
                        f"only the one with the {first} value was read both ways; {step} keeps "
                        "the planner's choice, which nothing checked",
                    )
                )
    for call in program.steps:
        asked = formattings(call, catalog)
        if not asked or named_alone(asked):
            continue
        unsure = [
            words for words, _ in asked if readings.targets_read_both_ways(instruction, words)
        ]
        if unsure:
            doubts.append(
                Doubt(
                    call.id,
                    f"which paragraphs the instruction asks to be {unsure[0]} was read both ways; "
                    f"{call.id} keeps the planner's paragraphs {asked[0][1]}, which nothing checked",
                )
            )
    return doubts
