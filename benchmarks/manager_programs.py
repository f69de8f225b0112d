"""The Manager: how often its program for a generated task has the task's own shape, asked as
runs ask it and asked another way (``--variant``).

For generated tasks of a seed (``--tasks SEED:COUNT``; not the seed program memory was built
from), the Manager writes a program for each instruction, with every application and skill of
the sandbox, and, with ``--memory FILE``, the programs of similar training tasks shown as runs
show them. A program "fits" when its skills, in order, are those of the task's gold program
(the values are not compared); it is "usable" when it passed every check rather than falling
back to one GUI step. Each task is asked twice in the same run: as runs ask today (baseline)
and as the variant asks:

- ``requests_first`` (the default): the reply opens with what the instruction asks, one thing
  each (``Manager(lists_requests=True)``);
- ``own_example_without_memory``: the prompt's own example is left out where memory shows
  programs of similar tasks (``Manager(example_beside_memory=False)``; the same as the baseline
  without ``--memory``);
- ``examples_covering_apps``: a model reads which applications the instruction asks for (as
  runs read it), and memory's programs that work in each of them are shown first; the baseline
  reads them too (their doubts are the same) and is shown the nearest programs as they come
  (``Manager(examples_cover_apps=False)``, how runs asked before 2026-11-27, night);
- ``examples_of_asked_apps_only``: of the programs covering the applications asked for, those
  that work in no other application are shown alone where there are any; the baseline shows
  the covering ones first and the others after them (``Manager(examples_only_asked_apps=
  False)``, how runs asked before 2026-11-28, afternoon);
- ``nearest_example_last``: memory's programs are shown nearest last, next to the instruction
  (``Manager(nearest_example_last=True)``); the baseline shows them nearest first, as runs do
  (the applications read for both);
- ``adapts_nearest``: where the first program has problems or doubts, the second ask shows
  memory's nearest program alone, to be changed into this instruction's (``Manager(
  adapts_nearest=True)``, today's); the baseline re-asks as runs did before 2026-12-08 (the
  applications read for both);
- ``without_memory``: no program of memory is shown (the ``no_memory`` ablation, asked as runs
  ask, the applications read for both); here memory earns its place when the baseline fits
  more programs (ratio below 1).

Prints JSON: usable and fitting counts of each, the ratio of fitting programs, seconds per
program.

Goal: the variant fits at least as many programs as the baseline (ratio >= 1).

    python benchmarks/manager_programs.py --tasks 99:10 --memory memory.db
    python benchmarks/manager_programs.py --tasks 4242:20 --memory memory.db \\
        --variant own_example_without_memory
    python benchmarks/manager_programs.py --json --quick      # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from generated_runs import parsed_with_model
from headline import headline
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.named_apps import AppNamesAgent, AskedApp
from pcagent.bench.generate import generate_tasks
from pcagent.env.apps import app_infos
from pcagent.experience.loading import open_experience
from pcagent.models import ModelRouter
from pcagent.skills.catalog import default_catalog

#: Each variant's Manager options, asked beside the baseline (today's options).
VARIANTS: dict[str, dict[str, bool]] = {
    "requests_first": {"lists_requests": True},
    "own_example_without_memory": {"example_beside_memory": False},
    "examples_covering_apps": {"examples_cover_apps": True},
    "examples_of_asked_apps_only": {"examples_only_asked_apps": True},
    "without_memory": {},
    "nearest_example_last": {"nearest_example_last": True},
    "adapts_nearest": {"adapts_nearest": True},
}
#: The baseline's options where they are not today's (the variant is today's).
BASELINES: dict[str, dict[str, bool]] = {
    "examples_covering_apps": {"examples_cover_apps": False},
    "examples_of_asked_apps_only": {"examples_only_asked_apps": False},
    "adapts_nearest": {"adapts_nearest": False},
}
#: The variants that need the instruction's applications read by a model.
READS_APPS = frozenset(
    {
        "examples_covering_apps",
        "examples_of_asked_apps_only",
        "without_memory",
        "nearest_example_last",
        "adapts_nearest",
    }
)
#: The variant whose Manager is shown no program of memory: for it, fewer fitting is the goal.
WITHOUT_MEMORY = "without_memory"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory", type=Path, help="program memory (pcagent experience build)")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="requests_first")
    arguments, config = parsed_with_model(parser, (99, 10), quick_tokens=80)
    if arguments.quick:
        arguments.memory = None
    seed, count = arguments.tasks
    tasks = [t for t in generate_tasks(count, seed) if t.program]
    memory = open_experience(arguments.memory).similar_programs if arguments.memory else None
    apps = {app.name: app.description for app in app_infos()}
    found: dict[str, dict[str, object]] = {}
    with ModelRouter(config) as router:
        model = router.for_role("manager")
        reader = AppNamesAgent(router.for_role(AppNamesAgent.name))
        readings: dict[str, tuple[AskedApp, ...]] = {}

        def asks_apps(instruction: str) -> tuple[AskedApp, ...]:
            if instruction not in readings:
                readings[instruction] = reader.asked(instruction, apps)
            return readings[instruction]

        reads = asks_apps if arguments.variant in READS_APPS else None
        for name, options in {
            "baseline": BASELINES.get(arguments.variant, {}),
            arguments.variant: VARIANTS[arguments.variant],
        }.items():
            manager = Manager(
                model,
                apps=apps,
                skills=default_catalog(),
                memory=None if name == WITHOUT_MEMORY else memory,
                readings=InstructionReadings(apps=reads),
                **options,
                # --quick checks that the script runs: one ask each (smollm2's re-asks are
                # 20-40 s prompts that only make the check slower).
                program_attempts=1 if arguments.quick else PROGRAM_ATTEMPTS,
            )
            usable = fitting = 0
            took: list[float] = []
            for task in tasks:
                began = time.perf_counter()
                outcome = manager.plan(task.instruction)
                took.append(time.perf_counter() - began)
                shape = [s.skill or "gui" for s in outcome.plan.subtasks]
                fits = not outcome.fallback and shape == [s.skill for s in task.program or ()]
                usable += not outcome.fallback
                fitting += fits
                told = "fallback" if outcome.fallback else ("fits" if fits else " ".join(shape))
                print(f"{name} {task.id}: {told} ({took[-1]:.0f} s)", file=sys.stderr, flush=True)
            found[name] = {
                "usable": usable,
                "fitting": fitting,
                "seconds_per_program_median": round(statistics.median(took), 1),
            }
    base, other = found["baseline"]["fitting"], found[arguments.variant]["fitting"]
    ratio = round(other / base, 2) if base else None  # type: ignore[operator]
    if arguments.variant == WITHOUT_MEMORY:
        goal = "below 1: without memory's programs, fewer programs fit their task's shape"
        met = None if ratio is None else ratio < 1
    else:
        goal = (
            f"at least 1: {arguments.variant} fits as many programs to their task's shape as "
            "the baseline"
        )
        met = None if ratio is None else ratio >= 1
    print(
        json.dumps(
            {
                **headline(
                    {"fitting_ratio": ratio}, {"fitting_ratio": goal}, met, quick=arguments.quick
                ),
                "model": model.info.name,
                "tasks": len(tasks),
                "seed": seed,
                "memory": str(arguments.memory or ""),
                "variant": arguments.variant,
                **found,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
