"""A sorted list's use read alone: does the model tell "every item, in order" from "only the first
item" as a task asks, and how often would the reading break a right program?

For generated tasks of a seed (``--tasks SEED:COUNT``: the first COUNT whose gold program sorts
items or picks the extreme of some, ``pcagent.agents.first_or_all``), the `choice_reading` role's
model is asked the question runs ask, in both orders of the options; runs take a reading only
where the two agree. The gold program says the answer: a sort is the list whole, a pick the first
item only (the highest first where it picks the largest). Baseline in the same run: the
declared order's answer alone (what one question would give). Prints JSON: the shares read right
and wrong (a wrong "first" would change a right program; a wrong "whole" leaves a wrong one as
it is), the same for the baseline, the share unread (the program stands), seconds per reading.

Goal: at most 5% read wrong, at least 60% read right.

    python benchmarks/first_or_all_readings.py --tasks 3107:30    # qwen2.5-coder-1.5b
    python benchmarks/first_or_all_readings.py --json --quick     # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import read_right_and_wrong, share, tasks_with
from pcagent.agents.choice_readings import ChoiceQuestion, ChoiceReadingAgent
from pcagent.agents.first_or_all import FIRST, WHOLE, read_first_or_all
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter

GOAL_WRONG, GOAL_RIGHT = 0.05, 0.6


def gold_use(task: Task) -> tuple[str, str] | None:
    """The gold program's answer (``WHOLE`` for a sort, ``FIRST`` for a pick) and which end comes
    first; None for a program that does neither."""
    for step in task.program or ():
        if step.skill == "sort_items" and step.args.get("first") in ("highest", "lowest"):
            return WHOLE, str(step.args["first"])
        if step.skill == "pick_extreme":
            return FIRST, "lowest" if step.args.get("which") == "smallest" else "highest"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config, seed, tasks = tasks_with(parser, (3107, 30), 60, gold_use)
    right = wrong = unread = one_right = one_wrong = 0
    took: list[float] = []
    misread: list[dict[str, object]] = []
    with ModelRouter(config) as router:
        agent = ChoiceReadingAgent(router.for_role(ChoiceReadingAgent.name))
        answers: list[object] = []

        def read(instruction: str, question: ChoiceQuestion) -> object:
            answers.append(agent.chosen(instruction, question))
            return answers[-1]

        for task in tasks:
            gold, first = gold_use(task)  # type: ignore[misc]
            answers.clear()
            began = time.perf_counter()
            both = read_first_or_all(read, task.instruction, first)
            took.append(time.perf_counter() - began)
            alone = answers[0]  # the declared order's, asked first
            right += both == gold
            wrong += both not in (None, gold)
            unread += both is None
            one_right += alone == gold
            one_wrong += alone is not None and alone != gold
            if both not in (None, gold):
                misread.append({"task": task.id, "gold": gold})
            print(
                f"{task.id}: read {both!r} (answers {answers}), gold {gold!r} ({took[-1]:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    total = right + wrong + unread
    print(
        json.dumps(
            {
                **read_right_and_wrong(
                    (right, wrong, unread), (GOAL_WRONG, GOAL_RIGHT), "uses", arguments.quick
                ),
                "model": agent.model.info.name,
                "seed": seed,
                "tasks": len(tasks),
                "gold_whole": sum(gold_use(t)[0] == WHOLE for t in tasks),  # type: ignore[index]
                "one_order_right_share_baseline": share(one_right, total),
                "one_order_wrong_share_baseline": share(one_wrong, total),
                "misread": misread,
                "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
