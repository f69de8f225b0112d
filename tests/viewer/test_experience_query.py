"""Asking the page graph from the viewer: a graph built with the real encoder from real run
records answers with the pages like the described screen, the guidance Decision would get and
the programs the Manager would get."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.experience.recorded_runs import training_records
from tests.viewer.conftest import serving

from pcagent.experience.build import build_graph
from pcagent.experience.embedding import SentenceEncoder
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK
from pcagent.viewer import ViewerSources, check_sources, create_app

TOKEN = "graph-token-" + "z" * 20


@pytest.fixture(scope="module")
def client(
    tmp_path_factory: pytest.TempPathFactory, shared_encoder: SentenceEncoder
) -> Iterator[httpx.Client]:
    root = tmp_path_factory.mktemp("asked")
    records = training_records(root / "records")
    graph = root / "graph.db"
    build_graph(shared_encoder, DEFAULT_EMBEDDING_PACK, [records]).save(graph)
    sources = ViewerSources(records, None, experience=graph)
    with serving(create_app(sources, TOKEN, store=check_sources(sources))) as url:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
            yield client


def test_the_graph_answers_what_decision_and_the_manager_would_get(client: httpx.Client) -> None:
    form = client.get("/experience/query")
    assert form.status_code == 200 and "<form" in form.text and "Pages like it" not in form.text
    assert 'href="/experience/query?graph=' in client.get("/experience").text
    answer = client.get(
        "/experience/query",
        params={
            "app": "clock",
            "window": "Clocks",
            "labels": "World, Alarms, Stopwatch, Timer, Add Alarm",
            "subtask": "Add an alarm at 8:00",
            "instruction": "Set an alarm at 8:00 in the clock app",
        },
    )
    assert answer.status_code == 200
    text = answer.text.replace("&quot;", '"')
    assert 'click button "Add Alarm" → clock: New Alarm' in text
    assert "Instruction: Set an alarm at" in text and '"skill":"gui"' in text
    assert "retrieval" in text
    unseen = client.get("/experience/query", params={"app": "calculator", "window": "Calculator"})
    assert "no page like this in the graph" in unseen.text


def test_a_graph_that_is_not_there_is_a_404(client: httpx.Client, tmp_path: Path) -> None:
    missing = client.get("/experience/query", params={"graph": str(tmp_path / "none.db")})
    assert missing.status_code == 404 and "experience build" in missing.text
