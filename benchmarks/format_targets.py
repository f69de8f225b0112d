"""Which paragraphs each formatting is for, read alone: does the model list the paragraphs a
task asks, and how often would setting them break a right program?

For generated tasks of a seed (``--tasks SEED:COUNT``: the first COUNT whose gold program
formats paragraphs, ``pcagent.agents.format_targets``), the `format_targets` role's model is
asked, for each formatting of each gold call, which paragraphs the instruction asks it for, as
runs ask. The gold call's paragraphs are the right answer. Baseline in the same run, without a
model: every formatting of the task given all the paragraphs the task formats, as one merged
call does (what the 1.5B planner wrote for two rewordings). Prints JSON: the share read right
and read wrong (a wrong one would change a right program), the baseline's share right, their
ratio, the share with no valid answer (the call stands as written), and seconds per reading.

Goal: at most 5% read wrong, at least 70% read right.

    python benchmarks/format_targets.py --tasks 3101:20        # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/format_targets.py --json --quick         # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import read_right_and_wrong, share, tasks_with
from pcagent.agents.format_targets import FormatTargetsAgent, Paragraph, formattings
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog

GOAL_WRONG, GOAL_RIGHT = 0.05, 0.7


def gold_formattings(task: Task) -> list[tuple[str, list[Paragraph]]]:
    """Each formatting of the gold program's calls, in a question's words, with its paragraphs."""
    catalog = default_catalog()
    found = []
    for step in task.program or ():
        for words, paragraphs in formattings(step, catalog):
            found.append((words, paragraphs))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config, seed, tasks = tasks_with(
        parser, (3101, 20), 40, gold_formattings, pool=(60, 12)
    )
    right = wrong = unread = merged_right = 0
    took: list[float] = []
    misread: list[dict[str, object]] = []
    with ModelRouter(config) as router:
        agent = FormatTargetsAgent(router.for_role(FormatTargetsAgent.name))
        for task in tasks:
            asked = gold_formattings(task)
            every = sorted({str(p) for _, paragraphs in asked for p in paragraphs})
            for words, gold in asked:
                began = time.perf_counter()
                read = agent.targets(task.instruction, words)
                took.append(time.perf_counter() - began)
                right += read is not None and sorted(map(str, read)) == sorted(map(str, gold))
                wrong += read is not None and sorted(map(str, read)) != sorted(map(str, gold))
                unread += read is None
                merged_right += every == sorted(map(str, gold))
                if read is not None and sorted(map(str, read)) != sorted(map(str, gold)):
                    misread.append({"task": task.id, "formatting": words, "read": read})
                print(
                    f"{task.id} {words}: read {read!r}, gold {gold!r} ({took[-1]:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    total = right + wrong + unread
    baseline = share(merged_right, total)
    right_share = share(right, total)
    print(
        json.dumps(
            {
                **read_right_and_wrong(
                    (right, wrong, unread), (GOAL_WRONG, GOAL_RIGHT), "paragraphs", arguments.quick
                ),
                "model": agent.model.info.name,
                "seed": seed,
                "tasks": len(tasks),
                "formattings": total,
                "merged_call_right_share_baseline": baseline,
                "right_ratio_to_baseline": round(right_share / baseline, 2)
                if right_share and baseline
                else None,
                "misread": misread,
                "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
