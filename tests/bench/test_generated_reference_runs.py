"""A sample of generated training tasks on the real desktop: both generated reference solutions
pass every sub-goal, and doing nothing fails. The sample spans five of the eight applications and
two kinds of value passed between sub-tasks: a number from a web page through the calculator into
a workbook, a time read in a note set as an alarm. (gen-7-16, files moved into a folder and mailed
from it, was left out: its attachment dialog flow failed once in a whole-suite run and passed alone;
the same flow is pc19's, which test_reference_solutions runs.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent.bench.generate import generate_tasks
from pcagent.bench.runner import Services, _sandbox_config, run_task, services_for
from pcagent.bench.tasks import Task
from pcagent.env import SandboxDesktop

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

SAMPLE_IDS = ("gen-7-24", "gen-7-17")
SAMPLE = [task for task in generate_tasks(40, 7) if task.id in SAMPLE_IDS]


def test_the_sample_spans_the_applications_it_claims() -> None:
    apps = [app for task in SAMPLE for app in task.apps]
    assert len(apps) == len(set(apps)) == 5
    assert set(apps) == {"browser", "calculator", "spreadsheet", "text_editor", "clock"}


@pytest.fixture(scope="module")
def bench_desktop(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SandboxDesktop, Services]]:
    folder: Path = tmp_path_factory.mktemp("generated")
    with (
        services_for(SAMPLE, folder) as services,
        SandboxDesktop(_sandbox_config(services)) as desktop,
    ):
        yield desktop, services


@pytest.mark.parametrize("task", SAMPLE, ids=[t.id for t in SAMPLE])
def test_generated_references_pass_and_noop_fails(
    task: Task, bench_desktop: tuple[SandboxDesktop, Services]
) -> None:
    desktop, services = bench_desktop
    for agent in ("reference", "reference-api"):
        reference = run_task(task, agent, desktop, services)
        failed = {s.node_id: s.reason for s in reference.nodes if not s.passed}
        assert reference.error is None, f"{agent}: {reference.error}"
        assert not failed, f"{agent}: {failed}"
        assert reference.outcome.success and reference.outcome.completion_ratio == 1.0

    noop = run_task(task, "noop", desktop, services)
    assert not noop.outcome.success
    assert noop.outcome.completion_ratio == 0.0
