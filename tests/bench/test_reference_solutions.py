"""Every task's reference solution (through the GUI for half of the tasks, with application
actions for the other half) passes all of its sub-goals on the real desktop, and doing nothing
passes none of its final ones (so every checker can fail).

Each agent goes through the 25 tasks with the benchmark's own runner, two sandboxes side by side
(``run_tasks(..., parallel=2)``, as ``bench run --parallel 2``), once per module; the tests then
look at each task's results.
"""

from __future__ import annotations

import pytest

from pcagent.bench.runner import run_tasks
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import Task, load_tasks

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TASKS = list(load_tasks().values())
AGENTS = ("reference", "reference-api", "noop")
#: The tasks whose application-action reference runs here: every other one, to keep the suite
#: within its time (each interface's actions have tests of their own in tests/env/app_interfaces,
#: and `pcagent bench run --agent reference-api` runs all of them).
API_TASKS = TASKS[::2]
#: The tasks whose GUI reference runs here: the others, so that each task's checkers pass on one
#: of its references (`pcagent bench run --agent reference` runs all of them).
GUI_TASKS = TASKS[1::2]


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, TaskRun]]:
    """Each agent's runs of every task, made when a test first asks for them."""
    return {}


def run_of(agent: str, task: Task, runs: dict[str, dict[str, TaskRun]]) -> TaskRun:
    if agent not in runs:
        chosen = {"reference-api": API_TASKS, "reference": GUI_TASKS}.get(agent, TASKS)
        results = run_tasks(chosen, agent, parallel=2)  # type: ignore[arg-type]
        runs[agent] = {result.task.id: result for result in results}
    return runs[agent][task.id]


CASES = [(task, "reference") for task in GUI_TASKS] + [
    (task, "reference-api") for task in API_TASKS
]


@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("task", "agent"), CASES, ids=[f"{task.id}-{agent}" for task, agent in CASES]
)
def test_the_reference_passes(task: Task, agent: str, runs: dict[str, dict[str, TaskRun]]) -> None:
    reference = run_of(agent, task, runs)
    failed = {s.node_id: s.reason for s in reference.nodes if not s.passed}
    assert reference.error is None, f"{agent}: {reference.error}"
    assert not failed, f"{agent}: {failed}"
    assert reference.outcome.success and reference.outcome.completion_ratio == 1.0
    assert all(s.step is not None for s in reference.nodes)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_doing_nothing_fails(task: Task, runs: dict[str, dict[str, TaskRun]]) -> None:
    noop = run_of("noop", task, runs)
    assert noop.error is None, noop.error
    assert not noop.outcome.success
    assert noop.outcome.completion_ratio < 1.0
    assert noop.outcome.reset_seconds < 15
