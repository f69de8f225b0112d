"""The viewer over records made by a real run: the whole run loop (plan, decisions, reflection,
the recorder) over the in-memory desktop with scripted models, then the viewer started on that
run store shows the run, its plan, its steps with their recorded screenshots, and its calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import SAVE, MemoryDesktop
from tests.viewer.conftest import serving

from pcagent.config import PcAgentConfig, RunConfig
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore
from pcagent.viewer import ViewerSources, check_sources, create_app

PLAN = scripts.plan({"id": "s1", "description": "Add one to notes.txt", "app": "text_editor"})
TOKEN = "real-run-token-" + "y" * 20


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("real-run")
    home = root / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    moves = ScriptedBackend(
        [
            scripts.decision({"kind": "type", "text": " one"}),
            scripts.decision({"kind": "click", "x": SAVE.center[0], "y": SAVE.center[1]}),
            scripts.decision({"kind": "done"}),
        ]
    )
    config = PcAgentConfig(
        data_dir=root,
        run=RunConfig(
            screen_steps_doubted=False, max_steps=5, listing_limit=0, app_actions_first=False
        ),
    )
    with RunStore(root / "runs") as store:
        outcome = RunSession(desktop, scripts.usual_models(moves, PLAN), store, config).start(
            "Write one into notes.txt and save it"
        )
    assert outcome.status == "unverified", outcome.summary  # saved by a click: unchecked
    return root / "runs", outcome.run_id


@pytest.fixture(scope="module")
def client(recorded: tuple[Path, str]) -> Iterator[httpx.Client]:
    sources = ViewerSources(recorded[0], None)
    with serving(create_app(sources, TOKEN, store=check_sources(sources))) as url:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
            yield client


def test_the_run_and_its_steps_are_shown(client: httpx.Client, recorded: tuple[Path, str]) -> None:
    runs_dir, run_id = recorded
    listed = client.get("/")
    assert listed.status_code == 200 and run_id in listed.text
    assert "Write one into notes.txt and save it" in listed.text
    page = client.get(f"/runs/{run_id}")
    assert page.status_code == 200
    assert "Add one to notes.txt" in page.text  # the plan's subtask
    assert "unverified" in page.text
    with RunStore(runs_dir) as store:
        steps = store.steps(run_id)
        assert [s.action.kind for s in steps if s.action] == ["type", "click", "done"]
        for step in steps:
            assert f'id="step-{step.step}"' in page.text
            recorded_png = store.screenshot_path(run_id, step.step)
            assert recorded_png.is_file()  # the recorder wrote what the desktop showed
            served = client.get(f"/runs/{run_id}/steps/{step.step}/screenshot.png")
            assert served.status_code == 200 and served.content == recorded_png.read_bytes()
        calls = store.calls(run_id)
    assert calls, "the run made model calls"


def test_in_a_browser_the_step_shows_its_screenshot_and_the_click(
    browser: Any, client: httpx.Client, recorded: tuple[Path, str]
) -> None:
    _, run_id = recorded
    base = str(client.base_url).rstrip("/")
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{base}/?token={TOKEN}")
        assert page.locator(f'tr.run-row[data-run="{run_id}"]').is_visible()
        page.goto(f"{base}/runs/{run_id}")
        page.locator("#step-2").scroll_into_view_if_needed()
        page.wait_for_function(
            "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0 }",
            arg="#img-2",
        )
        assert page.locator("#step-2 circle.click-mark").count() == 1  # the save click
    finally:
        context.close()
