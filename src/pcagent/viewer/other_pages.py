"""The benchmark pages (runs of ``pcagent bench run``, one run's tasks) and the page-graph
browser (``pcagent view --experience PATH``).

The benchmark pages reuse the report's summary and sub-goal graph
(:func:`pcagent.bench.report.summary`, :func:`pcagent.bench.report.graph_svg`), so the viewer
and ``pcagent bench report`` agree on every figure and colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pcagent.bench.failure_causes import CAUSES
from pcagent.bench.listing import code_label
from pcagent.bench.report import summary, verdict_html
from pcagent.bench.results import BenchRun, BenchStore
from pcagent.bench.tasks import Task
from pcagent.experience.graph import PageEdge, PageGraph, PageNode
from pcagent.viewer.bench_progress import BenchProgress
from pcagent.viewer.compare_pages import other_results_links, result_details
from pcagent.viewer.layout import esc, page, table, url_part, when
from pcagent.viewer.page_graph_view import DRAWN_PAGES, PagePictures, page_graph_svg


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _live_links(progress: BenchProgress) -> str:
    """Links to the running runs of a benchmark's unfinished tasks."""
    return ", ".join(
        f'<a class="live-run" href="/runs/{url_part(run.run_id)}">'
        f"{esc(str(run.settings.get('bench_task', '')))}: run {esc(run.run_id)}</a>"
        for run in progress.live_runs
    )


def _state_html(progress: BenchProgress) -> str:
    if progress.state == "running":
        return f'<span class="status-running">running</span> {_live_links(progress)}'
    if progress.state == "incomplete":
        return '<span class="status-stopped" title="no task of it is running">incomplete</span>'
    return '<span class="status-finished">complete</span>'


def bench_list_page(progress: Sequence[BenchProgress], store_path: str) -> str:
    """The benchmark runs, newest first: when, which agent and model, tasks done (of planned),
    the success rate so far, and for a benchmark under way, links to its live runs."""
    rows = [
        f'<tr class="bench-row" data-bench="{esc(item.bench.bench_id)}">'
        f'<td><a href="/bench/{url_part(item.bench.bench_id)}">{esc(item.bench.bench_id)}</a></td>'
        f"<td>{when(item.bench.created_at)}</td><td>{esc(item.bench.agent)}</td>"
        f"<td>{esc(item.bench.model or '–')}</td><td>{esc(item.bench.ablation)}</td>"
        f'<td class="bench-tasks">{item.tasks_text()}</td>'
        f'<td class="bench-sr">{_percent(item.success_rate)}</td>'
        f'<td class="bench-state">{_state_html(item)}</td>'
        f"<td>{esc(Path(item.bench.experience).name if item.bench.experience else '–')}</td>"
        f"<td>{esc(item.bench.tasks_dir or 'built-in')}</td></tr>"
        for item in progress
    ]
    body = f"<h1>Benchmark runs</h1><p class=muted>{esc(store_path)}</p>" + (
        table(
            [
                "benchmark run",
                "started (UTC)",
                "agent",
                "model",
                "ablation",
                "tasks",
                "SR",
                "state",
                "experience",
                "task folder",
            ],
            rows,
        )
        if rows
        else "<p>No benchmark runs recorded (<code>pcagent bench run</code> makes them).</p>"
    )
    return page("Benchmark", body)


def bench_page(
    store: BenchStore,
    bench: BenchRun,
    tasks: Mapping[str, Task],
    known_runs: set[str],
    other_benches: Mapping[str, Sequence[str]] | None = None,
    progress: BenchProgress | None = None,
) -> str:
    """One benchmark run: its metrics, the failure causes, and per task the sub-goal graph
    coloured by pass/fail, the failed checks and a link to the task's run (when the run record
    is in this viewer's store: ``known_runs``); ``other_benches`` names, per task, the other
    benchmark runs with a result of it, to compare with; ``progress`` says how far it has got
    and links to its live runs."""
    other_benches = other_benches or {}
    data = summary(store, bench)
    metrics = data["metrics"]
    tasks_cell = progress.tasks_text() if progress else str(metrics.get("tasks", 0))
    parts = [
        f"<h1>Benchmark run {esc(bench.bench_id)}</h1>",
        f"<p>agent <b>{esc(bench.agent)}</b> {esc(bench.model)} · ablation {esc(bench.ablation)}"
        f" · started {when(bench.created_at)} UTC · code "
        f"{esc(code_label(bench.code, data['codes']))}</p>",
        f'<p id="bench-state">{_state_html(progress)}</p>' if progress else "",
        _metrics_table(metrics, tasks_cell),
    ]
    if data["failure_causes"]:
        rows = [
            f"<tr><td title='{esc(CAUSES.get(cause, ''))}'>{esc(cause)}</td><td>{count}</td></tr>"
            for cause, count in data["failure_causes"].items()
        ]
        parts.append("<h2>Failure causes</h2>" + table(["cause", "tasks"], rows))
    parts.append("<h2>Tasks</h2>")
    results = store.results(bench.bench_id)
    for result, row in zip(results, data["tasks"], strict=True):
        task = tasks.get(result.task_id)
        verdict = verdict_html(row["success"])
        run_link = ""
        if row["run_id"]:
            run_link = (
                f' · <a href="/runs/{url_part(row["run_id"])}">run {esc(row["run_id"])}</a>'
                if row["run_id"] in known_runs
                else f" · run {esc(row['run_id'])} (not in this store)"
            )
        parts.append(
            f'<div class="task" id="task-{esc(result.task_id)}"><h3>{esc(result.task_id)} '
            f"{verdict}</h3><p>{esc(task.instruction if task else '')}</p>"
            f"<p class=muted>{row['actions']} actions, {row['tokens']} tokens, {row['seconds']} s, "
            f"completion {_percent(row['completion_ratio'])}{run_link}</p>"
        )
        parts.append(
            other_results_links(
                result.task_id, bench.bench_id, other_benches.get(result.task_id, ())
            )
        )
        parts.extend(result_details(task, result.nodes, row))
        parts.append("</div>")
    return page(f"Benchmark {bench.bench_id}", "".join(parts))


def _metrics_table(metrics: Mapping[str, Any], tasks_cell: str) -> str:
    """The benchmark run's metrics, one row."""
    return table(
        [
            "tasks",
            "SR",
            "SSR",
            "CR",
            "EE",
            "CE",
            "actions",
            "tokens",
            "time",
            "recovery",
            "manager acc.",
        ],
        [
            f"<tr class=metrics><td>{tasks_cell}</td>"
            f"<td>{_percent(metrics.get('SR'))}</td><td>{_percent(metrics.get('SSR'))}</td>"
            f"<td>{_percent(metrics.get('CR'))}</td><td>{float(metrics.get('EE') or 0):.4f}</td>"
            f"<td>{float(metrics.get('CE') or 0):.6f}</td><td>{metrics.get('actions', 0)}</td>"
            f"<td>{metrics.get('tokens', 0)}</td><td>{float(metrics.get('seconds') or 0):.0f} s</td>"
            f"<td>{_percent(metrics.get('recovery_rate'))}</td>"
            f"<td>{_percent(metrics.get('manager_accuracy'))}</td></tr>"
        ],
    )


# --- the page graph ---------------------------------------------------------------------------------

#: Nodes shown per page of the node list.
NODES_PER_PAGE = 200


def experience_page(
    graph: PageGraph,
    path: Path,
    *,
    app: str,
    query: str,
    offset: int,
    pictures: PagePictures | None = None,
) -> str:
    """The page graph drawn (the most visited of the pages that pass the filter, with their
    ``pictures``), then its nodes (filtered by application and text), ``NODES_PER_PAGE`` at a
    time, most visited first, with the number of their out-edges."""
    out_edges = graph.out_edges()
    apps = sorted({node.app for node in graph.nodes})
    wanted = query.casefold()
    nodes = [
        node
        for node in graph.nodes
        if (not app or node.app == app)
        and (
            not wanted
            or wanted in node.title.casefold()
            or any(wanted in label.casefold() for label in node.labels)
        )
    ]
    nodes.sort(key=lambda node: (-node.visits, node.id))
    shown = nodes[offset : offset + NODES_PER_PAGE]
    graph_arg = f"graph={url_part(str(path))}"
    rows = [
        f'<tr class="page-node"><td><a href="/experience/nodes/{node.id}?{graph_arg}">{node.id}</a>'
        f"</td><td>{esc(node.app)}</td><td>{esc(node.title)}</td>"
        f"<td>{esc(', '.join(node.labels[:12]))}{' …' if len(node.labels) > 12 else ''}</td>"
        f"<td>{node.visits}</td><td>{len(out_edges.get(node.id, []))}</td></tr>"
        for node in shown
    ]
    options = "".join(
        f'<option value="{esc(a)}"{" selected" if a == app else ""}>{esc(a)}</option>' for a in apps
    )
    form = (
        '<form class="filters" method="get" action="/experience">'
        f'<input type="hidden" name="graph" value="{esc(str(path))}">'
        f'<select name="app"><option value="">any application</option>{options}</select>'
        f'<input type="search" name="q" value="{esc(query)}" placeholder="title or label">'
        "<button type=submit>filter</button></form>"
    )
    paging = ""
    if offset + NODES_PER_PAGE < len(nodes):
        paging = (
            f'<p><a href="/experience?{graph_arg}&app={url_part(app)}&q={url_part(query)}'
            f'&offset={offset + NODES_PER_PAGE}">next {NODES_PER_PAGE}</a></p>'
        )
    body = (
        f"<h1>Page graph</h1><p class=muted>{esc(str(path))} · {len(graph.nodes)} pages, "
        f"{len(graph.edges)} edges, {len(graph.plans)} plans, built from {len(graph.sources)} "
        f"runs · embeddings {esc(graph.model)} · "
        f'<a href="/experience/query?{graph_arg}">ask it</a></p>{form}'
        + _graph_drawing(graph, nodes, graph_arg, pictures or PagePictures(graph))
        + f"<p>{len(nodes)} pages match; {offset + 1 if shown else 0}–{offset + len(shown)} shown</p>"
        + table(["page", "app", "title", "labels", "visits", "out-edges"], rows)
        + paging
    )
    return page("Page graph", body)


def _graph_drawing(
    graph: PageGraph, nodes: Sequence[PageNode], graph_arg: str, pictures: PagePictures
) -> str:
    drawing = page_graph_svg(graph, nodes, graph_arg, pictures)
    if not drawing:
        return ""
    drawn = min(len(nodes), DRAWN_PAGES)
    return (
        f"<h2>Graph</h2><p class=muted>the {drawn} most visited of the pages that match; "
        "an arrow is an action that led from one page to another (hover for the action), a "
        'loop one that stayed on its page</p><div class="page-graph-box">'
        f"{drawing}</div><h2>Pages</h2>"
    )


def experience_node_page(graph: PageGraph, path: Path, node_id: int) -> str | None:
    """One page of the graph with its out-edges (None when there is no such node)."""
    by_id = {node.id: node for node in graph.nodes}
    node = by_id.get(node_id)
    if node is None:
        return None
    graph_arg = f"graph={url_part(str(path))}"
    edges: list[PageEdge] = graph.out_edges().get(node_id, [])
    rows = []
    for edge in edges:
        target = by_id.get(edge.target)
        name = f"{target.app}: {target.title}" if target else "?"
        rows.append(
            f'<tr class="page-edge"><td>{esc(edge.action)}</td><td>{esc(edge.subtask)}</td>'
            f'<td><a href="/experience/nodes/{edge.target}?{graph_arg}">{edge.target}</a> '
            f"{esc(name)}</td><td>{'yes' if edge.new_page else 'no'}</td><td>{edge.count}</td></tr>"
        )
    labels = "".join(f"<li>{esc(label)}</li>" for label in node.labels)
    body = (
        f'<p><a href="/experience?{graph_arg}">all pages</a></p>'
        f"<h1>Page {node.id}: {esc(node.app)} · {esc(node.title)}</h1>"
        f"<p>{node.visits} visits</p><h2>Out-edges</h2>"
        + (
            table(["action", "subtask", "to", "new page", "times"], rows)
            if rows
            else "<p>No recorded action leaves this page.</p>"
        )
        + f"<h2>Labels</h2><ul>{labels}</ul>"
    )
    return page(f"Page {node.id}", body)
