"""The page graph as a picture: pages as boxes with a thumbnail of the screen, actions as arrows,
drawn as SVG on the server (the page loads no script for it).

A page of the graph keeps its application, its window title's shape and the picture hash of
the screen it was first seen on, not the screenshot: :class:`PagePictures` finds, among the
recorded steps of the runs the graph was built from, a step on that application and title whose
screenshot's hash is the nearest to the page's.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from PIL import Image

from pcagent.errors import PcAgentError
from pcagent.experience.graph import PageEdge, PageGraph, PageNode
from pcagent.experience.screens import hash_distance, picture_hash, title_shape
from pcagent.runtime.record.database import DATABASE_FILE
from pcagent.runtime.record.models import StepRecord
from pcagent.runtime.record.store import RunStore
from pcagent.text import shortened
from pcagent.viewer.drawing import BoxGrid

#: Pages drawn at most (the most visited of those the filter keeps).
DRAWN_PAGES = 40
#: Steps whose screenshots are compared to find a page's picture, at most.
CANDIDATE_STEPS = 24
_BOX_W, _BOX_H, _THUMB_W, _THUMB_H = 176, 150, 160, 100
_GAP_X, _GAP_Y, _MARGIN = 70, 26, 16


@dataclass(frozen=True)
class StepPicture:
    """A recorded step whose screenshot shows a page, and where that screenshot is."""

    screenshot: Path
    step: StepRecord


class PagePictures:
    """The recorded step that best shows each page of one graph, found on first request and
    kept. Thread-safe."""

    def __init__(self, graph: PageGraph) -> None:
        self.graph = graph
        self._steps: dict[tuple[str, str], list[StepPicture]] | None = None
        self._found: dict[int, StepPicture | None] = {}
        self._lock = threading.Lock()

    def _index(self) -> dict[tuple[str, str], list[StepPicture]]:
        """The source runs' steps by (application, title shape), as the graph names pages."""
        steps: dict[tuple[str, str], list[StepPicture]] = {}
        for folder in sorted({Path(source.records) for source in self.graph.sources}):
            if not (folder / DATABASE_FILE).is_file():
                continue  # moved or deleted since the graph was built: no pictures from it
            runs = [s.run_id for s in self.graph.sources if Path(s.records) == folder]
            try:
                with RunStore(folder) as store:
                    for run_id in runs:
                        for step in store.steps(run_id):
                            key = (step.front_app or "desktop", title_shape(step.window))
                            path = store.screenshot_path(run_id, step.step)
                            steps.setdefault(key, []).append(StepPicture(path, step))
            except PcAgentError:
                continue  # records that cannot be read give no pictures; the graph still draws
        return steps

    def _candidates(self, node: PageNode) -> list[StepPicture]:
        if self._steps is None:
            self._steps = self._index()
        steps = self._steps.get((node.app, node.title), [])
        return [c for c in steps if c.screenshot.is_file()][:CANDIDATE_STEPS]

    def has_picture(self, node: PageNode) -> bool:
        """Whether a recorded step may show the page (without reading any image)."""
        with self._lock:
            return bool(self._candidates(node))

    def picture_of(self, node: PageNode) -> StepPicture | None:
        """The step whose screenshot is nearest to the page's picture hash (the first of its
        application and title when the page has no hash); None when no step shows it."""
        with self._lock:
            if node.id in self._found:
                return self._found[node.id]
            candidates = self._candidates(node)
            best = _nearest(candidates, node.picture) if candidates else None
            self._found[node.id] = best
            return best


def _nearest(candidates: Sequence[StepPicture], wanted: int | None) -> StepPicture:
    if wanted is None:
        return candidates[0]
    scored = []
    for candidate in candidates:
        try:
            with Image.open(candidate.screenshot) as image:
                scored.append((hash_distance(picture_hash(image), wanted), candidate))
        except OSError:
            continue
    return min(scored, key=lambda pair: pair[0])[1] if scored else candidates[0]


def _columns(nodes: Sequence[PageNode], edges: Iterable[PageEdge]) -> dict[int, int]:
    """Each page's column: its distance (in actions) from a page nothing leads to, breadth
    first; pages only reached in a cycle start from the most visited of them."""
    ids = {node.id for node in nodes}
    targets: dict[int, list[int]] = {}
    entered: set[int] = set()
    for edge in edges:
        if edge.source in ids and edge.target in ids and edge.source != edge.target:
            targets.setdefault(edge.source, []).append(edge.target)
            entered.add(edge.target)
    column: dict[int, int] = {}
    by_visits = sorted(nodes, key=lambda node: (-node.visits, node.id))
    starts = [node.id for node in by_visits if node.id not in entered]
    while len(column) < len(ids):
        if not starts:
            starts = [next(node.id for node in by_visits if node.id not in column)]
        queue = deque(start for start in starts if start not in column)
        for start in queue:
            column[start] = 0
        while queue:
            current = queue.popleft()
            for target in targets.get(current, []):
                if target not in column:
                    column[target] = column[current] + 1
                    queue.append(target)
        starts = []
    return column


def page_graph_svg(
    graph: PageGraph, nodes: Sequence[PageNode], graph_arg: str, pictures: PagePictures
) -> str:
    """The most visited of ``nodes`` (at most :data:`DRAWN_PAGES`) in columns by distance from
    where runs entered, each with its picture (``/experience/nodes/ID/picture.png``) and a link
    to its page; an arrow for each recorded action between two of them, a loop mark on a page
    whose actions stayed on it. ``graph_arg`` is the ``graph=...`` query of the links."""
    drawn = sorted(nodes, key=lambda node: (-node.visits, node.id))[:DRAWN_PAGES]
    if not drawn:
        return ""
    edges = list(graph.edges.values())
    column = _columns(drawn, edges)
    grid = BoxGrid(_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _MARGIN)
    at = {
        node.id: grid.place(column[node.id])
        for node in sorted(drawn, key=lambda n: (column[n.id], -n.visits, n.id))
    }
    parts = [grid.svg_start("page-graph", "page-arrow", "#557")]
    loops: dict[int, list[PageEdge]] = {}
    for edge in edges:
        if edge.source not in at or edge.target not in at:
            continue
        if edge.source == edge.target:
            loops.setdefault(edge.source, []).append(edge)
            continue
        parts.append(_edge_svg(edge, at[edge.source], at[edge.target]))
    for node in drawn:
        picture = (
            f"/experience/nodes/{node.id}/picture.png?{graph_arg}"
            if pictures.has_picture(node)
            else ""
        )
        parts.append(_node_svg(node, at[node.id], loops.get(node.id, []), graph_arg, picture))
    parts.append("</svg>")
    return "".join(parts)


def _edge_svg(edge: PageEdge, source: tuple[int, int], target: tuple[int, int]) -> str:
    (x1, y1), (x2, y2) = source, target
    title = escape(f"{edge.action} · {edge.subtask} · {edge.count}x")
    attributes = (
        f'class="page-edge" data-from="{edge.source}" data-to="{edge.target}" fill="none" '
        f'stroke="#557" stroke-width="{min(4, 1 + edge.count // 3)}" marker-end="url(#page-arrow)"'
    )
    if x2 > x1:  # forwards: from the right side to the left side
        start, end = (x1 + _BOX_W, y1 + _BOX_H / 2), (x2, y2 + _BOX_H / 2)
        path = f"M{start[0]},{start[1]} L{end[0]},{end[1]}"
    else:  # back or within a column: a curve under the boxes
        start, end = (x1 + _BOX_W / 2, y1 + _BOX_H), (x2 + _BOX_W / 2 + 12, y2 + _BOX_H)
        bend = max(y1, y2) + _BOX_H + _GAP_Y * 0.9
        path = f"M{start[0]},{start[1]} Q{(start[0] + end[0]) / 2},{bend} {end[0]},{end[1]}"
    return f'<path {attributes} d="{path}"><title>{title}</title></path>'


def _node_svg(
    node: PageNode,
    position: tuple[int, int],
    loops: Sequence[PageEdge],
    graph_arg: str,
    picture: str,
) -> str:
    x, y = position
    loop = ""
    if loops:
        actions = "; ".join(f"{edge.action} ({edge.count}x)" for edge in loops[:8])
        loop = (
            f'<path class="page-loop" d="M{x + _BOX_W - 30},{y} a12,12 0 1,1 20,0" fill="none" '
            f'stroke="#557" marker-end="url(#page-arrow)"><title>{escape(actions)}</title></path>'
        )
    return (
        f'<a href="/experience/nodes/{node.id}?{escape(graph_arg)}">'
        f'<g class="page-box" data-node="{node.id}"><title>{escape(node.app)}: '
        f"{escape(node.title)} ({node.visits} visits)</title>"
        f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="6" fill="#fff" '
        'stroke="#666"/>'
        f'<rect x="{x + 8}" y="{y + 8}" width="{_THUMB_W}" height="{_THUMB_H}" fill="#e4e4e4"/>'
        + (
            f'<image class="page-picture" href="{escape(picture)}" x="{x + 8}" y="{y + 8}" '
            f'width="{_THUMB_W}" height="{_THUMB_H}" preserveAspectRatio="xMidYMid meet"/>'
            if picture
            else f'<text x="{x + 50}" y="{y + 62}" font-size="11" fill="#888">no picture</text>'
        )
        + f'<text x="{x + 8}" y="{y + _THUMB_H + 24}" font-size="12" font-weight="bold">'
        f"{escape(shortened(node.title or '(no title)', 24))}</text>"
        f'<text x="{x + 8}" y="{y + _THUMB_H + 40}" font-size="11" fill="#444">'
        f"{escape(shortened(f'{node.app} · {node.visits} visits', 28))}</text></g></a>{loop}"
    )
