"""The viewer's ways around a run and a benchmark, in a real browser (Debian's Chromium through
Playwright, headless): keys and the filmstrip between steps, pictures cut to the application
with the whole screen a click away, the checked outcome and the models' cost, the benchmark
list with its success rate and a benchmark in progress linked to its live run, and the page
graph drawn with pictures."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from PIL import Image
from tests.viewer.conftest import call, screenshot, write_step

from pcagent import actions as act
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.experience.graph import PageEdge, PageGraph, PageNode, SourceRun
from pcagent.experience.screens import picture_hash
from pcagent.runtime.record.store import RunStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page
    from tests.viewer.conftest import Viewer


@pytest.fixture
def page(browser: Browser, viewer: Viewer) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    signed_in = context.new_page()
    signed_in.set_default_timeout(10_000)
    signed_in.goto(f"{viewer.url}/?token={viewer.token}")
    try:
        yield signed_in
    finally:
        context.close()


def _current(page: Page) -> tuple[str | None, str | None]:
    """The step marked current in the timeline and in the filmstrip."""
    section = page.locator("section.step.current")
    film = page.locator("#filmstrip a.film.current")
    return (
        section.get_attribute("data-step") if section.count() == 1 else None,
        film.get_attribute("data-step") if film.count() == 1 else None,
    )


def test_keys_move_between_steps_and_the_filmstrip_follows(page: Page, viewer: Viewer) -> None:
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    assert page.locator("#filmstrip a.film").count() == 3
    assert _current(page) == (None, None)
    page.keyboard.press("ArrowRight")
    assert _current(page) == ("1", "1")
    page.keyboard.press("j")
    assert _current(page) == ("2", "2")
    assert page.url.endswith("#step-2")
    box = page.locator("#step-2").bounding_box()
    assert box is not None and 0 <= box["y"] < 200  # scrolled to, under the filmstrip
    strip = page.locator("#filmstrip").bounding_box()
    assert strip is not None and strip["y"] == 0  # the filmstrip stays at the top
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # past the last step: stays there
    assert _current(page) == ("3", "3")
    page.keyboard.press("k")
    page.keyboard.press("ArrowLeft")
    assert _current(page) == ("1", "1")
    page.locator('#filmstrip a.film[data-step="3"]').click()
    assert _current(page) == ("3", "3")
    page.wait_for_function("() => location.hash === '#step-3'")
    # Typing in a form does not move between steps.
    page.locator("#step-3 form.rewind-form input[name=guidance]").type("jk")
    assert _current(page) == ("3", "3")


def _natural_size(page: Page, selector: str) -> tuple[int, int]:
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0 }",
        arg=selector,
    )
    width, height = page.evaluate(
        "s => [document.querySelector(s).naturalWidth, document.querySelector(s).naturalHeight]",
        selector,
    )
    return int(width), int(height)


def test_a_picture_shows_the_application_and_a_click_the_whole_screen(
    page: Page, viewer: Viewer, tmp_path: Path
) -> None:
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    image = page.locator("#img-1")
    image.scroll_into_view_if_needed()
    left, top, width, height = map(int, (image.get_attribute("data-window-box") or "").split())
    assert width < 800 and (left, top) != (0, 0)  # a part of the 800 x 600 screen
    assert "view=window" in (image.get_attribute("src") or "")
    natural = _natural_size(page, "#img-1")
    assert abs(natural[0] / natural[1] - width / height) < 0.02
    overlay = page.locator("#img-1-overlay")
    assert overlay.get_attribute("viewBox") == f"{left} {top} {width} {height}"
    page.screenshot(path=tmp_path / "cropped.png")
    image.click()
    assert image.get_attribute("data-view") == "screen"
    assert "view=window" not in (image.get_attribute("src") or "")
    assert overlay.get_attribute("viewBox") == "0 0 800 600"
    page.wait_for_function(
        "() => { const i = document.getElementById('img-1'); return i.complete && "
        "i.naturalWidth === 640 }"  # the whole screen's thumbnail
    )
    shown = image.bounding_box()
    mark = page.locator("#step-1 circle.click-mark").bounding_box()
    assert shown is not None and mark is not None
    scale = shown["width"] / 800
    assert abs(mark["x"] + mark["width"] / 2 - (shown["x"] + 600 * scale)) < 2
    assert page.locator("#img-1-view").inner_text() == "show the application"
    page.locator("#img-1-view").click()
    assert image.get_attribute("data-view") == "window"
    assert page.locator("#img-1-full").get_attribute("href", timeout=1000) == (
        f"/runs/{viewer.records.finished}/steps/1/screenshot.png"
    )


def test_the_run_page_shows_the_checked_outcome_and_the_models_cost(
    page: Page, viewer: Viewer
) -> None:
    records = viewer.records
    page.goto(f"{viewer.url}/runs/{records.finished}")
    outcome = page.locator("#outcome")
    assert outcome.locator(".outcome").inner_text() == "finished"
    assert "84" in outcome.inner_text()
    decision = page.locator('tr.role-cost[data-role="decision"] td').all_inner_texts()
    # Three steps, one decision call each (the first re-asked once): 120 + 15 tokens a call.
    assert decision[:7] == ["decision", "qwen2.5-coder-1.5b", "3", "1", "0", "360", "45"]
    manager = page.locator('tr.role-cost[data-role="manager"] td').all_inner_texts()
    assert manager[2] == "1"
    assert page.locator("tr.role-cost-total th").all_inner_texts()[2] == "4"
    assert "3 steps" in page.locator("#run-time").inner_text()
    page.goto(f"{viewer.url}/runs/{records.rewound}")  # ended failed, with no outcome checked
    assert page.locator("#outcome .outcome").inner_text() == "failed"
    assert "no outcome checked" in page.locator("#outcome").inner_text()


def test_each_role_shows_the_model_the_run_recorded_for_it(page: Page, viewer: Viewer) -> None:
    with RunStore(viewer.records.runs_dir) as store:
        run_id = store.create_run(
            "Open the calculator",
            # As a run records each role's model: its profile and the backend's name.
            {
                "models": {
                    "decision": {"profile": "vision", "model": "local:qwen2.5-vl-7b"},
                    "manager": {"profile": "", "model": "local:qwen2.5-coder-7b"},
                }
            },
        ).run_id
        write_step(store, run_id, 1, act.Click(x=10, y=10))
        store.add_call(call(run_id, 1, "reflection"))
        store.set_status(run_id, "stopped")
    page.goto(f"{viewer.url}/runs/{run_id}")
    models = {
        row.get_attribute("data-role"): row.locator("td").nth(1).inner_text()
        for row in page.locator("tr.role-cost").all()
    }
    assert models == {"decision": "local:qwen2.5-vl-7b (vision)", "reflection": "-"}


def test_a_benchmark_in_progress_links_its_live_run_and_counts_its_tasks(
    page: Page, viewer: Viewer, tmp_path: Path
) -> None:
    tasks = load_tasks()
    with RunStore(viewer.records.runs_dir) as store, BenchStore(viewer.records.bench_dir) as bench:
        under_way = bench.create("pcagent", ["pc01", "pc02", "pc03"], model="qwen2.5-coder-7b")
        outcome = TaskOutcome(task_id="pc01", success=True, completion_ratio=1.0,
                              subtasks_passed=1, subtasks_total=1, actions=2, tokens=300,
                              seconds=9.0, reset_seconds=0.5)  # fmt: skip
        bench.add(under_way.bench_id, TaskRun(tasks["pc01"], "pcagent", outcome, [], [], None))
        live = store.create_run(tasks["pc02"].instruction, {"bench_task": "pc02"})
    page.goto(f"{viewer.url}/bench")
    row = page.locator(f'tr.bench-row[data-bench="{under_way.bench_id}"]')
    assert row.locator(".bench-tasks").inner_text() == "1 of 3"
    assert row.locator(".bench-sr").inner_text() == "100.0%"
    finished = page.locator(f'tr.bench-row[data-bench="{viewer.records.bench_id}"]')
    assert finished.locator(".bench-sr").inner_text() == "0.0%"
    assert "complete" in finished.locator(".bench-state").inner_text()
    assert "running" in row.locator(".bench-state").inner_text()
    page.screenshot(path=tmp_path / "bench-list.png")
    row.locator("a.live-run").click()
    page.wait_for_url(f"**/runs/{live.run_id}")
    assert page.locator("#live").is_visible()
    page.goto(f"{viewer.url}/bench/{under_way.bench_id}")
    assert page.locator("tr.metrics td").first.inner_text() == "1 of 3"
    assert page.locator(f'#bench-state a[href="/runs/{live.run_id}"]').count() == 1
    with RunStore(viewer.records.runs_dir) as store:
        store.set_status(live.run_id, "interrupted")
    page.goto(f"{viewer.url}/bench")
    assert "incomplete" in row.locator(".bench-state").inner_text()


def _graph_from_the_records(viewer: Viewer, path: Path) -> Path:
    graph = PageGraph(model="test-embeddings")
    vector = np.ones(4, dtype=np.float32)
    graph.nodes = [
        PageNode(1, "calculator", "Calculator", ("7", "="), picture_hash(screenshot(2)), 6, vector),
        PageNode(2, "text_editor", "notes.txt - Mousepad", ("File",), None, 3, vector),
        PageNode(3, "text_editor", "Save As", ("Name", "Save"), None, 1, vector),
    ]  # fmt: skip
    graph.add_edge(PageEdge(2, 3, 'hotkey(keys=("ctrl", "shift", "s"))', "save", True, 2))
    graph.add_edge(PageEdge(3, 1, 'open_app(name="calculator")', "compute", True, 1))
    graph.add_edge(PageEdge(1, 1, "click(x=310, y=270)", "compute", False, 4))
    graph.sources = [SourceRun(viewer.records.finished, str(viewer.records.runs_dir), "", "", 3)]
    graph.save(path)
    return path


def test_the_page_graph_is_drawn_with_pictures(page: Page, viewer: Viewer, tmp_path: Path) -> None:
    path = _graph_from_the_records(viewer, tmp_path / "graph.db")
    page.goto(f"{viewer.url}/experience?graph={path}")
    drawing = page.locator("svg.page-graph")
    assert drawing.locator("g.page-box").count() == 3
    assert drawing.locator("path.page-edge").count() == 2
    assert drawing.locator("path.page-loop").count() == 1
    boxes = {
        node: page.locator(f'g.page-box[data-node="{node}"] rect').first.bounding_box()
        for node in (1, 2, 3)
    }
    assert all(box is not None for box in boxes.values())
    # Mousepad leads to Save As, which leads to the calculator: three columns, left to right.
    assert boxes[2]["x"] < boxes[3]["x"] < boxes[1]["x"]  # type: ignore[index]
    picture = page.locator('g.page-box[data-node="1"] image.page-picture')
    source = picture.get_attribute("href") or ""
    answer = page.request.get(f"{viewer.url}{source}")
    assert answer.ok and answer.headers["content-type"] == "image/png"
    with Image.open(io.BytesIO(answer.body())) as thumbnail:
        assert thumbnail.width <= 320  # a small copy, of the application's part of the screen
        assert abs(thumbnail.width / thumbnail.height - 800 / 600) < 0.02
    # No recorded step shows the text editor's pages: no picture, and none to ask for.
    assert page.locator('g.page-box[data-node="2"] image').count() == 0
    assert "no picture" in (page.locator('g.page-box[data-node="2"]').text_content() or "")
    missing = source.replace("/nodes/1/", "/nodes/2/")
    assert page.request.get(f"{viewer.url}{missing}").status == 404
    page.screenshot(path=tmp_path / "graph.png", full_page=True)
    page.locator('g.page-box[data-node="3"]').click()
    page.wait_for_url("**/experience/nodes/3?graph=*")
    assert "Save As" in page.locator("h1").inner_text()
