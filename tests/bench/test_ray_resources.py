"""What a benchmark actor asks Ray for, and how many fit in a cluster's resources."""

from __future__ import annotations

import pytest

from pcagent.bench.ray_driver import unfinished_result
from pcagent.bench.ray_resources import DISPLAY_RESOURCE, ActorResources
from pcagent.bench.tasks import select_tasks

GIB = 1024**3


def test_the_scarcest_resource_decides_how_many_actors_fit() -> None:
    actor = ActorResources(cpus=1, memory_gb=2)
    cluster = {"CPU": 16, "memory": 64 * GIB, DISPLAY_RESOURCE: 3}
    assert actor.fits(cluster, displays=1) == 3  # displays
    assert actor.fits(cluster, displays=2) == 1  # a cross-environment task needs two sandboxes
    assert actor.fits({**cluster, "CPU": 2}, displays=1) == 2
    assert actor.fits({**cluster, "memory": 5 * GIB}, displays=1) == 2
    assert actor.fits({"CPU": 16, "memory": 64 * GIB}, displays=1) == 0  # no display declared


def test_the_options_declare_cpu_memory_and_displays() -> None:
    options = ActorResources(cpus=0.5, memory_gb=1.5).options(displays=2)
    assert options == {
        "num_cpus": 0.5,
        "memory": int(1.5 * GIB),
        "resources": {DISPLAY_RESOURCE: 2},
    }


@pytest.mark.parametrize(
    ("cause", "task_id", "judged"), [("worker_lost", "pc07", 2), ("time_limit", "pc25", 1)]
)
def test_a_task_without_a_result_of_its_own_fails_every_sub_goal(
    cause: str, task_id: str, judged: int
) -> None:
    (task,) = select_tasks([task_id])
    result = unfinished_result(task, "pcagent", "why", cause, 12.5, attempts=2)
    assert not result.outcome.success and result.outcome.completion_ratio == 0
    assert result.outcome.subtasks_total == judged  # pc25's first subtask has no sub-goal
    assert result.outcome.failure_causes == (cause,)
    assert len(result.nodes) == len(task.nodes) and not any(n.passed for n in result.nodes)
    assert result.attempts == 2 and result.error == "why"
