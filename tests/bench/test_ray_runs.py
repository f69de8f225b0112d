"""The benchmark on a real local Ray instance (127.0.0.1): actors owning sandboxes, results in the
store as tasks end, an actor killed mid-task, a task past its time limit, and an interrupted
driver resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support import eventually, smollm2_config

from pcagent.bench.ray_runner import (
    LOCAL,
    ActorResources,
    _start_ray,
    run_tasks_on_ray,
)
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import Task, select_tasks
from pcagent.env import processes
from pcagent.env.sandbox_guard import guards_of, sandbox_id_of

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

ray = pytest.importorskip("ray")

#: Small enough for a 2-core CI machine with little memory.
SMALL = ActorResources(cpus=1, memory_gb=0.5)
#: Quick GUI reference solutions, one an actor (one with the offline web): four took 39 s of
#: the suite's 30 minutes, and two show as well that both actors work and store their results.
QUICK = ("pc14", "pc15")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    _start_ray(ray, LOCAL, 2)  # as `bench run --ray` starts it: two sandboxes' worth
    yield
    ray.shutdown()


class SandboxWatch:
    """Notes, from the watchdogs, every sandbox the actors it is told of start."""

    def __init__(self) -> None:
        self.owners: set[int] = set()
        self.sandboxes: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def add(self, task: object, pid: int) -> None:
        self.owners.add(pid)

    def _watch(self) -> None:
        while not self._stop.wait(0.2):
            for owner in list(self.owners):
                for state_file in guards_of(owner).values():
                    if (marker := sandbox_id_of(state_file)) is not None:
                        self.sandboxes.add(marker)

    def all_closed(self) -> bool:
        self._stop.set()
        return eventually(lambda: not any(map(processes.find_marked_processes, self.sandboxes)), 30)


def test_two_actors_run_two_tasks_into_the_store(local_ray: None, tmp_path: Path) -> None:
    tasks = select_tasks(list(QUICK))
    pids: dict[str, int] = {}
    watch = SandboxWatch()

    niceness: set[int] = set()

    def started(task: Task, pid: int) -> None:
        pids[task.id] = pid
        watch.add(task, pid)
        niceness.add(os.getpriority(os.PRIO_PROCESS, pid))

    with BenchStore(tmp_path / "bench") as store:
        bench = store.create("reference", [t.id for t in tasks])

        def stored(result: TaskRun) -> None:
            store.add(bench.bench_id, result)

        results = run_tasks_on_ray(
            tasks,
            "reference",
            actors=2,
            resources=SMALL,
            on_result=stored,
            on_start=started,
        )
        kept = store.results(bench.bench_id)
    assert [r.task.id for r in results] == list(QUICK)
    for result in results:
        failed = {s.node_id: s.reason for s in result.nodes if not s.passed}
        assert result.error is None and not failed, (result.task.id, result.error, failed)
        assert result.outcome.success and result.attempts == 1
    assert sorted(r.task_id for r in kept) == sorted(QUICK)
    assert all(r.outcome["success"] and r.attempts == 1 for r in kept)
    assert len(set(pids.values())) == 2  # both actors worked
    assert os.getpid() not in pids.values()  # in actor processes, not the driver
    assert niceness == {os.nice(0)}  # the actors run at the driver's priority, not Ray's 15
    for pid in set(pids.values()):  # they closed their desktops and scratch folders at the end
        assert eventually(lambda pid=pid: not guards_of(pid), 30)
        assert not list(Path(tempfile.gettempdir()).glob(f"pcagent-ray-actor-{pid}-*"))
    assert len(watch.sandboxes) == 2 and watch.all_closed()


def test_a_killed_actor_s_task_runs_again_elsewhere_and_its_sandbox_closes(
    local_ray: None,
) -> None:
    killed: dict[str, object] = {}

    def kill_the_first(task: object, pid: int) -> None:
        if killed:
            return
        killed["pid"] = pid

        def kill() -> None:
            # Once its sandbox is up (the watchdog starts with it), SIGKILL the actor's process.
            eventually(lambda: bool(guards_of(pid)), 60)
            guards = guards_of(pid)
            state_file = next(iter(guards.values()))
            eventually(lambda: processes.find_marked_processes(_sandbox_id(state_file)), 30)
            killed["sandbox"] = _sandbox_id(state_file)
            killed["guards"] = list(guards)
            os.kill(pid, signal.SIGKILL)

        threading.Thread(target=kill, daemon=True).start()

    notices: list[str] = []
    (result,) = run_tasks_on_ray(
        select_tasks(["pc14"]),
        "reference",
        actors=1,
        resources=SMALL,
        on_start=kill_the_first,
        notice=notices.append,
    )
    assert "sandbox" in killed, "the actor was not killed"
    assert result.outcome.success and result.error is None, result.error
    assert result.attempts == 2
    assert any("died" in notice and "again" in notice for notice in notices), notices
    # the killed actor's desktop was closed by its watchdog, which then ended
    assert eventually(lambda: not processes.find_marked_processes(killed["sandbox"]), 30)
    assert eventually(lambda: not any(map(processes.is_alive, killed["guards"])), 10)


def test_a_task_past_its_time_limit_is_ended(local_ray: None) -> None:
    started: list[int] = []
    watch = SandboxWatch()

    def note(task: object, pid: int) -> None:
        started.append(pid)
        watch.add(task, pid)

    (result,) = run_tasks_on_ray(
        # the mail client alone takes longer than the limit to start: pc09's word processor,
        # warm, finished its seven steps inside 8 s
        select_tasks(["pc19"]),
        "reference",
        actors=1,
        resources=SMALL,
        task_timeout=4,
        on_start=note,
        notice=lambda message: None,
    )
    assert not result.outcome.success
    assert result.outcome.failure_causes == ("time_limit",)
    assert "time limit" in (result.error or "")
    (pid,) = started
    # its actor was killed, and whatever sandbox it had started is closed
    assert eventually(lambda: not processes.is_alive(pid), 30)
    assert eventually(lambda: not guards_of(pid), 30)
    assert watch.sandboxes and watch.all_closed()


def _sandbox_id(state_file: Path) -> str:
    marker = sandbox_id_of(state_file)
    assert marker is not None, f"no sandbox in {state_file}"
    return marker


def test_an_interrupted_ray_run_resumes_with_only_what_is_missing(tmp_path: Path) -> None:
    env = {**os.environ, "PCAGENT_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "pcagent", "bench", "run", "--agent", "reference-api"]
    first = subprocess.Popen(
        [*command, "--tasks", "pc14", "--tasks", "pc21", "--ray", "local", "--actors", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert first.stdout is not None
    lines = []
    for line in first.stdout:
        lines.append(line)
        if "pc14" in line and "pass" in line:
            break
    first.send_signal(signal.SIGINT)  # Ctrl+C while pc21 runs
    rest, _ = first.communicate(timeout=120)
    assert first.returncode != 0, "".join(lines) + rest
    with BenchStore(tmp_path / "data" / "bench") as store:
        bench = store.latest()
        assert bench is not None
        assert [r.task_id for r in store.results(bench.bench_id)] == ["pc14"]
        first_seconds = store.results(bench.bench_id)[0].outcome["seconds"]

    second = subprocess.run(
        [*command, "--resume", "latest", "--ray", "--actors", "1"],  # no address: local
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert second.returncode == 0, second.stdout + second.stderr
    assert "1 tasks done, 1 to run" in second.stdout
    with BenchStore(tmp_path / "data" / "bench") as store:
        results = store.results(bench.bench_id)
    assert [r.task_id for r in results] == ["pc14", "pc21"]
    assert all(r.outcome["success"] for r in results)
    assert results[0].outcome["seconds"] == first_seconds  # the finished task was kept as it was


def test_a_pcagent_run_s_record_comes_back_to_the_driver(local_ray: None, tmp_path: Path) -> None:
    """The pcagent agent with the real local model (smollm2) in an actor: the run is recorded
    on the actor, sent back as a zip and written into the driver's run records, graded."""
    from pcagent.runtime.record.store import RunStore

    config = smollm2_config(tmp_path, max_steps=1, threads=1)
    pids: list[int] = []
    (result,) = run_tasks_on_ray(
        select_tasks(["pc09"]),
        "pcagent",
        actors=1,
        config=config,
        ablation="no_manager",  # the Decision model's step is enough to record; planning is slow
        resources=SMALL,
        on_start=lambda task, pid: pids.append(pid),
    )
    assert result.error is None, result.error
    assert result.run_id and result.outcome.actions == 1 and result.outcome.tokens > 0
    with RunStore(config.runs_dir) as store:
        run = store.get_run(result.run_id)
        steps = store.steps(run.run_id)
        screenshot = store.run_dir(run.run_id) / "steps" / "0001" / "screenshot.png"
    assert run.settings["graded_success"] is False and run.settings["task_id"] == "pc09"
    assert len(steps) == result.outcome.actions
    assert screenshot.exists()  # the step files came back with the rows
    # the actor's own copy went with its scratch folder
    assert not list(Path(tempfile.gettempdir()).glob(f"pcagent-ray-actor-{pids[0]}-*"))
