"""The formatting the instruction asks for a call's paragraphs, read alone and set where the
paragraphs' reading agrees: does it leave right programs alone, and does it mend a call that
copied another formatting?

For generated tasks of a seed (``--tasks SEED:COUNT``: the first COUNT whose gold program
formats paragraphs), the ``format_reading`` role's model is asked, for the paragraphs of each
gold ``format_paragraphs`` call, which formatting the instruction asks for them, and the
``format_targets`` role's which paragraphs that formatting is for, as runs ask
(``pcagent.agents.asked_formats``). The readings are set in the gold call (right: it stays as
it is and the formatting read is its own; wrong: it changed) and in the same call with another
formatting in place of its own (what the 1.5B planner wrote, copying an example: "mended" when
it then sets every formatting of the gold call). Baseline in the same run: the calls as written,
without a reading (gold calls all stay right, no copied call is mended). Prints JSON: the
shares read right and wrong, the share unread, the share of copied calls mended, and seconds
per reading.

Goal: at most 5% of gold calls changed, at least 30% of copied calls mended.

    python benchmarks/format_readings.py --tasks 3104:12        # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/format_readings.py --json --quick         # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import share, tasks_with
from headline import headline
from pcagent.agents.asked_formats import (
    GIVEN,
    FormatReadingAgent,
    format_options,
    paragraph_words,
    with_asked_formats_read,
)
from pcagent.agents.format_targets import FormatTargetsAgent, Paragraph, formattings
from pcagent.agents.program import Program, ProgramStep
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog

GOAL_WRONG, GOAL_MENDED = 0.05, 0.3
#: The formatting a copied call sets instead of its own: one the generator never asks for, or
#: (where the gold call is bold) another flag.
COPIED, COPIED_FOR_BOLD = {"italic": True}, {"underline": True}


def format_calls(task: Task) -> list[ProgramStep]:
    """The gold program's calls that set formattings on literal paragraphs."""
    catalog = default_catalog()
    return [step for step in task.program or () if formattings(step, catalog)]


def copied(step: ProgramStep) -> ProgramStep:
    """``step`` with another formatting in place of its own."""
    formats = default_catalog().marked(step.skill, "formats")
    rest = {n: v for n, v in step.args.items() if n not in formats}
    other = COPIED_FOR_BOLD if step.args.get("bold") else COPIED
    return step.model_copy(update={"args": {**rest, **other}})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config, seed, tasks = tasks_with(parser, (3104, 12), 40, format_calls, pool=(60, 12))
    catalog = default_catalog()
    right = wrong = unread = mended = calls = 0
    took: list[float] = []
    misread: list[dict[str, object]] = []
    with ModelRouter(config) as router:
        agent = FormatReadingAgent(router.for_role(FormatReadingAgent.name))
        paragraphs_of = FormatTargetsAgent(router.for_role(FormatTargetsAgent.name))
        readings: dict[tuple[str, str], tuple[str, ...] | None] = {}
        targets_read: dict[tuple[str, str], list[Paragraph] | None] = {}

        def targets(instruction: str, formatting: str) -> list[Paragraph] | None:
            if (instruction, formatting) not in targets_read:
                targets_read[instruction, formatting] = paragraphs_of.targets(
                    instruction, formatting
                )
            return targets_read[instruction, formatting]

        def read(instruction: str, words: str, options: tuple[str, ...]) -> tuple[str, ...] | None:
            if (instruction, words) not in readings:  # one reading serves both calls
                began = time.perf_counter()
                readings[instruction, words] = agent.formats(instruction, words, options)
                took.append(time.perf_counter() - began)
            return readings[instruction, words]

        for task in tasks:
            for gold in format_calls(task):
                calls += 1
                kept = with_asked_formats_read(
                    Program(steps=[gold]), catalog, read, targets, task.instruction
                )
                wrong_copy = Program(steps=[copied(gold)])
                fixed = with_asked_formats_read(
                    wrong_copy, catalog, read, targets, task.instruction
                )
                sets_gold = gold.args.items() <= fixed.steps[0].args.items()
                reading = readings.get((task.instruction, paragraph_words(gold, catalog)))
                options = format_options(catalog, gold.skill)
                own = {
                    o
                    for o, (n, v) in options.items()
                    if gold.args.get(n) == v or (v == GIVEN and gold.args.get(n) is not None)
                }
                changed = kept.steps != [gold]
                right += not changed and bool(reading) and set(reading) <= own
                wrong += changed
                unread += not changed and not (reading and set(reading) <= own)
                mended += sets_gold
                if changed:
                    misread.append({"task": task.id, "call": gold.args, "read": reading})
                print(
                    f"{task.id} {gold.args}: read {reading!r}; copied mended: "
                    f"{sets_gold} ({took[-1] if took else 0:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    mended_share = share(mended, calls)
    print(
        json.dumps(
            {
                **headline(
                    {
                        "gold_changed_share": share(wrong, calls),
                        "copied_mended_share": mended_share,
                    },
                    {
                        "gold_changed_share": f"at most {GOAL_WRONG}: gold calls changed",
                        "copied_mended_share": f"at least {GOAL_MENDED}: copied calls mended "
                        "(baseline without a reading: 0)",
                    },
                    None
                    if not calls
                    else wrong / calls <= GOAL_WRONG and mended / calls >= GOAL_MENDED,
                    quick=arguments.quick,
                ),
                "read_right_share": share(right, calls),
                "unread_share": share(unread, calls),
                "model": agent.model.info.name,
                "seed": seed,
                "tasks": len(tasks),
                "calls": calls,
                "copied_mended_share_baseline": 0.0 if calls else None,
                "misread": misread,
                "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
