"""The cross-environment tasks on two real desktops: the worker's local sandbox as the
workstation, and a sandbox that ``pcagent serve`` serves from another process as the laptop.
Every task's reference solutions pass every sub-goal, and doing nothing fails."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.bench.environments import RemoteDesktop
from pcagent.bench.runner import run_tasks
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_cross_tasks
from pcagent.cli import app
from pcagent.env.remote_client import connect
from pcagent.errors import RemoteUnreachableError

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TASKS = list(load_cross_tasks().values())
IDS = [task.id for task in TASKS]


@dataclass
class Served:
    """The laptop: a sandbox served by ``pcagent serve`` in another process."""

    url: str
    token_file: Path
    home: Path

    @property
    def remote(self) -> dict[str, RemoteDesktop]:
        return {"laptop": RemoteDesktop(self.url, self.token_file)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("serve")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = folder / "token"
    server = subprocess.Popen(
        [sys.executable, "-c", "from pcagent.cli import main; main()", "serve", "--port",
         str(port), "--token-file", str(token)],
        env={**os.environ, "PCAGENT_DATA_DIR": str(folder), "PCAGENT_CONFIG": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        environment = None
        while environment is None:
            assert server.poll() is None and time.monotonic() < deadline, "serve did not start"
            # the token is written just before the server listens
            if token.exists():
                with contextlib.suppress(RemoteUnreachableError):
                    environment = connect(url, token_file=token)
            time.sleep(0.2)
        with environment:
            served_home = environment.capabilities.served_home
        assert served_home is not None  # a loopback server tells its sandbox's HOME
        yield Served(url, token, Path(served_home))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            output, _ = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            output, _ = server.communicate()
    # SIGTERM stops serve normally (status 0), after it closed its sandbox
    assert server.returncode == 0, output
    assert not token.exists()


@pytest.fixture(scope="module")
def runs(served: Served) -> dict[str, dict[str, TaskRun]]:
    """Each agent's runs of every task, made once (one local sandbox per agent) when a test
    first asks for them."""
    return {}


def run_of(
    agent: str, task_id: str, runs: dict[str, dict[str, TaskRun]], served: Served
) -> TaskRun:
    if agent not in runs:
        results = run_tasks(TASKS, agent, remotes=served.remote)  # type: ignore[arg-type]
        runs[agent] = {result.task.id: result for result in results}
    return runs[agent][task_id]


@pytest.mark.parametrize("task_id", IDS)
def test_the_reference_passes_across_a_local_and_a_served_desktop(
    task_id: str, runs: dict[str, dict[str, TaskRun]], served: Served
) -> None:
    # The GUI references alone: application actions through a served desktop have their own
    # test (tests/env/test_remote_desktop.py), and the suite's time is kept under 30 minutes.
    result = run_of("reference", task_id, runs, served)
    failed = {state.node_id: state.reason for state in result.nodes if not state.passed}
    assert result.error is None, result.error
    assert not failed, failed
    assert result.outcome.success and result.outcome.completion_ratio == 1.0


@pytest.mark.parametrize("task_id", IDS)
def test_doing_nothing_fails(
    task_id: str, runs: dict[str, dict[str, TaskRun]], served: Served
) -> None:
    result = run_of("noop", task_id, runs, served)
    assert result.error is None, result.error
    assert not result.outcome.success
    assert result.outcome.completion_ratio < 1.0
    assert result.outcome.reset_seconds < 15


def test_fixtures_and_results_of_the_laptop_are_in_the_served_home(
    runs: dict[str, dict[str, TaskRun]], served: Served
) -> None:
    # the last task run on the laptop was xe04 by the noop agent: its fixture is there, and
    # nothing it did not write
    run_of("noop", "xe04", runs, served)
    documents = served.home / "Documents"
    assert "Linden Print Shop" in (documents / "invoice.txt").read_text()
    assert not (documents / "invoice_total.txt").exists()


def test_bench_run_cli_with_a_served_environment(served: Served, tmp_path: Path) -> None:
    environment = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    ran = CliRunner().invoke(
        app,
        ["bench", "run", "--cross", "-t", "xe02", "--agent", "reference-api",
         "--environment", f"laptop={served.url}",
         "--environment-token", f"laptop={served.token_file}"],
        env=environment,
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "xe02 pass" in ran.output
    assert "15300" in (served.home / "Documents" / "annual_rent.txt").read_text()
    reported = CliRunner().invoke(app, ["bench", "report", "--json"], env=environment)
    assert reported.exit_code == 0, reported.output


def test_the_agents_plan_across_both_desktops_and_act_on_the_right_one(
    served: Served, tmp_path: Path
) -> None:
    """The pcagent agent on xe02 with scripted models: the Manager's plan names a desktop per
    subtask, and every action of a subtask reaches that desktop (the workstation's calculator
    computes, the served laptop saves the file), as the task's checkers see it."""
    from tests.agents.scripted import decision
    from tests.runtime import scripts

    from pcagent.config import PcAgentConfig, RunConfig
    from pcagent.runtime.record.events import PlanEvent
    from pcagent.runtime.record.store import RunStore

    plan = json.dumps({"steps": [
        {"id": "s1", "skill": "calculate", "args": {"expression": "1275 * 12"},
         "environment": "workstation"},
        {"id": "s2", "skill": "gui", "app": "text_editor", "environment": "laptop",
         "task": "Note the yearly rent {s1} in a new text file and save it as "
         "Documents/annual_rent.txt", "uses": ["s1"]},
    ]})  # fmt: skip
    script = {
        # the program's calculate skill computes on the workstation: no decision there
        "workstation": [decision({"kind": "fail", "reason": "not expected"}, "unexpected")],
        "laptop": [  # the run opens the editor first, by rule
            decision({"kind": "type", "text": "Annual rent: 15300\n"}, "write it"),
            decision({"kind": "editor_save_as", "path": "Documents/annual_rent.txt"}, "save"),
            decision({"kind": "done"}, "saved"),
        ],
    }
    desks: list[str] = []

    def decisions(request: object) -> str:
        subtask = scripts.line_after(scripts.prompt_of(request), "Subtask")  # type: ignore[arg-type]
        desk = "laptop" if "On the laptop desktop" in subtask else "workstation"
        desks.append(desk)
        queue = script[desk]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    models = scripts.usual_models(decisions, plan)
    config = PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(
            screen_steps_doubted=False, listing_limit=0, app_actions_first=False, max_steps=12
        ),
    )
    (result,) = run_tasks(
        [load_cross_tasks()["xe02"]], "pcagent", config=config, models=models,
        remotes=served.remote,
    )  # fmt: skip
    failed = {state.node_id: state.reason for state in result.nodes if not state.passed}
    assert result.error is None, result.error
    assert result.outcome.success, failed
    assert set(desks) == {"laptop"}
    assert (served.home / "Documents" / "annual_rent.txt").exists()
    with RunStore(config.runs_dir) as store:
        assert result.run_id is not None
        (planned,) = [
            e.event for e in store.events(result.run_id) if isinstance(e.event, PlanEvent)
        ]
        assert [s.environment for s in planned.subtasks] == ["workstation", "laptop"]
        steps = store.steps(result.run_id)
    # the laptop's steps saw the laptop's screen (empty, then its editor), never the
    # workstation's calculator, which the first subtask's steps saw
    laptop = [s for s in steps if s.subtask_id == "s2"]
    # every step records the desktop it acted on
    assert [s.environment for s in steps] == [
        "workstation" if s.subtask_id == "s1" else "laptop" for s in steps
    ]
    assert {s.front_app for s in laptop} == {"", "text_editor"}
    (computed,) = [s for s in steps if s.subtask_id == "s1"]  # the skill, on the workstation
    assert computed.action.kind == "use_skill" and computed.result.output == "15300"


def test_a_ray_actor_drives_a_served_desktop_instead_of_a_sandbox_of_its_own(
    served: Served,
) -> None:
    from pcagent.bench.ray_runner import ActorResources, run_tasks_on_ray

    notices: list[str] = []
    (result,) = run_tasks_on_ray(
        [load_cross_tasks()["xe02"]],
        "reference-api",
        actors=2,  # one set of served desktops: one actor
        resources=ActorResources(cpus=1, memory_gb=0.5),
        remotes=[served.remote],
        notice=notices.append,
    )
    failed = {state.node_id: state.reason for state in result.nodes if not state.passed}
    assert result.error is None and not failed, (result.error, failed)
    assert (served.home / "Documents" / "annual_rent.txt").exists()


def test_pcagent_run_and_resume_with_also_work_across_both_desktops(
    served: Served, tmp_path: Path
) -> None:
    """``pcagent run --also`` on the real smollm2 model: the run works on its own sandbox and
    the served laptop, its plan and every step name one of them; ``runs resume`` goes on with
    the same ``--also`` and refuses without it."""
    from tests.support import smollm2_config

    from pcagent.runtime.record.events import PlanEvent
    from pcagent.runtime.record.store import RunStore

    data = smollm2_config(tmp_path).data_dir  # installs the model, links the models folder
    config_file = tmp_path / "config.toml"
    config_file.write_text(
        "[models]\nvalidation_retries = 0\n"
        '[models.profiles.local]\npack = "smollm2-135m"\nmax_output_tokens = 200\nthreads = 2\n'
        "[run]\nmax_steps = 1\nlisting_limit = 15\nprogram_attempts = 1\ncheck_named_files = false\n"
        "search_guessed_addresses = false\nscreen_steps_doubted = false\n"
    )
    environment = {"PCAGENT_DATA_DIR": str(data), "PCAGENT_CONFIG": str(config_file)}
    also = ["--also", f"laptop={served.url}", "--also-token", f"laptop={served.token_file}"]
    instruction = "On the laptop, open the text editor and write hello"
    ran = CliRunner().invoke(app, ["run", instruction, *also], env=environment)
    assert ran.exit_code in (0, 1), ran.output  # the model's outcome; 2 would be an error
    assert "also working on the desktop laptop" in ran.output
    with RunStore(data / "runs") as store:
        (record,) = store.list_runs(5)
        assert set(record.settings["environment"]["environments"]) == {"main", "laptop"}  # type: ignore[index]
        (planned,) = [
            e.event for e in store.events(record.run_id) if isinstance(e.event, PlanEvent)
        ]
        assert {s.environment for s in planned.subtasks} <= {"main", "laptop"}
        assert all(s.environment for s in planned.subtasks)
        first_steps = store.steps(record.run_id)
    assert first_steps and all(s.environment in ("main", "laptop") for s in first_steps)

    alone = CliRunner().invoke(app, ["runs", "resume", record.run_id], env=environment)
    assert alone.exit_code == 2 and "desktops" in alone.output, alone.output
    resumed = CliRunner().invoke(
        app, ["runs", "resume", record.run_id, "--max-steps", "2", *also], env=environment
    )
    assert resumed.exit_code in (0, 1), resumed.output
    with RunStore(data / "runs") as store:
        steps = store.steps(record.run_id)
        assert [r.run_id for r in store.list_runs(5)] == [record.run_id]
    assert len(steps) > len(first_steps)
    assert all(s.environment in ("main", "laptop") for s in steps)
