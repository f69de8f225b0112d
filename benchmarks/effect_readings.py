"""What an instruction asks each application to leave done: does the model read it, and does
the check of a program against it leave right programs alone?

For generated tasks of a seed (``--tasks SEED:COUNT``), the `effect_reading` role's model is
asked, as runs ask (``pcagent.agents.left_out_effects``), which end of
``pcagent.skills.effects.ENDS`` the instruction asks of each application the gold program works
in. The right answers are the ends the gold program makes that no other end it makes goes
beyond (a mail sent and an attachment saved: that end, not one of them). Baseline in the same
run: the answer with the options in their declared order, alone. Prints JSON: the share of
applications read right, the share of gold programs the check would doubt (an end read that
the gold program does not make), both for the baseline, and seconds per reading.

Goal: at least 80% of applications read right, and at most 5% of gold programs doubted.

    python benchmarks/effect_readings.py --tasks 3103:20      # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/effect_readings.py --json --quick       # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import found_and_doubted, parsed_with_model, share
from pcagent.agents.left_out_effects import EffectReadingAgent
from pcagent.agents.program import step_apps
from pcagent.bench.generate import generate_tasks
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog
from pcagent.skills.effects import ENDS, End


def gold_ends(called: set[str], app: str) -> list[End]:
    """The ends of ``app`` that skills ``called`` make and no other end they make goes beyond."""
    made = [end for end in ENDS[app][1] if end.made(called)]
    return [end for end in made if not any(set(end.needs) < set(other.needs) for other in made)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config = parsed_with_model(parser, (3103, 20), quick_tokens=30)
    seed, count = arguments.tasks
    catalog = default_catalog()
    tasks = [task for task in generate_tasks(count, seed) if task.program]
    apps_read = right = right_first = programs = doubted = doubted_first = 0
    took: list[float] = []
    with ModelRouter(config) as router:
        agent = EffectReadingAgent(router.for_role(EffectReadingAgent.name))
        for task in tasks:
            steps = list(task.program or ())
            called = {step.skill for step in steps}
            apps = sorted({app for step in steps for app in step_apps(step, catalog)} & set(ENDS))
            wrong = wrong_first = False
            for app in apps:
                gold = gold_ends(called, app)
                began = time.perf_counter()
                first, second = agent.answers(task.instruction, app)
                took.append(time.perf_counter() - began)
                kept = first if first is not None and first == second else None
                apps_read += 1
                right += kept in gold
                right_first += first in gold
                wrong |= kept is not None and not kept.made(called)
                wrong_first |= first is not None and not first.made(called)
                print(
                    f"{task.id} {app}: {first and first.words!r} / {second and second.words!r}"
                    f" (gold {[end.words for end in gold]})",
                    file=sys.stderr,
                    flush=True,
                )
            programs += 1
            doubted += wrong
            doubted_first += wrong_first
    print(
        json.dumps(
            {
                **found_and_doubted(
                    "ends_right_share",
                    share(right, apps_read),
                    "applications whose end (the gold program's) is read right",
                    share(doubted, programs),
                    arguments.quick,
                ),
                "model": agent.model.info.name,
                "seed": seed,
                "tasks": programs,
                "applications_read": apps_read,
                "ends_right_share_baseline": share(right_first, apps_read),
                "gold_programs_doubted_share_baseline": share(doubted_first, programs),
                "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
