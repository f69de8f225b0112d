"""Whether an instruction asks to be told a value: does the model read it, and does the check of
a program against it leave right programs alone?

For generated tasks of a seed (``--tasks SEED:COUNT``), and the task files of ``--tasks-dir``
folders, the `asked_answer` role's model says which end each instruction asks for (a value to
be told, changes on the computer, or both; ``pcagent.agents.asked_answer``). A generated task
asks to be told when its gold program has a step that tells (``tell_user``, or a screen step
reporting values); a task file, when one of its sub-goals is checked on the answer
(``answer_is``). Baseline: every instruction read as asking (the check without a reading).
Prints JSON: the share of asking tasks read as asking, the share of the others read as asking
(false alarms) against the baseline's, the share of gold programs the check would doubt (a
right program doubted), and seconds per reading.

Goal: at least 80% of asking tasks read as asking, and at most 5% of gold programs doubted.

    python benchmarks/asked_answer.py --tasks 2032:40            # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/asked_answer.py --tasks 2032:0 --tasks-dir src/pcagent/bench/tasks
    python benchmarks/asked_answer.py --json --quick             # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from generated_runs import found_and_doubted, parsed_with_model, share
from pcagent.agents.asked_answer import BOTH, VALUE, AskedEnd, tells, untold_answer
from pcagent.agents.program import Program
from pcagent.agents.prompting import render
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import Task, load_task_folder
from pcagent.models import ModelRouter
from pcagent.models.messages import Message


def asks(task: Task) -> bool:
    """Whether the task asks to be told something: its gold program tells, or (a task file
    without one) a sub-goal is checked on the answer."""
    if task.program:
        return any(tells(step) for step in task.program)
    return any(node.checker.startswith("answer") for node in task.nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-dir", type=Path, action="append", default=[])
    arguments, config = parsed_with_model(parser, (2032, 40), quick_tokens=60)
    seed, count = arguments.tasks
    tasks = [t for t in generate_tasks(count, seed) if t.program] if count else []
    for folder in arguments.tasks_dir:
        tasks.extend(load_task_folder(folder).values())
    asking = found = alarms = programs = doubted = baseline_doubted = 0
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role("asked_answer")
        for task in tasks:
            system, user = render("asked_answer", instruction=task.instruction)
            began = time.perf_counter()
            result = model.ask(
                [Message.system(system), Message.user(user)], AskedEnd, role="asked_answer"
            )
            took.append(time.perf_counter() - began)
            read = result.value is not None and result.value.result in (VALUE, BOTH)
            wanted = asks(task)
            asking += wanted
            found += wanted and read
            alarms += not wanted and read
            if task.program:
                program = Program(steps=list(task.program))
                programs += 1
                doubted += bool(untold_answer(program, read))
                baseline_doubted += bool(untold_answer(program, True))
    found_share, doubted_share = share(found, asking), share(doubted, programs)
    quiet = len(tasks) - asking
    print(
        json.dumps(
            {
                **found_and_doubted(
                    "asking_found_share",
                    found_share,
                    "instructions that ask to be told something read as asking",
                    doubted_share,
                    arguments.quick,
                ),
                "model": model.info.name,
                "tasks": len(tasks),
                "seed": seed,
                "asking_tasks": asking,
                "false_alarm_share": share(alarms, quiet),
                "gold_programs_doubted_share_baseline": share(baseline_doubted, programs),
                "seconds_per_reading_median": (round(statistics.median(took), 1) if took else None),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
