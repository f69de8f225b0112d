"""The benchmark report: a self-contained HTML page and a JSON summary.

Per task: the sub-goal graph drawn as SVG (passed nodes green, failed red, with the step each passed
at), actions, tokens, time, the reasons checks failed and the failure causes read off the run
record (:mod:`pcagent.bench.failure_causes`). Totals, and two tables in the shape of
PC-Agent's: Table 2 (SR and SSR per agent and model) and Table 3 (the ablations side by side), built
from the latest benchmark run of each configuration in the store.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pcagent.bench.failure_causes import CAUSES
from pcagent.bench.listing import code_counts, code_label, model_label
from pcagent.bench.metrics import summarize
from pcagent.bench.results import BenchRun, BenchStore, StoredResult
from pcagent.bench.tasks import Task, load_task_folder, load_tasks
from pcagent.errors import PcAgentError

_STYLE = """
body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left}
th{background:#eee}.pass{color:#176117}.fail{color:#a11}.task{border-top:2px solid #ccc;margin-top:1.5em}
small{color:#555}
"""


def verdict_html(success: bool) -> str:
    """A task's verdict as the report and the viewer show it (coloured by the shared style)."""
    return '<span class="pass">passed</span>' if success else '<span class="fail">failed</span>'


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def summary(store: BenchStore, bench: BenchRun) -> dict[str, Any]:
    """The JSON summary of one benchmark run."""
    results = store.results(bench.bench_id)
    metrics = summarize([r.task_outcome() for r in results])
    return {
        "bench_id": bench.bench_id,
        "agent": bench.agent,
        "model": bench.model,
        "ablation": bench.ablation,
        "code": bench.code,
        "codes": code_counts(results),
        "metrics": metrics,
        "tasks": [
            {
                "task": r.task_id,
                "success": r.outcome["success"],
                "completion_ratio": r.outcome["completion_ratio"],
                "actions": r.outcome["actions"],
                "tokens": r.outcome["tokens"],
                "seconds": round(r.outcome["seconds"], 2),
                "reset_seconds": round(r.outcome["reset_seconds"], 2),
                "failed_nodes": {n["node_id"]: n["reason"] for n in r.nodes if not n["passed"]},
                "run_id": r.run_id,
                "error": r.error,
                "failure_causes": list(r.outcome.get("failure_causes") or []),
                # Which tasks code decided in (the share's other side, per task).
                "code_decisions": r.outcome.get("code_decisions", 0),
                "attempts": r.attempts,
                "code": r.code,
            }
            for r in results
        ],
        "failure_causes": cause_counts(results),
    }


def _retried(attempts: int) -> str:
    """A task run again because its worker died says so: its time is the last attempt's."""
    return f', <span class="fail">retried: {attempts} attempts</span>' if attempts > 1 else ""


def cause_counts(results: Sequence[StoredResult]) -> dict[str, int]:
    """How many tasks each failure cause was found in, most frequent first."""
    counts: dict[str, int] = {}
    for result in results:
        for cause in result.outcome.get("failure_causes") or []:
            counts[cause] = counts.get(cause, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _levels(task: Task) -> dict[str, int]:
    levels: dict[str, int] = {}
    remaining = list(task.nodes)
    while remaining:
        for node in list(remaining):
            if all(a in levels for a in node.after):
                levels[node.id] = 1 + max((levels[a] for a in node.after), default=-1)
                remaining.remove(node)
    return levels


def graph_svg(task: Task, nodes: Sequence[dict[str, Any]]) -> str:
    """The sub-goal graph: one column per depth, arrows from each node to those after it."""
    state = {n["node_id"]: n for n in nodes}
    levels = _levels(task)
    columns: dict[int, list[str]] = {}
    for node in task.nodes:
        columns.setdefault(levels[node.id], []).append(node.id)
    width, height, gap_x, gap_y = 170, 44, 60, 16
    position = {
        node_id: (20 + level * (width + gap_x), 20 + row * (height + gap_y))
        for level, ids in columns.items()
        for row, node_id in enumerate(ids)
    }
    total_w = 40 + len(columns) * (width + gap_x)
    total_h = 40 + max(len(ids) for ids in columns.values()) * (height + gap_y)
    parts = [f'<svg width="{total_w}" height="{total_h}" xmlns="http://www.w3.org/2000/svg">']
    for node in task.nodes:
        x2, y2 = position[node.id]
        for before in node.after:
            x1, y1 = position[before]
            parts.append(
                f'<line x1="{x1 + width}" y1="{y1 + height // 2}" x2="{x2}" '
                f'y2="{y2 + height // 2}" stroke="#888"/>'
            )
    for node in task.nodes:
        x, y = position[node.id]
        passed = bool(state.get(node.id, {}).get("passed"))
        step = state.get(node.id, {}).get("step")
        fill = "#d6f5d6" if passed else "#f8d7d7"
        label = f"{node.id} ({node.subtask})" + (f" @{step}" if passed else "")
        parts.append(
            f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="6" fill="{fill}" '
            f'stroke="#666"><title>{html.escape(state.get(node.id, {}).get("reason", ""))}</title></rect>'
            f'<text x="{x + 8}" y="{y + 18}" font-size="12">{html.escape(label)}</text>'
            f'<text x="{x + 8}" y="{y + 34}" font-size="10">{html.escape(node.checker)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _metrics_row(label: str, metrics: dict[str, Any]) -> str:
    return (
        f"<tr><td>{html.escape(label)}</td><td>{metrics.get('tasks', 0)}</td>"
        f"<td>{_percent(metrics.get('SR'))}</td><td>{_percent(metrics.get('SSR'))}</td>"
        f"<td>{_percent(metrics.get('CR'))}</td><td>{_percent(metrics.get('recovery_rate'))}</td>"
        f"<td>{_percent(metrics.get('manager_accuracy'))}</td></tr>"
    )


def _configuration_tables(store: BenchStore, bench: BenchRun) -> str:
    """Table 2 and Table 3 over the runs of the same tasks as ``bench`` (the built-in ones, or
    the same task folder): the latest run of each configuration, ``bench`` among them."""
    latest: dict[tuple[str, str, str, str], BenchRun] = {}
    for run in store.runs():  # newest first
        if run.tasks_dir != bench.tasks_dir:  # another task set is another benchmark
            continue
        latest.setdefault((run.agent, run.model, run.ablation, run.experience), run)
    header = (
        "<tr><th>configuration</th><th>tasks</th><th>SR</th><th>SSR</th><th>CR</th>"
        "<th>recovery</th><th>manager acc.</th></tr>"
    )
    table2 = []
    table3 = []
    for (agent, model, ablation, experience), run in latest.items():
        metrics = summarize([r.task_outcome() for r in store.results(run.bench_id)])
        label = f"{agent}{f' ({model})' if model else ''}"
        if experience and ablation != "no_experience":
            label += f" + experience {Path(experience).name}"
        if ablation == "none":
            table2.append(_metrics_row(label, metrics))
        if agent == "pcagent":
            table3.append(_metrics_row(f"{label}: {ablation}", metrics))
    tasks = (
        f"the tasks of {html.escape(bench.tasks_dir)}" if bench.tasks_dir else "the built-in tasks"
    )
    return (
        f"<h2>Table 2 shape: agents and models</h2><p><small>the latest run of each "
        f"configuration on {tasks}</small></p><table>"
        + header
        + ("".join(table2) or "<tr><td colspan=7>no run without ablation on these tasks</td></tr>")
        + "</table><h2>Table 3 shape: ablations</h2><table>"
        + header
        + ("".join(table3) or "<tr><td colspan=7>no pcagent run on these tasks yet</td></tr>")
        + "</table>"
    )


def causes_html(causes: Sequence[str]) -> str:
    """Failure causes as HTML, each with its meaning as a tooltip."""
    return ", ".join(
        f'<span title="{html.escape(CAUSES.get(c, ""))}">{html.escape(c)}</span>' for c in causes
    )


def tasks_of(bench: BenchRun) -> dict[str, Task]:
    """The tasks a run ran: the built-in ones, or those of its task folder when that is still
    there (the report says nothing of a task it cannot load)."""
    if bench.tasks_dir:
        try:
            return load_task_folder(Path(bench.tasks_dir))
        except PcAgentError:
            return {}
    return load_tasks()


def render_html(store: BenchStore, bench: BenchRun) -> str:
    data = summary(store, bench)
    tasks = tasks_of(bench)
    results: list[StoredResult] = store.results(bench.bench_id)
    metrics = data["metrics"]
    parts = [
        "<!doctype html><meta charset=utf-8><title>pcagent benchmark</title>",
        f"<style>{_STYLE}</style><h1>pcagent benchmark {html.escape(bench.bench_id)}</h1>",
        f"<p>agent <b>{html.escape(bench.agent)}</b>, model "
        f"<b>{html.escape(model_label(bench))}</b>, ablation {html.escape(bench.ablation)}, "
        f"{len(results)} of {len(bench.tasks)} tasks done"
        f"{', tasks from ' + html.escape(bench.tasks_dir) if bench.tasks_dir else ''}, code "
        f"{html.escape(code_label(bench.code, data['codes']))}</p>",
        "<table><tr><th>SR</th><th>SSR</th><th>CR</th><th>EE</th><th>CE</th><th>actions</th>"
        "<th>tokens</th><th>time</th><th>reset (median)</th></tr>",
        f"<tr><td>{_percent(metrics.get('SR'))}</td><td>{_percent(metrics.get('SSR'))}</td>"
        f"<td>{_percent(metrics.get('CR'))}</td><td>{metrics.get('EE', 0):.4f}</td>"
        f"<td>{metrics.get('CE', 0):.6f}</td><td>{metrics.get('actions', 0)}</td>"
        f"<td>{metrics.get('tokens', 0)}</td><td>{metrics.get('seconds', 0):.0f} s</td>"
        f"<td>{metrics.get('reset_seconds_median', 0):.2f} s</td></tr></table>",
        _configuration_tables(store, bench),
        "<h2>Tasks</h2>",
    ]
    for result, row in zip(results, data["tasks"], strict=True):
        task = tasks.get(result.task_id)
        verdict = verdict_html(row["success"])
        parts.append(
            f'<div class="task"><h3>{html.escape(result.task_id)} {verdict}</h3>'
            f"<p>{html.escape(task.instruction if task else '')}</p>"
            f"<p><small>{row['actions']} actions, {row['tokens']} tokens, {row['seconds']} s, "
            f"completion {_percent(row['completion_ratio'])}"
            f"{', run ' + html.escape(row['run_id']) if row['run_id'] else ''}"
            f"{_retried(row['attempts'])}</small></p>"
        )
        if task is not None:
            parts.append(graph_svg(task, result.nodes))
        if row["failure_causes"]:
            parts.append(
                f"<p><small>failure causes: {causes_html(row['failure_causes'])}</small></p>"
            )
        if row["failed_nodes"] or row["error"]:
            parts.append("<ul>")
            if row["error"]:
                parts.append(f"<li class=fail>{html.escape(row['error'])}</li>")
            for node_id, reason in row["failed_nodes"].items():
                parts.append(f"<li>{html.escape(node_id)}: {html.escape(reason)}</li>")
            parts.append("</ul>")
        parts.append("</div>")
    missing = [task for task in bench.tasks if task not in {r.task_id for r in results}]
    if missing:
        parts.append(f"<p>no result yet: {html.escape(', '.join(missing))}</p>")
    return "".join(parts)
