"""Real run records for the viewer's tests, written through the real stores, and the viewer
served by real uvicorn on a free 127.0.0.1 port in a background thread."""

from __future__ import annotations

import contextlib
import shutil
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.bench.evaluator import NodeState
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import (
    AssignEvent,
    FinishEvent,
    PlanEvent,
    RefusedEvent,
    ReplanEvent,
)
from pcagent.runtime.record.models import (
    CallAttempt,
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    StepRecord,
    StepResult,
)
from pcagent.runtime.record.store import RunStore
from pcagent.viewer import ViewerServer, ViewerSources, bind, check_sources, create_app
from pcagent.viewer.jobs import JobBoard, LaunchedProcess, SubprocessLauncher

SCREEN = (800, 600)
INSTRUCTION = "Write the total into notes.txt, then compute it in the calculator"
SUBTASKS = [
    SubtaskSpec(id="s1", description="Read the total from notes.txt", app="text_editor",
                outputs=["total"]),
    SubtaskSpec(id="s2", description="Compute {total} * 2 in the calculator", app="calculator",
                inputs=["total"], depends_on=["s1"]),
]  # fmt: skip


def screenshot(step: int, colour: str = "#d0e4f7") -> Image.Image:
    """A desktop with a calculator window where the steps' listings put its buttons."""
    image = Image.new("RGB", SCREEN, colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle((280, 240, 620, 470), fill="#f4f4f4", outline="#333333")
    draw.rectangle((280, 240, 620, 256), fill="#243447")
    draw.text((290, 242), f"Calculator - step {step}", fill="#ffffff")
    for label, x, y in (("7", 310, 270), ("=", 400, 300)):
        draw.rectangle((x - 30, y - 14, x + 30, y + 14), fill="#ffffff", outline="#666666")
        draw.text((x - 3, y - 6), label, fill="#000000")
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
    #: ``finished`` rewound to step 2: steps 1 and 2 copied, a different step 3.
    rewound: str
    #: A second benchmark run of task pc01, which passed there.
    other_bench_id: str


def write_rewound_child(store: RunStore, parent: str, step: int) -> str:
    """A run rewound from ``parent`` at ``step`` as a rewind records it: the parent's steps up to
    ``step`` copied under the same numbers, then its own steps."""
    child = store.create_run(
        INSTRUCTION, {"model": "qwen2.5-coder-1.5b", "rewound_from": parent},
        parent_run=parent, parent_step=step,
    )  # fmt: skip
    for copied in store.steps(parent, upto=step):
        store.write_step(
            copied.model_copy(update={"run_id": child.run_id}),
            screenshot=screenshot(copied.step),
            set_of_mark=set_of_mark(copied.step),
        )
    write_step(store, child.run_id, step + 1, act.Click(x=200, y=150))
    store.set_status(child.run_id, "failed", "the calculator never opened")
    return child.run_id


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
        rewound = write_rewound_child(store, run_id, 2)

    task = load_tasks()["pc01"]
    outcome = TaskOutcome(task_id="pc01", success=False, completion_ratio=0.5, subtasks_passed=1,
                          subtasks_total=2, actions=3, tokens=405, seconds=12.0,
                          reset_seconds=0.5, failure_causes=("wrong_action",))  # fmt: skip
    nodes = [NodeState("opened", "s1", passed=True, step=1, reason="title matches"),
             NodeState("alarm", "s2", passed=False, reason="no alarm at 07:30")]  # fmt: skip
    with BenchStore(bench_dir) as bench_store:
        bench = bench_store.create("pcagent", ["pc01"], model="qwen2.5-coder-1.5b")
        bench_store.add(bench.bench_id, TaskRun(task, "pcagent", outcome, nodes, [], run_id, None))
        other = bench_store.create("pcagent", ["pc01"], model="qwen2.5-coder-7b")
        passed = TaskOutcome(task_id="pc01", success=True, completion_ratio=1.0, subtasks_passed=2,
                             subtasks_total=2, actions=5, tokens=900, seconds=20.0,
                             reset_seconds=0.5)  # fmt: skip
        all_passed = [NodeState("opened", "s1", passed=True, step=1, reason="title matches"),
                      NodeState("alarm", "s2", passed=True, step=3, reason="alarm at 07:30")]  # fmt: skip
        bench_store.add(
            other.bench_id, TaskRun(task, "pcagent", passed, all_passed, [], rewound, None)
        )
    return Records(
        root, runs_dir, bench_dir, run_id, live.run_id, bench.bench_id, rewound, other.bench_id
    )


#: What the tests launch instead of ``pcagent runs rewind|replay``: it prints a line, waits
#: while a hold file exists (at most 10 s), makes the run a rewind would make (a child of the
#: run, nothing more), and writes the command it stands in for into a marker file.
STAND_IN_SCRIPT = """
import json, os, sys, time
from pathlib import Path

marker, hold, argv = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
print("stand-in for:", " ".join(argv[3:]), flush=True)
deadline = time.monotonic() + 10
while hold.exists() and time.monotonic() < deadline:
    time.sleep(0.05)
if "rewind" in argv:
    from pcagent.runtime.record.store import RunStore

    parent, step = argv[argv.index("rewind") + 1], int(argv[argv.index("--to") + 1])
    with RunStore(Path(os.environ["PCAGENT_DATA_DIR"]) / "runs") as store:
        child = store.create_run("stand-in rewind", {}, parent_run=parent, parent_step=step)
        store.set_status(child.run_id, "finished", "")
    print("made run", child.run_id, flush=True)
marker.write_text(json.dumps({"argv": argv, "data_dir": os.environ.get("PCAGENT_DATA_DIR")}))
"""


class StandInLauncher:
    """Launches, for real, a small Python script in place of the command asked for (a real rewind
    would start a desktop and a model); keeps what was asked for."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.script = folder / "stand_in.py"
        self.script.write_text(STAND_IN_SCRIPT)
        self.hold = folder / "hold"
        self.launched: list[tuple[list[str], Path]] = []

    def launch(
        self, argv: Sequence[str], env: Mapping[str, str], log_path: Path
    ) -> LaunchedProcess:
        marker = self.folder / f"marker-{len(self.launched)}.json"
        self.launched.append((list(argv), marker))
        command = [sys.executable, str(self.script), str(marker), str(self.hold), *argv]
        return SubprocessLauncher().launch(command, env, log_path)


@dataclass
class Viewer:
    url: str
    token: str
    records: Records
    launcher: StandInLauncher

    def client(self, *, signed_in: bool = True) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"} if signed_in else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """The viewer application served on a free loopback port in a thread; yields its URL and
    stops it (checking that it did) on the way out."""
    listener = bind("127.0.0.1", 0)
    server = ViewerServer(app, listener)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.02)
    try:
        yield server.url
    finally:
        server.stop()
        thread.join(timeout=10)
        listener.close()
        assert not thread.is_alive(), "the viewer did not stop"


@pytest.fixture(scope="package")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Viewer]:
    records = make_records(tmp_path_factory.mktemp("records"))
    sources = ViewerSources(records.runs_dir, records.bench_dir)
    token = "test-token-" + "x" * 20
    launcher = StandInLauncher(tmp_path_factory.mktemp("jobs"))
    jobs = JobBoard.for_data_dir(records.root, launcher=launcher)
    with serving(create_app(sources, token, store=check_sources(sources), jobs=jobs)) as url:
        yield Viewer(url, token, records, launcher)


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


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, headless (no browser download)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("Chromium is not installed (scripts/install-system.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, headless=True)
        try:
            yield launched
        finally:
            launched.close()
