"""Pages rendered without a server: the page-graph browser over a real graph file, the plan
graph of odd plans, the action overlay of each kind of action, and steps missing their parts."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.experience.graph import PageEdge, PageGraph, PageNode
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import PlanEvent
from pcagent.runtime.record.models import RunEvent, StepRecord
from pcagent.viewer import ViewerServer, ViewerSources, bind, check_sources, create_app
from pcagent.viewer.drawing import action_overlay_svg, plan_graph_svg
from pcagent.viewer.step_sections import event_text, step_html


def page_graph(path: Path) -> Path:
    graph = PageGraph(model="test-embeddings")
    vector = np.ones(4, dtype=np.float32)
    graph.nodes = [
        PageNode(1, "text_editor", "notes.txt - Mousepad", ("File", "Edit", "Save"), None, 5, vector),
        PageNode(2, "text_editor", "Save As", ("Name", "Save", "Cancel"), None, 2, vector),
        PageNode(3, "calculator", "Calculator", ("7", "=", "<b>bold</b>"), None, 1, vector),
    ]  # fmt: skip
    graph.add_edge(PageEdge(1, 2, 'hotkey(keys=("ctrl", "shift", "s"))', "save the notes", True, 3))
    graph.add_edge(PageEdge(1, 1, 'type(text="hello")', "write the notes", False, 4))
    graph.save(path)
    return path


@pytest.fixture(scope="module")
def experience_viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder = tmp_path_factory.mktemp("experience")
    sources = ViewerSources(folder / "runs", experience=page_graph(folder / "graph.db"))
    listener = bind("127.0.0.1", 0)
    server = ViewerServer(create_app(sources, "t0ken", store=check_sources(sources)), listener)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.02)
    try:
        with httpx.Client(
            base_url=server.url, headers={"Authorization": "Bearer t0ken"}, timeout=10
        ) as client:
            yield client
    finally:
        server.stop()
        thread.join(timeout=10)
        listener.close()


def test_the_page_graph_lists_its_pages_and_their_out_edges(
    experience_viewer: httpx.Client,
) -> None:
    listing = experience_viewer.get("/experience").text
    assert listing.count('class="page-node"') == 3
    assert "notes.txt - Mousepad" in listing and "&lt;b&gt;bold&lt;/b&gt;" in listing
    only_calculator = experience_viewer.get("/experience", params={"app": "calculator"}).text
    assert only_calculator.count('class="page-node"') == 1
    node = experience_viewer.get("/experience/nodes/1").text
    assert node.count('class="page-edge"') == 2
    assert "save the notes" in node and "Save As" in node
    assert experience_viewer.get("/experience/nodes/99").status_code == 404
    missing = experience_viewer.get("/experience", params={"graph": "/no/such/graph.db"})
    assert missing.status_code == 404 and "no page graph at" in missing.text


def test_an_unreadable_page_graph_is_reported_at_start(tmp_path: Path) -> None:
    from pcagent.experience.graph import ExperienceError

    with pytest.raises(ExperienceError, match="no page graph"):
        check_sources(ViewerSources(tmp_path / "runs", experience=tmp_path / "missing.db"))


def test_plan_graphs_of_odd_plans_still_draw() -> None:
    chain = [
        SubtaskSpec(id="a", description="first", app="writer"),
        SubtaskSpec(id="b", description="second <script>", app="writer", depends_on=["a"]),
        SubtaskSpec(id="c", description="third", app="calculator", depends_on=["a", "b"]),
        SubtaskSpec(id="d", description="needs a gone one", depends_on=["gone"]),
    ]
    svg = plan_graph_svg(chain, {"a": "done", "c": "failed"}, {"a": ["writer"]})
    assert svg.count('class="plan-node"') == 4 and svg.count('class="plan-edge"') == 3
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert 'data-subtask="c" data-status="failed"' in svg
    cycle = [
        SubtaskSpec(id="x", description="x", depends_on=["y"]),
        SubtaskSpec(id="y", description="y", depends_on=["x"]),
    ]
    assert plan_graph_svg(cycle).count('class="plan-node"') == 2
    assert plan_graph_svg([]) == ""


def test_each_action_is_drawn_in_screen_pixels() -> None:
    assert 'cx="5" cy="7"' in action_overlay_svg(act.DoubleClick(x=5, y=7), 100, 100)
    assert 'stroke="#06c"' in action_overlay_svg(act.RightClick(x=5, y=7), 100, 100)
    scroll = action_overlay_svg(act.Scroll(x=50, y=50, direction="down", amount=3), 400, 400)
    assert 'class="scroll-path" x1="50" y1="50" x2="50"' in scroll
    typed = action_overlay_svg(act.TypeText(text="<hello & bye>"), 800, 600)
    assert "&lt;hello &amp; bye&gt;" in typed and "circle" not in typed
    assert action_overlay_svg(act.Hotkey(keys=("ctrl", "s")), 800, 600) == ""
    assert action_overlay_svg(None, 800, 600) == ""
    assert 'viewBox="0 0 1920 1080"' in action_overlay_svg(act.Click(x=1, y=1), 1920, 1080)


def test_a_step_without_action_or_images_renders() -> None:
    step = StepRecord(run_id="r1", step=4, error="the desktop went away", listing="")
    html = step_html("r1", step, calls=[], events=[], screen_size=None, has_som=False)
    assert "no screenshot recorded" in html and "(no action)" in html
    assert "the desktop went away" in html and "<img" not in html
    only_som = step_html("r1", step, calls=[], events=[], screen_size=None, has_som=True)
    assert "/steps/4/thumb/som.png" in only_som and "som-toggle" not in only_som


def test_a_plan_kept_with_a_doubt_says_so_in_the_events() -> None:
    doubted = SubtaskSpec(
        id="s2", description="open_page(...)", doubt="address='x.test' is not given"
    )
    plain = SubtaskSpec(id="s1", description="web_search(...)")
    record = RunEvent(
        run_id="r",
        step=0,
        event=PlanEvent(
            subtasks=[plain, doubted], state=RunCheckpoint(instruction="find the page")
        ),
    )
    shown = event_text(record)
    assert "s2 kept with a doubt: address=&#x27;x.test&#x27; is not given" in shown
    assert "s1 kept" not in shown


def test_the_plan_table_marks_the_calls_code_changed() -> None:
    from pcagent.runtime.record.models import RunRecord
    from pcagent.viewer.plan_section import PlanView, plan_html
    from pcagent.viewer.run_contents import RunContents

    own = SubtaskSpec(id="s1", description="read_text_file(path='Documents/a.txt')")
    changed = SubtaskSpec(id="s2", description="calculate(expression='2+2')", mended=True)
    run = RunRecord(
        run_id="r", instruction="add", status="finished", created_at=0, updated_at=0, settings={}
    )
    plan = PlanView(first=[own, changed], current=[own, changed], status={}, roles={}, replans=[])
    rows = plan_html(RunContents(run, []), plan).split('<tr class="subtask">')[1:]
    assert len(rows) == 2
    assert "as code changed it" not in rows[0] and "as code changed it" in rows[1]
