"""Steps and time of the two reference solutions of each task, in one run: through the GUI alone
(the baseline) and with application actions.

Both run on the same sandbox, one task after the other (GUI first, then application actions,
each after a reset with the task's fixtures), and both must pass the task's checkers; a failed
solution is reported and its task left out of the totals. The goal: the application-action
solutions take at most 40% of the GUI solutions' steps and at most 50% of their time over all
tasks (``steps_ratio`` <= 0.4, ``time_ratio`` <= 0.5).

    python benchmarks/app_actions.py --json [--tasks pc01 pc12]
    python benchmarks/app_actions.py --json --quick      # one short task
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from headline import add_quick_option, headline
from pcagent.bench.task_run import run_task, sandbox_config_for, services_for
from pcagent.bench.tasks import select_tasks
from pcagent.env import SandboxDesktop

GOAL = {"steps_ratio": 0.4, "time_ratio": 0.5}
#: The task --quick runs: one application, the shortest reference solutions.
QUICK_TASK = "pc09"


def _ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument("--tasks", nargs="*", help="task ids (default: all)")
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.tasks = [QUICK_TASK]
    tasks = select_tasks(arguments.tasks)
    per_task: dict[str, dict[str, Any]] = {}
    failures: dict[str, str] = {}
    with (
        tempfile.TemporaryDirectory(prefix="pcagent-app-actions-") as folder,
        services_for(tasks, Path(folder)) as services,
        SandboxDesktop(sandbox_config_for(services)) as desktop,
    ):
        for task in tasks:
            runs = {}
            for agent in ("reference", "reference-api"):
                run = runs[agent] = run_task(task, agent, desktop, services)
                if not run.outcome.success:
                    failed = [s.node_id for s in run.nodes if not s.passed]
                    failures[f"{task.id}/{agent}"] = run.error or f"sub-goals failed: {failed}"
            gui, api = runs["reference"].outcome, runs["reference-api"].outcome
            row = {
                "gui_steps": gui.actions,
                "api_steps": api.actions,
                "gui_s": round(gui.seconds, 2),
                "api_s": round(api.seconds, 2),
                "steps_ratio": _ratio(api.actions, gui.actions),
                "time_ratio": _ratio(api.seconds, gui.seconds),
                "passed": gui.success and api.success,
            }
            per_task[task.id] = row
            print(f"{task.id}: {row}", file=sys.stderr, flush=True)
    counted = [row for row in per_task.values() if row["passed"]]
    total = {
        key: round(sum(row[key] for row in counted), 2)
        for key in ("gui_steps", "api_steps", "gui_s", "api_s")
    }
    total["steps_ratio"] = _ratio(total["api_steps"], total["gui_steps"])
    total["time_ratio"] = _ratio(total["api_s"], total["gui_s"])
    total["tasks"] = len(counted)
    met = (
        bool(counted)
        and (total["steps_ratio"] or 1) <= GOAL["steps_ratio"]
        and (total["time_ratio"] or 1) <= GOAL["time_ratio"]
    )
    report = {
        **headline(
            {"steps_ratio": total["steps_ratio"], "time_ratio": total["time_ratio"]},
            {
                "steps_ratio": f"at most {GOAL['steps_ratio']} of the GUI solutions' steps",
                "time_ratio": f"at most {GOAL['time_ratio']} of the GUI solutions' time",
            },
            met,
            quick=arguments.quick,
        ),
        "per_task": per_task,
        "total": total,
        "met": met,
        "failures": failures,
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        for task_id, row in per_task.items():
            print(f"{task_id}: {row}")
        print(f"total: {total}  goal met: {report['met']}")


if __name__ == "__main__":
    main()
