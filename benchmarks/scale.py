"""The benchmark on Ray with one actor and with two, on this machine: wall time and the ratio.

Runs the same task list twice on one local Ray instance, first with one actor, then with two,
with the reference agent (the scripted GUI solutions: the runner's own cost, without a model's).
While each runs, a sampler reads once a second the memory of every actor's process and of its
sandbox's processes (found through the sandbox watchdogs, see
:mod:`pcagent.env.sandbox_guard`); the peak per actor is reported.

Prints the wall time of each, the speed-up (one actor's time over two actors'), the median time
per task, the peak memory per actor, and a projection of a 100-task run on N machines from
those figures (written out in docs/bench.md).

Goal: two actors at least 1.5 times as fast as one on two cores.

    python benchmarks/scale.py --json [--tasks pc01 pc14 pc21 pc23 ...] [--agent reference]
    python benchmarks/scale.py --json --quick      # one short task, to see that it works
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from pathlib import Path

from headline import add_quick_option, headline
from pcagent.bench.ray_runner import DISPLAY_RESOURCE, ActorResources, run_tasks_on_ray
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import select_tasks
from pcagent.env import processes
from pcagent.env.sandbox_guard import guards_of, sandbox_id_of

GOAL_SPEEDUP = 1.5
DEFAULT_TASKS = ("pc01", "pc09", "pc13", "pc14", "pc21", "pc22", "pc23", "pc12")


def resident_mb(pid: int) -> float:
    """The resident memory of ``pid`` in MiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def actor_footprint_mb(pid: int) -> float:
    """An actor's process plus every process of the sandboxes it owns."""
    total = resident_mb(pid)
    for state_file in guards_of(pid).values():
        marker = sandbox_id_of(state_file)
        if marker is None:
            continue
        total += sum(resident_mb(p) for p in processes.find_marked_processes(marker))
    return total


class Sampler:
    """Samples the footprint of the actors it is told of, once a second, keeping each peak."""

    def __init__(self) -> None:
        self.peaks: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def add(self, pid: int) -> None:
        self.peaks.setdefault(pid, 0.0)

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            for pid in list(self.peaks):
                self.peaks[pid] = max(self.peaks[pid], actor_footprint_mb(pid))

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def measured(tasks: list, agent: str, actors: int) -> dict:  # type: ignore[type-arg]
    results: list[TaskRun] = []
    with Sampler() as sampler:
        started = time.perf_counter()
        run_tasks_on_ray(
            tasks,
            agent,  # type: ignore[arg-type]
            actors=actors,
            resources=ActorResources(cpus=1, memory_gb=1),
            on_result=results.append,
            on_start=lambda task, pid: sampler.add(pid),
        )
        wall = time.perf_counter() - started
    return {
        "actors": actors,
        "wall_seconds": round(wall, 1),
        "passed": sum(r.outcome.success for r in results),
        "task_seconds_median": round(statistics.median(r.outcome.seconds for r in results), 1),
        "actor_peak_mb": round(max(sampler.peaks.values(), default=0.0)),
    }


def projection(machine_seconds_per_task: float, tasks: int = 100) -> list[dict]:  # type: ignore[type-arg]
    """Hours for ``tasks`` tasks on N machines like this one, each running two actors at the
    throughput measured here, the tasks spread evenly (the driver's own cost is negligible)."""
    return [
        {"machines": n, "hours": round(tasks * machine_seconds_per_task / n / 3600, 2)}
        for n in (1, 2, 4, 8, 16)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--tasks", nargs="*", default=list(DEFAULT_TASKS))
    parser.add_argument("--agent", default="reference", choices=("reference", "reference-api"))
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:  # one short task, the application actions' solution
        arguments.tasks, arguments.agent = ["pc09"], "reference-api"

    import os

    import ray

    tasks = select_tasks(arguments.tasks)
    ray.init(
        address="local",
        num_cpus=os.cpu_count() or 1,
        resources={DISPLAY_RESOURCE: 2},
        include_dashboard=False,
        log_to_driver=False,
    )
    try:
        one = measured(tasks, arguments.agent, 1)
        two = measured(tasks, arguments.agent, 2)
    finally:
        ray.shutdown()
    # One machine's throughput with two actors, per task: what each further machine adds.
    per_task = two["wall_seconds"] / len(tasks)
    speedup = round(one["wall_seconds"] / two["wall_seconds"], 2)
    report = {
        **headline(
            {"speedup_two_over_one": speedup},
            {
                "speedup_two_over_one": f"at least {GOAL_SPEEDUP}: two actors on two cores get "
                "through the list that much faster than one (with one task, --quick cannot)"
            },
            speedup >= GOAL_SPEEDUP if len(tasks) > 1 else None,
            quick=arguments.quick,
        ),
        "date": time.strftime("%Y-%m-%d"),
        "cores": os.cpu_count(),
        "agent": arguments.agent,
        "tasks": [t.id for t in tasks],
        "one_actor": one,
        "two_actors": two,
        "speedup_two_over_one": speedup,
        "seconds_per_task_two_actors": round(per_task, 1),
        "projection_100_tasks": projection(per_task),
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
