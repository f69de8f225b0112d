"""The viewer in a real browser (Debian's Chromium through Playwright, headless): the pages as a
person sees them, the click drawn where it happened, the Set-of-Mark toggle, the plan graph, a
live run gaining a step, and a failed sub-goal in red."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from pcagent.viewer.run_summary import FILM_WIDTH

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page
    from tests.viewer.conftest import LiveRunWriter, Viewer

#: The screenshot the README shows.
DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "viewer-run-page.png"


@pytest.fixture
def page(browser: Browser, viewer: Viewer) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    signed_in = context.new_page()
    signed_in.set_default_timeout(10_000)
    signed_in.goto(f"{viewer.url}/?token={viewer.token}")
    assert signed_in.url == f"{viewer.url}/"  # the token left the address bar
    try:
        yield signed_in
    finally:
        context.close()


def test_the_run_list_shows_the_runs(page: Page, viewer: Viewer, tmp_path: Path) -> None:
    row = page.locator(f'tr.run-row[data-run="{viewer.records.finished}"]')
    assert row.is_visible()
    assert "finished" in row.inner_text() and "qwen2.5-coder-1.5b" in row.inner_text()
    page.screenshot(path=tmp_path / "runs.png")


def _loaded(page: Page, selector: str) -> None:
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0 }",
        arg=selector,
    )


def test_a_step_shows_its_screenshot_with_the_click_where_it_was(
    page: Page, viewer: Viewer, tmp_path: Path
) -> None:
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    page.locator("#step-1").scroll_into_view_if_needed()
    _loaded(page, "#img-1")
    image = page.locator("#img-1").bounding_box()
    mark = page.locator("#step-1 circle.click-mark").bounding_box()
    assert image is not None and mark is not None
    # The picture shows the application's region of the 800 x 600 screen.
    left, top, width, _ = map(
        int, (page.locator("#img-1").get_attribute("data-window-box") or "").split()
    )
    scale = image["width"] / width
    centre_x, centre_y = mark["x"] + mark["width"] / 2, mark["y"] + mark["height"] / 2
    assert abs(centre_x - (image["x"] + (600 - left) * scale)) < 2
    assert abs(centre_y - (image["y"] + (450 - top) * scale)) < 2
    assert page.locator("#step-2 line.drag-path").count() == 1
    assert "42*2=" in (page.locator("#step-3 g.typed-text").text_content() or "")
    page.screenshot(path=tmp_path / "run.png", full_page=True)


def test_the_set_of_mark_toggle_switches_the_image(page: Page, viewer: Viewer) -> None:
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    image = page.locator("#img-1")
    image.scroll_into_view_if_needed()
    _loaded(page, "#img-1")
    toggle = page.locator("#step-1 button.som-toggle")
    toggle.click()
    assert "/thumb/som.png" in (image.get_attribute("src") or "")
    assert toggle.inner_text() == "show screenshot"
    _loaded(page, "#img-1")
    assert "/som.png" in (page.locator("#img-1-full").get_attribute("href") or "")
    toggle.click()
    assert "/thumb/screenshot.png" in (image.get_attribute("src") or "")


def test_the_plan_graph_and_lazy_details_render(page: Page, viewer: Viewer) -> None:
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    graph = page.locator("svg.plan-graph").first  # the plan in force; the first plan is folded
    assert graph.locator("g.plan-node").count() == 2
    box = graph.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 40
    assert graph.locator('g.plan-node[data-subtask="s2"]').get_attribute("data-status") == (
        "running"
    )
    details = page.locator("#step-1 details[data-src$='/calls']")
    details.locator("summary").click()
    page.wait_for_function(
        "() => document.querySelector('#step-1 details[data-src$=\"/calls\"]')"
        ".innerText.includes('You are decision.')"
    )


def test_a_running_run_gains_a_step_without_reload(
    page: Page, viewer: Viewer, live_run_writer: LiveRunWriter, tmp_path: Path
) -> None:
    run_id = live_run_writer.start("Type a line in the text editor")
    live_run_writer.click(run_id, 1, 50, 60)
    page.goto(f"{viewer.url}/runs/{run_id}")
    assert page.locator("#live").is_visible()
    assert page.locator("section.step").count() == 1
    live_run_writer.click(run_id, 2, 700, 500)
    page.locator("#step-2").wait_for(state="attached", timeout=10_000)
    assert page.locator("#step-2 circle.click-mark").get_attribute("cx") == "700"
    films = page.locator("#filmstrip a.film")  # the filmstrip gains it too
    assert films.count() == 2 and films.nth(1).get_attribute("href") == "#step-2"
    assert "/steps/2/thumb/screenshot.png" in (
        films.nth(1).locator("img").get_attribute("src") or ""
    )
    live_run_writer.finish(run_id)
    page.wait_for_function("() => document.getElementById('run-status').textContent === 'finished'")
    assert page.locator("section.step").count() == 2
    page.screenshot(path=tmp_path / "live.png", full_page=True)


def test_a_long_run_loads_only_the_images_in_view(
    page: Page, viewer: Viewer, live_run_writer: LiveRunWriter
) -> None:
    run_id = live_run_writer.start("Click through forty screens")
    for step in range(1, 41):
        live_run_writer.click(run_id, step, 10 * step, 10 * step)
    live_run_writer.finish(run_id)
    images: list[str] = []
    page.on(
        "request", lambda request: images.append(request.url) if ".png" in request.url else None
    )
    page.goto(f"{viewer.url}/runs/{run_id}")
    page.wait_for_load_state("networkidle")
    film = [url for url in images if f"w={FILM_WIDTH}" in url]
    timeline = [url for url in images if url not in film]
    assert 0 < len(timeline) < 15, timeline
    assert 0 < len(film) < 40, film  # the filmstrip, too, loads what it shows
    page.locator("#step-40").scroll_into_view_if_needed()
    _loaded(page, "#img-40")
    assert any("/steps/40/thumb/screenshot.png" in url for url in images)
    assert len([url for url in images if url not in film]) < 40


def test_the_benchmark_page_colours_a_failed_sub_goal(
    page: Page, viewer: Viewer, tmp_path: Path
) -> None:
    page.goto(f"{viewer.url}/bench")
    page.locator(f'a[href="/bench/{viewer.records.bench_id}"]').click()
    page.wait_for_url(f"**/bench/{viewer.records.bench_id}")
    fills = page.evaluate(
        """() => Array.from(document.querySelectorAll('.subgoal-graph rect')).map(r =>
             [r.nextElementSibling.textContent, getComputedStyle(r).fill])"""
    )
    by_label = {label.split(" ")[0]: fill for label, fill in fills}
    assert by_label["alarm"] == "rgb(248, 215, 215)"  # failed: red
    assert by_label["opened"] == "rgb(214, 245, 214)"  # passed: green
    page.locator(f'a[href="/runs/{viewer.records.finished}"]').click()
    page.wait_for_url(f"**/runs/{viewer.records.finished}")
    page.screenshot(path=tmp_path / "bench.png")


def test_the_screenshot_for_the_readme(page: Page, viewer: Viewer, tmp_path: Path) -> None:
    """A step of a run page (the click drawn on the screenshot), small enough for the README;
    written over docs/viewer-run-page.png when PCAGENT_UPDATE_DOCS=1."""
    page.set_viewport_size({"width": 1100, "height": 760})
    page.goto(f"{viewer.url}/runs/{viewer.records.finished}")
    page.locator("#step-1").scroll_into_view_if_needed()
    _loaded(page, "#img-1")
    page.evaluate("document.getElementById('step-1').scrollIntoView()")
    page.evaluate("window.scrollBy(0, -40)")
    time.sleep(0.1)
    target = (
        DOCS_SCREENSHOT if os.environ.get("PCAGENT_UPDATE_DOCS") == "1" else tmp_path / "step.png"
    )
    page.screenshot(path=target, full_page=False)
    with Image.open(target) as shot:
        assert shot.size == (1100, 760)
    assert target.stat().st_size < 300_000


def test_two_ticked_runs_open_side_by_side(page: Page, viewer: Viewer, tmp_path: Path) -> None:
    records = viewer.records
    page.locator(f'input[name="run"][value="{records.rewound}"]').check()
    page.locator(f'input[name="run"][value="{records.finished}"]').check()
    page.locator("#compare-form button").click()
    page.wait_for_url(f"**/compare?left={records.finished}&right={records.rewound}")
    rows = page.locator("section.compare-row")
    assert rows.count() == 3
    assert page.locator("section.compare-row.copied").count() == 2
    step_3 = page.locator("#step-3")
    step_3.scroll_into_view_if_needed()
    left, right = step_3.locator(".compare-side.left"), step_3.locator(".compare-side.right")
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('#step-3 .compare-side img'))
             .every(i => i.complete && i.naturalWidth > 0)"""
    )
    left_box, right_box = left.bounding_box(), right.bounding_box()
    assert left_box is not None and right_box is not None
    assert left_box["x"] + left_box["width"] <= right_box["x"]  # two columns, left first
    assert abs(left_box["y"] - right_box["y"]) < 2
    assert "42*2=" in left.inner_text() and "click(x=200, y=150)" in right.inner_text()
    assert "action differs" in step_3.locator(".compare-middle").inner_text()
    page.screenshot(path=tmp_path / "compare.png", full_page=True)
