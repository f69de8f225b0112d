"""The applications an instruction asks for: does the model read them, does the check of a
program against them leave right programs alone, and does it catch a program that leaves one out?

For generated tasks of a seed (``--tasks SEED:COUNT``), the `named_apps` role's model picks the
applications each instruction asks for, with the words that ask, and code keeps the picks whose
words stand in it (``pcagent.agents.named_apps``). A task's applications are those its gold
program uses (a skill of one, or a screen step in one). Prints JSON: the share of gold programs
the check would doubt (a right program doubted is a false alarm), the share of gold programs of
two or more applications caught when every step of their last application is left out, the
precision of the kept picks and of the model's raw picks (baseline) and their ratio, and
seconds per reading.

With ``--variant slots`` every instruction is read a second time, with one reply field per
application (its words or ""), and that reading's figures and the ratio of programs left short
caught (slots over the list) are printed beside.

With ``--tasks-dir DIR`` the instructions of the benchmark's task files there are read as well
(the 25 or their rewordings: hand-written words, not a template's), each against the
applications its task file lists: the share of those applications the kept picks find
(recall) and of the kept picks that are among them (precision). These tasks name all the
applications their reference uses, not only those their words ask for, so recall is a floor.

Goal: at most 5% of the gold programs doubted, at least half of the programs left short caught.

    python benchmarks/named_apps.py --tasks 77:20             # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/named_apps.py --tasks 77:20 --variant slots
    python benchmarks/named_apps.py --tasks 77:20 --tasks-dir src/pcagent/bench/tasks_reworded
    python benchmarks/named_apps.py --json --quick            # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from generated_runs import parsed_with_model, reading_figures, share
from headline import headline
from pcagent.agents.named_apps import AppNamesAgent, kept_apps, unused_apps
from pcagent.agents.program import Program, ProgramStep, step_apps
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import load_task_folder
from pcagent.env.apps import app_infos
from pcagent.models import ModelRouter
from pcagent.skills import SkillCatalog, default_catalog

GOAL_FALSE_ALARMS, GOAL_CAUGHT = 0.05, 0.5


def left_short(steps: list[ProgramStep], skills: SkillCatalog) -> Program | None:
    """The program without every step of the last application it uses; None when it uses
    fewer than two (nothing would be left to check)."""
    used = [app for step in steps for app in step_apps(step, skills)]
    if len(set(used)) < 2:
        return None
    last = used[-1]
    kept = [step for step in steps if last not in step_apps(step, skills)]
    return Program(steps=kept) if kept else None


def measured(reader: AppNamesAgent, tasks: list, apps: dict[str, str]) -> dict[str, object]:
    """The reading's figures over ``tasks`` with ``reader``."""
    skills = default_catalog()
    doubted = shortened = caught = kept_total = kept_right = raw_total = raw_right = 0
    took: list[float] = []
    for task in tasks:
        steps = list(task.program or ())
        gold_apps = {app for step in steps for app in step_apps(step, skills)}
        began = time.perf_counter()
        raw = reader.read(task.instruction, apps)
        took.append(time.perf_counter() - began)
        kept = kept_apps(raw, task.instruction, apps)
        raw_total += len(raw)
        raw_right += sum(pick.app in gold_apps for pick in raw)
        kept_total += len(kept)
        kept_right += sum(pick.app in gold_apps for pick in kept)
        doubted += bool(unused_apps(Program(steps=steps), kept, skills))
        short = left_short(steps, skills)
        if short is not None:
            shortened += 1
            caught += bool(unused_apps(short, kept, skills))
    return {
        "gold_programs_doubted_share": share(doubted, len(tasks)),
        "short_programs_caught_share": share(caught, shortened),
        "programs_left_short": shortened,
        "kept_picks": kept_total,
        **reading_figures((kept_right, kept_total), (raw_right, raw_total), took),
    }


def read_task_files(
    reader: AppNamesAgent, folder: Path, apps: dict[str, str], limit: int | None
) -> dict[str, object]:
    """The kept picks' recall and precision against the applications each task file of
    ``folder`` lists (the first ``limit`` files by id)."""
    tasks = sorted(load_task_folder(folder).values(), key=lambda task: task.id)[:limit]
    listed = found = kept_total = kept_right = 0
    missed: dict[str, list[str]] = {}
    for task in tasks:
        kept = {use.app for use in reader.asked(task.instruction, apps)}
        named = set(task.apps) & set(apps)
        listed += len(named)
        found += len(kept & named)
        kept_total += len(kept)
        kept_right += len(kept & named)
        if named - kept:
            missed[task.id] = sorted(named - kept)
    return {
        "folder": str(folder),
        "tasks": len(tasks),
        "apps_listed": listed,
        "kept_recall": share(found, listed),
        "kept_precision": share(kept_right, kept_total),
        "missed": missed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant",
        choices=["slots"],
        help="also read with this variant, in the same run: slots, one reply field per "
        "application (AppNamesAgent(by_slots=True)); the figures of both and the ratio of "
        "programs left short caught",
    )
    parser.add_argument(
        "--tasks-dir",
        type=Path,
        help="also read the instructions of the benchmark task files in this folder, against "
        "the applications each lists",
    )
    arguments, config = parsed_with_model(parser, (77, 20), quick_tokens=60)
    seed, count = arguments.tasks
    tasks = [t for t in generate_tasks(count, seed) if t.program]
    apps = {app.name: app.description for app in app_infos()}
    with ModelRouter(config) as router:
        model = router.for_role(AppNamesAgent.name)
        found = measured(AppNamesAgent(model), tasks, apps)
        variant = (
            measured(AppNamesAgent(model, by_slots=True), tasks, apps)
            if arguments.variant
            else None
        )
        files = (
            read_task_files(
                AppNamesAgent(model), arguments.tasks_dir, apps, 1 if arguments.quick else None
            )
            if arguments.tasks_dir
            else None
        )
    alarms, caught_share = (
        found["gold_programs_doubted_share"],
        found["short_programs_caught_share"],
    )
    met = (
        None
        if alarms is None or caught_share is None
        else alarms <= GOAL_FALSE_ALARMS and caught_share >= GOAL_CAUGHT  # type: ignore[operator]
    )
    compared = {}
    if variant is not None:
        other = variant["short_programs_caught_share"]
        compared = {
            arguments.variant: variant,
            "caught_ratio": (
                round(other / caught_share, 2) if other is not None and caught_share else None  # type: ignore[operator]
            ),
        }
    print(
        json.dumps(
            {
                **headline(
                    {
                        "gold_programs_doubted_share": alarms,
                        "short_programs_caught_share": caught_share,
                    },
                    {
                        "gold_programs_doubted_share": f"at most {GOAL_FALSE_ALARMS}: right "
                        "programs the check would doubt",
                        "short_programs_caught_share": f"at least {GOAL_CAUGHT}: programs "
                        "without their last application's steps doubted",
                    },
                    met,
                    quick=arguments.quick,
                ),
                "model": model.info.name,
                "tasks": len(tasks),
                "seed": seed,
                **{k: v for k, v in found.items() if "share" not in k},
                **compared,
                **({"task_files": files} if files else {}),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
