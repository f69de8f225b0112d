"""Real run records for the viewer's tests, written through the real stores, and the viewer
served by real uvicorn on a free 127.0.0.1 port in a background thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from PIL import Image, ImageDraw

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.bench.evaluator import NodeState
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.results import BenchStore
from pcagent.bench.runner import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.runtime.checkpoint import RunCheckpoint
from pcagent.runtime.events import (
    AssignEvent,
    FinishEvent,
    PlanEvent,
    RefusedEvent,
    ReplanEvent,
)
from pcagent.runtime.record_models import (
    CallAttempt,
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    StepRecord,
    StepResult,
)
from pcagent.runtime.records import RunStore
from pcagent.viewer import ViewerServer, ViewerSources, bind, check_sources, create_app

SCREEN = (800, 600)
INSTRUCTION = "Write the total into notes.txt, then compute it in the calculator"
SUBTASKS = [
    SubtaskSpec(id="s1", description="Read the total from notes.txt", app="text_editor",
                outputs=["total"]),
    SubtaskSpec(id="s2", description="Compute {total} * 2 in the calculator", app="calculator",
                inputs=["total"], depends_on=["s1"]),
]  # fmt: skip


def screenshot(step: int, colour: str = "#d0e4f7") -> Image.Image:
    image = Image.new("RGB", SCREEN, colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle((40, 40, 760, 120), fill="#ffffff", outline="#333333")
    draw.text((60, 70), f"step {step}", fill="#000000")
    return image


def set_of_mark(step: int) -> Image.Image:
    image = screenshot(step, "#f7e0d0")
    ImageDraw.Draw(image).rectangle((300, 250, 420, 290), outline="#ff0000", width=3)
    return image


def checkpoint(status: dict[str, str]) -> RunCheckpoint:
    return RunCheckpoint(instruction=INSTRUCTION, subtasks=SUBTASKS, status=status)  # type: ignore[arg-type]


def call(run_id: str, step: int, agent: str, *, reasked: bool = False) -> ModelCallRecord:
    request = {"messages": [{"role": "system", "parts": [{"text": f"You are {agent}."}]},
                            {"role": "user", "parts": [{"text": "listing: 7 button \"=\""},
                                                       {"image_sha256": "ab" * 32}]}]}  # fmt: skip
    attempts = [CallAttempt(request=request, completion={"text": '{"kind": "click"}'})]
    if reasked:
        attempts.insert(
            0,
            CallAttempt(request=request, completion={"text": "click it"},
                        failure="the reply is not JSON"),
        )  # fmt: skip
    return ModelCallRecord(run_id=run_id, step=step, agent=agent, attempts=attempts, ok=True,
                           prompt_tokens=120, completion_tokens=15, latency_s=0.4)  # fmt: skip


def write_step(
    store: RunStore, run_id: str, number: int, action: act.Action, **extra: object
) -> None:
    store.write_step(
        StepRecord(
            run_id=run_id, step=number, subtask_id="s1" if number < 3 else "s2",
            role="editor" if number < 3 else "calculator", thought=f"thought {number}",
            action=action, result=StepResult(ok=True, message="done", duration_ms=120),
            reflection=ReflectionRecord(verdict="success", reason="the screen changed",
                                        asked_model=True, model_verdict="no_change",
                                        model_reason="looks the same"),
            progress=f"progress after {number}", hub={"total": "42"} if number >= 2 else {},
            state=checkpoint({"s1": "done" if number >= 2 else "running",
                              "s2": "running" if number >= 3 else "pending"}),
            listing=f"1 button \"7\" @310,270\n2 button \"=\" @400,300\nstep {number}",
            front_app="calculator", window="Calculator", started_at=time.time(),
            duration_ms=900, tokens=135, **extra,
        ),
        screenshot=screenshot(number),
        set_of_mark=set_of_mark(number),
    )  # fmt: skip
    store.add_call(call(run_id, number, "decision", reasked=number == 1))


@dataclass
class Records:
    root: Path
    runs_dir: Path
    bench_dir: Path
    finished: str
    running: str
    bench_id: str


def make_records(root: Path) -> Records:
    runs_dir, bench_dir = root / "runs", root / "bench"
    with RunStore(runs_dir) as store:
        run = store.create_run(INSTRUCTION, {"mode": "autonomous", "model": "qwen2.5-coder-1.5b"})
        run_id = run.run_id
        store.add_event(RunEvent(run_id=run_id, step=0,
                                 event=PlanEvent(subtasks=SUBTASKS, state=checkpoint({}))))  # fmt: skip
        store.add_call(call(run_id, 0, "manager"))
        store.add_event(RunEvent(run_id=run_id, step=1,
                                 event=AssignEvent(subtask="s1", role="editor")))  # fmt: skip
        write_step(store, run_id, 1, act.Click(x=600, y=450))
        store.add_event(RunEvent(run_id=run_id, step=2, event=RefusedEvent(
            action=act.Hotkey(keys=("alt", "f4")), reason="closing a window needs a yes")))  # fmt: skip
        write_step(store, run_id, 2, act.Drag(start_x=100, start_y=100, end_x=500, end_y=300))
        store.add_event(RunEvent(run_id=run_id, step=3, event=ReplanEvent(
            failed="s2", reason="the calculator was closed", subtasks=SUBTASKS)))  # fmt: skip
        store.add_event(RunEvent(run_id=run_id, step=3,
                                 event=AssignEvent(subtask="s2", role="calculator")))  # fmt: skip
        write_step(store, run_id, 3, act.TypeText(text="42*2=", x=400, y=300))
        store.add_event(RunEvent(run_id=run_id, step=3,
                                 event=FinishEvent(outcome="finished", summary="84")))  # fmt: skip
        store.set_status(run_id, "finished", "the calculator shows 84")

        live = store.create_run("Open the text editor", {"model": "smollm2-135m"})
        store.add_event(RunEvent(run_id=live.run_id, step=0,
                                 event=PlanEvent(subtasks=SUBTASKS[:1], state=checkpoint({}))))  # fmt: skip
        write_step(store, live.run_id, 1, act.Click(x=100, y=100))

    task = load_tasks()["pc01"]
    outcome = TaskOutcome(task_id="pc01", success=False, completion_ratio=0.5, subtasks_passed=1,
                          subtasks_total=2, actions=3, tokens=405, seconds=12.0,
                          reset_seconds=0.5, failure_causes=("wrong_action",))  # fmt: skip
    nodes = [NodeState("opened", "s1", passed=True, step=1, reason="title matches"),
             NodeState("alarm", "s2", passed=False, reason="no alarm at 07:30")]  # fmt: skip
    with BenchStore(bench_dir) as bench_store:
        bench = bench_store.create("pcagent", ["pc01"], model="qwen2.5-coder-1.5b")
        bench_store.add(bench.bench_id, TaskRun(task, "pcagent", outcome, nodes, [], run_id, None))
    return Records(root, runs_dir, bench_dir, run_id, live.run_id, bench.bench_id)


@dataclass
class Viewer:
    url: str
    token: str
    records: Records

    def client(self, *, signed_in: bool = True) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"} if signed_in else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


@pytest.fixture(scope="package")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Viewer]:
    records = make_records(tmp_path_factory.mktemp("records"))
    sources = ViewerSources(records.runs_dir, records.bench_dir)
    token = "test-token-" + "x" * 20
    app = create_app(sources, token, store=check_sources(sources))
    listener = bind("127.0.0.1", 0)
    server = ViewerServer(app, listener)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.02)
    try:
        yield Viewer(server.url, token, records)
    finally:
        server.stop()
        thread.join(timeout=10)
        listener.close()
        assert not thread.is_alive(), "the viewer did not stop"


class LiveRunWriter:
    """Writes a running run and then its steps into the viewer's store, as a run would."""

    def __init__(self, runs_dir: Path) -> None:
        self.store = RunStore(runs_dir)

    def start(self, instruction: str) -> str:
        run_id = self.store.create_run(instruction, {"model": "scripted"}).run_id
        self.store.add_event(RunEvent(run_id=run_id, step=0,
                                      event=PlanEvent(subtasks=SUBTASKS, state=checkpoint({}))))  # fmt: skip
        return run_id

    def click(self, run_id: str, step: int, x: int, y: int) -> None:
        write_step(self.store, run_id, step, act.Click(x=x, y=y))

    def finish(self, run_id: str) -> None:
        self.store.set_status(run_id, "finished", "done")


@pytest.fixture
def live_run_writer(viewer: Viewer) -> Iterator[LiveRunWriter]:
    writer = LiveRunWriter(viewer.records.runs_dir)
    try:
        yield writer
    finally:
        writer.store.close()
