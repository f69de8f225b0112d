"""The Judge: does it tell a program that does the instruction from one that leaves part undone?

For generated tasks of a seed (``--tasks SEED:COUNT``, a seed the program memory is not built
from), the Judge reads each task's instruction twice: against its gold program's steps (which do
the instruction: it should find it complete), and against the same program without its last
step (a request undone: it should not). Steps are shown as a run shows them, without values
(nothing runs here). Baseline: a judge that trusts every run (as runs were before the Judge),
right on exactly half of the cases. Prints JSON: each share, the accuracy, its ratio to the
baseline's, and seconds per judgement.

Goal: at least 80% of the programs with a step missing refused, and at least 80% of the whole
programs accepted.

    python benchmarks/outcome_judge.py --tasks 77:20          # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/outcome_judge.py --json --quick         # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from generated_runs import parsed_with_model
from headline import headline
from pcagent.agents.outcome_judge import JudgeAgent, step_lines
from pcagent.agents.program import Program, program_plan
from pcagent.bench.generate import generate_tasks
from pcagent.models import ModelRouter
from pcagent.skills.catalog import default_catalog

GOAL_SHARE = 0.8


def lines_of(program: Program) -> list[str]:
    subtasks = program_plan(program, default_catalog()).subtasks
    return step_lines(subtasks, {}, [s.id for s in subtasks])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config = parsed_with_model(parser, (77, 20), quick_tokens=200)
    seed, count = arguments.tasks
    # Tasks of two steps or more: without its last step, such a program leaves a request undone.
    tasks = [t for t in generate_tasks(count * 3, seed) if t.program and len(t.program) >= 2]
    tasks = tasks[:count]
    whole_accepted = short_refused = 0
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role("judge")
        judge = JudgeAgent(model)
        for task in tasks:
            program = Program(steps=list(task.program or ()))
            short = Program(steps=program.steps[:-1])
            for lines, whole in ((lines_of(program), True), (lines_of(short), False)):
                began = time.perf_counter()
                verdict = judge.judge(task.instruction, lines)
                took.append(time.perf_counter() - began)
                if whole:
                    whole_accepted += verdict.complete
                else:
                    short_refused += not verdict.complete
    cases = 2 * len(tasks)
    accuracy = (whole_accepted + short_refused) / cases
    accepted, refused = whole_accepted / len(tasks), short_refused / len(tasks)
    print(
        json.dumps(
            {
                **headline(
                    {
                        "short_refused_share": round(refused, 3),
                        "whole_accepted_share": round(accepted, 3),
                    },
                    {
                        "short_refused_share": f"at least {GOAL_SHARE}: programs with their last "
                        "step missing found incomplete",
                        "whole_accepted_share": f"at least {GOAL_SHARE}: whole gold programs "
                        "found complete",
                    },
                    refused >= GOAL_SHARE and accepted >= GOAL_SHARE,
                    quick=arguments.quick,
                ),
                "model": model.info.name,
                "tasks": len(tasks),
                "seed": seed,
                "accuracy": round(accuracy, 3),
                "baseline_accuracy": 0.5,
                "accuracy_ratio_to_baseline": round(accuracy / 0.5, 2),
                "seconds_per_judgement_median": round(statistics.median(took), 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
