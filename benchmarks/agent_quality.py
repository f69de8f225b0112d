"""The agents' quality with a configured model, on a fixed development subset of the benchmark.

The subset spans all eight applications with the benchmark's own tasks:

    pc01 text editor + clocks        pc12 file manager + word processor
    pc05 browser + calculator        pc17 browser + text editor
    pc07 browser + spreadsheet       pc19 text editor + mail
    pc09 word processor              pc25 mail + browser

It runs them with the ``pcagent`` agent (``--all``: the 25 tasks; ``--tasks``: others) and prints
SR, SSR, CR, EE, CE, steps, tokens, seconds per step, the count of each failure cause
(:mod:`pcagent.bench.failure_causes`) and the prompt budget: the median prompt tokens of each
agent role's model calls and the median seconds of a step, against the goals (Decision prompt
<= 1,500 tokens, step <= 15 s). The baseline in the same run is the task's own GUI reference
solution: its step count beside the agents'.

Results go to the benchmark store as each task ends; ``--continue BENCH_ID`` adds the tasks not
yet done to an earlier run, so a long run can be done in parts and reported together
(``pcagent bench report BENCH_ID``). Ctrl+C or SIGTERM lets the running task end (its result is
stored) and stops with the ``--continue`` line to go on.

    python benchmarks/agent_quality.py --json [--model local] [--max-steps 20] [--all]
    python benchmarks/agent_quality.py --json --quick   # one step of pc09, one agent, smollm2-135m
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from headline import add_quick_option, headline
from pcagent.bench.experience_leakage import check_no_leakage
from pcagent.bench.failure_causes import CAUSES
from pcagent.bench.report import cause_counts, summary
from pcagent.bench.results import BenchStore
from pcagent.bench.runner import run_tasks
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import select_tasks
from pcagent.cli.options import config_with
from pcagent.config import ModelProfile, PcAgentConfig
from pcagent.interrupts import install_terminate_as_interrupt
from pcagent.runtime.loop.ablations import check_ablation
from pcagent.runtime.record.store import RunStore

DEVELOPMENT_SUBSET = ("pc01", "pc05", "pc07", "pc09", "pc12", "pc17", "pc19", "pc25")
#: What --quick runs: one step of one short task by one Decision agent (the ablation
#: ``single_agent``), with the tiny model the tests install.
QUICK_TASK = "pc09"
QUICK_PACK = "smollm2-135m"
DECISION_PROMPT_GOAL = 1500
STEP_SECONDS_GOAL = 15.0


def quick_config(config: PcAgentConfig) -> PcAgentConfig:
    """``config`` for --quick: every role on the tiny local model with a short listing, and the
    benchmark store and run records in a fresh temporary folder (the models folder is the configured one)."""
    data = Path(tempfile.mkdtemp(prefix="pcagent-agent-quality-"))
    (data / "models").symlink_to(config.models_dir, target_is_directory=True)
    profiles = {**config.models.profiles, "quick": ModelProfile(pack=QUICK_PACK)}
    config = config.updated("models", profiles=profiles, default="quick", validation_retries=0)
    config = config.updated("run", listing_limit=15)  # a short prompt
    return config.model_copy(update={"data_dir": data})


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def prompt_budget(runs: RunStore, run_ids: list[str]) -> dict[str, Any]:
    """Median prompt tokens per agent role over the runs' model calls, and seconds per step."""
    tokens: dict[str, list[float]] = {}
    step_seconds: list[float] = []
    for run_id in run_ids:
        for call in runs.calls(run_id):
            tokens.setdefault(call.agent, []).append(call.prompt_tokens)
        step_seconds += [step.duration_ms / 1000 for step in runs.steps(run_id)]
    decision = _median(tokens.get("decision", []))
    step = _median(step_seconds)
    return {
        "median_prompt_tokens": {role: _median(values) for role, values in sorted(tokens.items())},
        "median_step_s": step,
        "decision_prompt_goal": DECISION_PROMPT_GOAL,
        "step_s_goal": STEP_SECONDS_GOAL,
        "decision_prompt_met": decision is not None and decision <= DECISION_PROMPT_GOAL,
        "step_s_met": step is not None and step <= STEP_SECONDS_GOAL,
    }


def second_opinions(runs: RunStore, run_ids: list[str]) -> dict[str, Any]:
    """Where a check decided a step and the model was asked as well: how often they agreed,
    and the model's verdict on each checked verdict."""
    pairs: dict[str, int] = {}
    for run_id in run_ids:
        for step in runs.steps(run_id):
            reflection = step.reflection
            if reflection is not None and reflection.model_verdict is not None:
                key = f"{reflection.verdict}->{reflection.model_verdict}"
                pairs[key] = pairs.get(key, 0) + 1
    total = sum(pairs.values())
    agreed = sum(n for key, n in pairs.items() if key.split("->")[0] == key.split("->")[1])
    return {
        "steps": total,
        "agreement": round(agreed / total, 3) if total else None,
        "check_to_model": dict(sorted(pairs.items())),
    }


def experience_facts(path: Path | None, ablation: str) -> dict[str, Any] | None:
    """Which page graph guided the run, and how much it had learned from."""
    if path is None or ablation == "no_experience":
        return None
    from pcagent.experience.graph import PageGraph

    graph = PageGraph.load(path)
    return {
        "graph": str(path),
        "training_runs": len(graph.sources),
        "pages": len(graph.nodes),
        "actions": len(graph.edges),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument("--all", action="store_true", help="all 25 tasks")
    parser.add_argument("--tasks", nargs="*", help="these task ids instead of the subset")
    parser.add_argument("--model", help="model profile for every agent role")
    parser.add_argument("--ablation", default="none")
    parser.add_argument("--max-steps", type=int, help="step cap per task")
    parser.add_argument(
        "--experience", type=Path, help="a page graph to guide the agents (checked for leakage)"
    )
    parser.add_argument("--continue", dest="resume", help="add to this earlier benchmark run")
    parser.add_argument(
        "--second-opinion",
        action="store_true",
        help="ask Reflection's model also where a check decided, and report their agreement",
    )
    add_quick_option(parser)
    arguments = parser.parse_args()
    install_terminate_as_interrupt()
    if arguments.quick:  # one Decision call: no Manager, Progress or Reflection to wait for
        arguments.tasks, arguments.max_steps, arguments.ablation = [QUICK_TASK], 1, "single_agent"
    ablation = check_ablation(arguments.ablation)
    config = config_with(arguments.max_steps, arguments.model, arguments.experience)
    if arguments.quick:
        config = quick_config(config)
    if arguments.second_opinion:
        config = config.updated("run", reflection_second_opinion=True)
    ids = None if arguments.all else (arguments.tasks or list(DEVELOPMENT_SUBSET))
    chosen = select_tasks(ids)
    if arguments.experience is not None:
        check_no_leakage(arguments.experience, select_tasks(None))
    with BenchStore(config.data_dir / "bench") as store:
        if arguments.resume:
            bench = store.get(arguments.resume)
            done = {result.task_id for result in store.results(bench.bench_id)}
            chosen = [task for task in chosen if task.id not in done]
        else:
            bench = store.create(
                "pcagent",
                [t.id for t in chosen],
                arguments.model or "",
                ablation,
                experience=config.run.experience,
            )
        print(f"benchmark run {bench.bench_id}: {len(chosen)} tasks to run", file=sys.stderr)

        def finished(result: TaskRun) -> None:
            store.add(bench.bench_id, result)
            outcome = result.outcome
            print(
                f"{outcome.task_id}: {'pass' if outcome.success else 'fail'} "
                f"CR {outcome.completion_ratio:.0%}, {outcome.actions} steps, "
                f"{outcome.tokens} tokens, {outcome.seconds:.0f} s, "
                f"causes {list(outcome.failure_causes)}",
                file=sys.stderr,
                flush=True,
            )

        if chosen:
            try:
                run_tasks(chosen, "pcagent", config=config, ablation=ablation, on_result=finished)
            except KeyboardInterrupt:
                # Ctrl+C or SIGTERM: the runner has closed its sandboxes; every finished task
                # is stored, and the rest can be added to the same benchmark run.
                print(
                    f"stopped; go on with --continue {bench.bench_id}", file=sys.stderr, flush=True
                )
                raise SystemExit(130) from None
        data = summary(store, bench)
        results = store.results(bench.bench_id)
    with RunStore(config.runs_dir) as runs:
        run_ids = [r.run_id for r in results if r.run_id]
        budget = prompt_budget(runs, run_ids)
        opinions = second_opinions(runs, run_ids)
    tasks = {task.id: task for task in select_tasks(None)}
    steps = sum(r.outcome["actions"] for r in results)
    metrics = data["metrics"]
    report = {
        **headline(
            {
                "decision_prompt_tokens": budget["median_prompt_tokens"].get("decision"),
                "step_s": budget["median_step_s"],
            },
            {
                "decision_prompt_tokens": f"at most {DECISION_PROMPT_GOAL} tokens (median)",
                "step_s": f"at most {STEP_SECONDS_GOAL:.0f} s a step (median)",
            },
            budget["decision_prompt_met"] and budget["step_s_met"],
            quick=arguments.quick,
        ),
        "bench_id": bench.bench_id,
        "tasks": [r.task_id for r in results],
        "SR": metrics.get("SR"),
        "SSR": metrics.get("SSR"),
        "CR": metrics.get("CR"),
        "EE": metrics.get("EE"),
        "CE": metrics.get("CE"),
        "steps": steps,
        "reference_steps": sum(len(tasks[r.task_id].reference) for r in results),
        "tokens": metrics.get("tokens"),
        "seconds_per_step": round(metrics.get("seconds", 0) / steps, 1) if steps else None,
        "failure_causes": cause_counts(results),
        "cause_meanings": {cause: CAUSES[cause] for cause in cause_counts(results)},
        "prompt_budget": budget,
        "reflection_second_opinions": opinions,
        "experience": experience_facts(arguments.experience, ablation),
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    if arguments.quick:  # its temporary store and records: a quick run keeps nothing
        shutil.rmtree(config.data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
