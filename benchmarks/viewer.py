"""How long the viewer takes to open a long run's page, against its run list, in one run.

Writes a run of 200 steps through the real RunStore into a temporary folder (synthetic
1280 x 800 screenshots and Set-of-Mark images, a 60-line listing, two model calls with prompts
and an event per step), serves it with the real viewer on a free 127.0.0.1 port, and times GET
of the run page (rendered on the server from the record; images are lazy-loaded thumbnails, so
the page itself carries none) against GET of the run list (the baseline), each repeated. Also
times one thumbnail, first made and then cached. Goal: the 200-step run page under 1 s.

    python benchmarks/viewer.py --json [--steps 200] [--repeat 7] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from PIL import Image, ImageDraw

from headline import add_quick_option, headline
from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import AssignEvent, PlanEvent
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

SCREEN = (1280, 800)
INSTRUCTION = "Copy the totals from the spreadsheet into a new Writer document and save it"
SUBTASKS = [
    SubtaskSpec(id="s1", description="Read the totals in the spreadsheet", app="spreadsheet",
                outputs=["totals"]),
    SubtaskSpec(id="s2", description="Write {totals} into a new document", app="writer",
                inputs=["totals"], depends_on=["s1"]),
]  # fmt: skip


GOAL_PAGE_MS = 1000.0


def images(step: int) -> tuple[Image.Image, Image.Image]:
    screenshot = Image.new("RGB", SCREEN, (230, 235, 240))
    draw = ImageDraw.Draw(screenshot)
    for row in range(20):
        draw.rectangle((40, 80 + row * 32, 1240, 106 + row * 32), outline=(150, 150, 150))
        draw.text((50, 86 + row * 32), f"step {step} row {row} value {step * row}", fill=(0, 0, 0))
    som = screenshot.copy()
    som_draw = ImageDraw.Draw(som)
    for mark in range(30):
        x, y = 60 + (mark % 10) * 120, 90 + (mark // 10) * 200
        som_draw.rectangle((x, y, x + 90, y + 24), outline=(220, 30, 30), width=2)
        som_draw.text((x + 2, y + 2), str(mark + 1), fill=(220, 30, 30))
    return screenshot, som


def listing(step: int) -> str:
    return "\n".join(
        f'{n} button "Cell {step}-{n}" =value {n * step} focusable @{40 + n * 10},{80 + n * 5}'
        for n in range(1, 61)
    )


def call(run_id: str, step: int, agent: str, prompt: str) -> ModelCallRecord:
    request = {"messages": [{"role": "system", "parts": [{"text": f"You are the {agent}."}]},
                            {"role": "user", "parts": [{"text": prompt}]}]}  # fmt: skip
    return ModelCallRecord(
        run_id=run_id, step=step, agent=agent, ok=True, prompt_tokens=1500,
        completion_tokens=60, latency_s=2.5,
        attempts=[CallAttempt(request=request, completion={"text": '{"kind": "click"}'})],
    )  # fmt: skip


def make_run(root: Path, steps: int) -> str:
    with RunStore(root) as store:
        run_id = store.create_run(INSTRUCTION, {"model": "qwen2.5-coder-1.5b"}).run_id
        state = RunCheckpoint(instruction=INSTRUCTION, subtasks=SUBTASKS)
        store.add_event(RunEvent(run_id=run_id, step=0,
                                 event=PlanEvent(subtasks=SUBTASKS, state=state)))  # fmt: skip
        for step in range(1, steps + 1):
            screenshot, som = images(step)
            text = listing(step)
            action: act.Action = (
                act.Click(x=100 + step % 1000, y=100 + step % 600)
                if step % 3
                else act.TypeText(text=f"total {step}")
            )
            store.add_event(RunEvent(run_id=run_id, step=step,
                                     event=AssignEvent(subtask="s1", role="spreadsheet")))  # fmt: skip
            store.write_step(
                StepRecord(
                    run_id=run_id, step=step, subtask_id="s1", role="spreadsheet",
                    thought="The totals are in column D; click the next cell.", action=action,
                    result=StepResult(ok=True, duration_ms=300),
                    reflection=ReflectionRecord(verdict="success", reason="the cell changed"),
                    progress=f"{step} cells read", hub={"totals": str(step)}, state=state,
                    listing=text, front_app="spreadsheet", window="totals.ods - LibreOffice Calc",
                    started_at=time.time(), duration_ms=4000, tokens=3120,
                ),
                screenshot=screenshot,
                set_of_mark=som,
            )  # fmt: skip
            store.add_call(call(run_id, step, "decision", text))
            store.add_call(call(run_id, step, "reflection", text[:1000]))
        store.set_status(run_id, "finished", "saved")
    return run_id


def timed_get(client: httpx.Client, path: str, repeat: int) -> tuple[list[float], int]:
    times = []
    size = 0
    for _ in range(repeat):
        started = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        answer.raise_for_status()
        size = len(answer.content)
    return times, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.steps, arguments.repeat = 10, 1
    with tempfile.TemporaryDirectory(prefix="pcagent-viewer-bench-") as folder:
        root = Path(folder) / "runs"
        started = time.perf_counter()
        run_id = make_run(root, arguments.steps)
        record_s = time.perf_counter() - started
        sources = ViewerSources(root)
        token = "benchmark"
        listener = bind("127.0.0.1", 0)
        server = ViewerServer(create_app(sources, token, store=check_sources(sources)), listener)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=server.url, headers=headers, timeout=60) as client:
                client.get("/")  # warm-up: the first request imports and opens lazily
                page_ms, page_bytes = timed_get(client, f"/runs/{run_id}", arguments.repeat)
                list_ms, list_bytes = timed_get(client, "/", arguments.repeat)
                thumb = f"/runs/{run_id}/steps/{arguments.steps // 2}/thumb/screenshot.png"
                cold_ms, thumb_bytes = timed_get(client, thumb, 1)
                warm_ms, _ = timed_get(client, thumb, arguments.repeat)
                page = client.get(f"/runs/{run_id}").text
        finally:
            server.stop()
            thread.join(timeout=10)
            listener.close()
        screenshot_bytes = sum(
            p.stat().st_size for p in (root / run_id / "steps").rglob("screenshot.png")
        )
    page_median = statistics.median(page_ms)
    list_median = statistics.median(list_ms)
    result = {
        **headline(
            {"run_page_ms_median": round(page_median, 1)},
            {"run_page_ms_median": f"under {GOAL_PAGE_MS:.0f} ms for a 200-step run"},
            page_median < GOAL_PAGE_MS,
            quick=arguments.quick,
        ),
        "steps": arguments.steps,
        "record_write_s": round(record_s, 2),
        "run_page_ms_median": round(page_median, 1),
        "run_page_ms_min": round(min(page_ms), 1),
        "run_page_kb": round(page_bytes / 1024, 1),
        "run_page_images_inline": page.count("data:image"),
        "run_page_lazy_images": page.count('loading="lazy"'),
        "screenshots_on_disk_kb": round(screenshot_bytes / 1024),
        "baseline_run_list_ms_median": round(list_median, 1),
        "baseline_run_list_kb": round(list_bytes / 1024, 1),
        "ratio_run_page_to_list": round(page_median / list_median, 1),
        "thumbnail_cold_ms": round(cold_ms[0], 1),
        "thumbnail_cached_ms_median": round(statistics.median(warm_ms), 1),
        "thumbnail_kb": round(thumb_bytes / 1024, 1),
        "goal_run_page_under_1s": page_median < GOAL_PAGE_MS,
    }
    print(json.dumps(result, indent=None if arguments.json else 1))


if __name__ == "__main__":
    main()
