"""The file names an instruction writes out: does the model read them, and does the check of a
program against them leave right programs alone?

For generated tasks of a seed (``--tasks SEED:COUNT``), the `named_files` role's model lists the
file names of each instruction, and code keeps those that stand in it with an ending
(``pcagent.agents.named_files``). A task's true names are the file names of its gold program's
paths that the instruction writes out with their ending. Baseline: the model's list as it
answered, before the names not in the instruction were dropped (its precision is the kept
list's without the check). Prints JSON: the share of true names found, the precision of the
kept and of the raw lists and their ratio, the share of gold programs the check would doubt
(a right program doubted is a false alarm), and seconds per reading. The same reply lists the
folders and web sites the instruction names (``pcagent.agents.named_folders``,
``pcagent.agents.named_sites``): ``folders`` and ``sites`` give how many were kept and the share
of gold programs their checks would doubt (a false alarm as well).

Goal: at least 80% of the true names found, and at most 5% of the gold programs doubted.

    python benchmarks/named_files.py --tasks 77:20            # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/named_files.py --json --quick           # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import PurePosixPath

from generated_runs import found_and_doubted, parsed_with_model, reading_figures, share
from pcagent.agents.named_files import FileNamesAgent, NamedFiles, kept_names, untouched_files
from pcagent.agents.named_folders import folders_left_out, kept_folders
from pcagent.agents.named_sites import kept_sites, sites_left_out
from pcagent.agents.program import Program, literal_texts
from pcagent.agents.prompting import render
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter
from pcagent.models.messages import Message
from pcagent.skills import default_catalog
from pcagent.text import contains


def true_names(task: Task) -> set[str]:
    """The file names of the gold program's literals that the instruction writes out."""
    names = set()
    for step in task.program or ():
        for text in literal_texts(step.args):
            name = PurePosixPath(text.strip()).name
            if PurePosixPath(name).suffix and contains(task.instruction, name):
                names.add(name.casefold())
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config = parsed_with_model(parser, (77, 20), quick_tokens=60)
    seed, count = arguments.tasks
    tasks = [t for t in generate_tasks(count, seed) if t.program]
    truth = found = kept_total = kept_right = raw_total = raw_right = doubted = 0
    folders_kept = folders_doubted = sites_kept = sites_doubted = 0
    catalog = default_catalog()
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role(FileNamesAgent.name)
        for task in tasks:
            wanted = true_names(task)
            system, user = render("named_files", instruction=task.instruction)
            began = time.perf_counter()
            result = model.ask(
                [Message.system(system), Message.user(user)], NamedFiles, role="named_files"
            )
            took.append(time.perf_counter() - began)
            listed = result.value.files if result.value else []
            raw = {PurePosixPath(name.strip()).name.casefold() for name in listed}
            kept = {name.casefold() for name in kept_names(listed, task.instruction)}
            truth, found = truth + len(wanted), found + len(wanted & kept)
            kept_total, kept_right = kept_total + len(kept), kept_right + len(wanted & kept)
            raw_total, raw_right = raw_total + len(raw), raw_right + len(wanted & raw)
            gold = Program(steps=list(task.program or ()))
            doubted += bool(untouched_files(gold, kept, catalog=catalog))
            folders = kept_folders(result.value.folders if result.value else [], task.instruction)
            folders_kept += len(folders)
            folders_doubted += bool(folders_left_out(gold, catalog, folders))
            sites = kept_sites(result.value.sites if result.value else [], task.instruction)
            sites_kept += len(sites)
            sites_doubted += bool(sites_left_out(gold, catalog, sites))
    found_share, alarms = share(found, truth), share(doubted, len(tasks))
    print(
        json.dumps(
            {
                **found_and_doubted(
                    "names_found_share",
                    found_share,
                    "file names the instruction writes out found",
                    alarms,
                    arguments.quick,
                ),
                "model": model.info.name,
                "tasks": len(tasks),
                "seed": seed,
                "true_names": truth,
                "folders": {
                    "kept": folders_kept,
                    "gold_programs_doubted_share": share(folders_doubted, len(tasks)),
                },
                "sites": {
                    "kept": sites_kept,
                    "gold_programs_doubted_share": share(sites_doubted, len(tasks)),
                },
                **reading_figures((kept_right, kept_total), (raw_right, raw_total), took),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
