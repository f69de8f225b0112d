"""The viewer's experience pages: a page graph's pages, one page with its pictures, and what the
agents would retrieve for a question.

The graph is the one ``pcagent view --experience`` named, or any file given as ``?graph=PATH``;
it is read again when the file changes.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from pcagent.errors import PcAgentError
from pcagent.experience.graph import PageGraph
from pcagent.viewer.app_state import NotFound, ViewerState, html_page
from pcagent.viewer.experience_query import Question, experience_query_page
from pcagent.viewer.other_pages import experience_node_page, experience_page
from pcagent.viewer.window_crop import window_region


def add_experience_routes(app: FastAPI, state: ViewerState) -> None:
    """Register ``/experience``, ``/experience/query`` and ``/experience/nodes/...`` on ``app``."""

    @app.get("/experience", response_class=HTMLResponse)
    def experience(graph: str = "", app: str = "", q: str = "", offset: int = 0) -> Response:
        path = _graph_path(state, graph)
        loaded = _load_graph(state, path)
        return html_page(
            experience_page(
                loaded,
                path,
                app=app,
                query=q,
                offset=max(0, offset),
                pictures=state.page_pictures(loaded),
            )
        )

    @app.get("/experience/query", response_class=HTMLResponse)
    def experience_query(
        graph: str = "",
        app: str = "",
        window: str = "",
        labels: str = "",
        subtask: str = "",
        instruction: str = "",
    ) -> Response:
        path = _graph_path(state, graph)
        apps = sorted({node.app for node in _load_graph(state, path).nodes})
        question = Question(app, window, labels, subtask, instruction)
        try:
            return html_page(experience_query_page(path, apps, question))
        except PcAgentError as error:  # the embedding model is not installed, for one
            raise NotFound(str(error)) from None

    @app.get("/experience/nodes/{node_id}/picture.png")
    def experience_node_picture(node_id: int, graph: str = "") -> Response:
        """A small picture of a page: the screenshot of a recorded step that showed it, cut to
        the application."""
        loaded = _load_graph(state, _graph_path(state, graph))
        node = next((n for n in loaded.nodes if n.id == node_id), None)
        if node is None:
            raise NotFound(f"The page graph has no page {node_id}.")
        found = state.page_pictures(loaded).picture_of(node)
        if found is None:
            raise NotFound(f"No recorded step shows page {node_id} any more.")
        size = state.images.size(found.screenshot)
        region = window_region(found.step.listing, found.step.action, size) if size else None
        try:
            data = state.images.thumbnail(found.screenshot, 320, region)
        except OSError as error:
            raise NotFound(f"{found.screenshot} is not a readable image: {error}") from None
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "private, max-age=300"}
        )

    @app.get("/experience/nodes/{node_id}", response_class=HTMLResponse)
    def experience_node(node_id: int, graph: str = "") -> Response:
        path = _graph_path(state, graph)
        rendered = experience_node_page(_load_graph(state, path), path, node_id)
        if rendered is None:
            raise NotFound(f"The page graph {path} has no page {node_id}.")
        return html_page(rendered)


def _graph_path(state: ViewerState, graph: str) -> Path:
    if graph:
        return Path(graph).expanduser()
    if state.sources.experience is None:
        raise NotFound(
            "No page graph given: start the viewer with `pcagent view --experience PATH` "
            "or add ?graph=PATH to this address."
        )
    return state.sources.experience


def _load_graph(state: ViewerState, path: Path) -> PageGraph:
    try:
        return state.graph(path)
    except PcAgentError as error:
        raise NotFound(str(error)) from None
