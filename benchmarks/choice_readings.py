"""A skill's choice read alone: does the model choose the meaning a task asks for, and how often
would setting it break a right program?

For generated tasks of a seed (``--tasks SEED:COUNT``: the first COUNT whose gold program calls
a skill with a marked choice once, ``pcagent.agents.choice_readings``), the `choice_reading`
role's model is asked each choice's question, the options in the order the skill declares
them, as runs ask. The gold program's value (written, or its default) is the right one.
Baseline in the same run: the same question with the options the other way round (a small
model leans to one place in a list). Prints JSON: the share of choices read right and read
wrong (a wrong one would change a right program), the same for the baseline, the share with
no valid answer (the program's own value stands), and seconds per reading.

Goal: at most 5% of the choices read wrong (gold programs changed), at least 70% read right.

    python benchmarks/choice_readings.py --tasks 2041:40        # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/choice_readings.py --json --quick         # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import read_right_and_wrong, share, tasks_with
from pcagent.agents.choice_readings import ChoiceQuestion, ChoiceReadingAgent, choice_questions
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog

GOAL_WRONG, GOAL_RIGHT = 0.05, 0.7


def gold_choices(task: Task) -> list[tuple[ChoiceQuestion, object]]:
    """Each marked choice of the skills the gold program calls once, with its gold value."""
    catalog, steps = default_catalog(), list(task.program or ())
    choices = []
    for step in steps:
        if [s.skill for s in steps].count(step.skill) != 1:
            continue
        for question in choice_questions(catalog, step.skill):
            field = catalog.get(step.skill).parameters.model_fields[question.parameter]
            value = step.args.get(question.parameter, field.default)
            if not isinstance(value, dict):
                choices.append((question, value))
    return choices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config, seed, tasks = tasks_with(parser, (2041, 40), 60, gold_choices)
    right = wrong = unread = other_right = other_wrong = 0
    took: list[float] = []
    misread: list[dict[str, object]] = []
    with ModelRouter(config) as router:
        agent = ChoiceReadingAgent(router.for_role(ChoiceReadingAgent.name))
        for task in tasks:
            for question, gold in gold_choices(task):
                began = time.perf_counter()
                chosen = agent.chosen(task.instruction, question)
                took.append(time.perf_counter() - began)
                other = agent.chosen(task.instruction, question, reverse=True)
                other_right += other == gold
                other_wrong += other is not None and other != gold
                right += chosen == gold
                wrong += chosen is not None and chosen != gold
                unread += chosen is None
                if chosen is not None and chosen != gold:
                    misread.append({"task": task.id, "parameter": question.parameter})
                print(
                    f"{task.id} {question.parameter}: read {chosen!r} (options reversed: "
                    f"{other!r}), gold {gold!r} ({took[-1]:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    total = right + wrong + unread
    print(
        json.dumps(
            {
                **read_right_and_wrong(
                    (right, wrong, unread), (GOAL_WRONG, GOAL_RIGHT), "choices", arguments.quick
                ),
                "model": agent.model.info.name,
                "seed": seed,
                "tasks": len(tasks),
                "choices": total,
                "reversed_options_right_share_baseline": share(other_right, total),
                "reversed_options_wrong_share_baseline": share(other_wrong, total),
                "misread": misread,
                "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
