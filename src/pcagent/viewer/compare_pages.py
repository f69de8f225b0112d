"""Two runs side by side, step by step, and two benchmark results of one task side by side.

Runs are aligned by step number. When one run was rewound from the other, its steps up to the
step it continued from are copies of the parent's (a rewind copies them into the new run), and
are marked so; the first step after them is where the two runs part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pcagent.bench.report import causes_html, graph_svg, verdict_html
from pcagent.bench.results import BenchRun, StoredResult
from pcagent.bench.tasks import Task
from pcagent.runtime.record.models import RunRecord, StepRecord
from pcagent.viewer.drawing import action_overlay_svg, action_text
from pcagent.viewer.layout import esc, page, table, url_part, when
from pcagent.viewer.run_pages import model_of

#: Width of the thumbnails in the compare page's columns (one of the thumbnail widths).
COMPARE_THUMBNAIL_WIDTH = 320


@dataclass
class ComparedRun:
    """One side of a comparison: the run, its steps, and each step's screenshot size (None
    when it has no screenshot)."""

    run: RunRecord
    steps: list[StepRecord]
    screen_sizes: dict[int, tuple[int, int] | None]

    def by_step(self) -> dict[int, StepRecord]:
        return {step.step: step for step in self.steps}


def copied_steps(left: RunRecord, right: RunRecord) -> int:
    """How many first steps one run copied from the other (0 when neither was rewound from the
    other)."""
    if right.parent_run == left.run_id and right.parent_step:
        return right.parent_step
    if left.parent_run == right.run_id and left.parent_step:
        return left.parent_step
    return 0


def _verdict(step: StepRecord) -> str:
    return step.reflection.verdict if step.reflection is not None else ""


def _outcome(step: StepRecord) -> str:
    if step.result is None:
        return "error" if step.error else ""
    if step.result.refused:
        return "refused"
    return "ok" if step.result.ok else "failed"


def differences(left: StepRecord | None, right: StepRecord | None) -> list[str]:
    """How two steps of the same number differ, in words ([] when they agree)."""
    if left is None or right is None:
        return ["only in the left run" if right is None else "only in the right run"]
    found = []
    if action_text(left.action) != action_text(right.action):
        found.append("action differs")
    if _outcome(left) != _outcome(right):
        found.append("result differs")
    if _verdict(left) != _verdict(right):
        found.append("verdict differs")
    return found


def _step_cell(run_id: str, step: StepRecord | None, size: tuple[int, int] | None) -> str:
    if step is None:
        return "<p class=muted>no such step</p>"
    n = step.step
    base = f"/runs/{url_part(run_id)}/steps/{n}"
    if size is not None:
        width, height = size
        visual = (
            f'<div class="shot"><img loading="lazy" decoding="async" '
            f'src="{base}/thumb/screenshot.png?w={COMPARE_THUMBNAIL_WIDTH}" width="{width}" '
            f'height="{height}" alt="screenshot of step {n}">'
            f"{action_overlay_svg(step.action, width, height)}</div>"
        )
    else:
        visual = "<p class=muted>no screenshot recorded</p>"
    verdict = _verdict(step)
    outcome = _outcome(step)
    outcome_css = "pass" if outcome == "ok" else "fail"
    reason = step.reflection.reason if step.reflection is not None else ""
    return (
        visual
        + f"<div><code class=action>{esc(action_text(step.action))}</code></div>"
        + (f'<div class="{outcome_css}">{esc(outcome)}</div>' if outcome else "")
        + (
            f'<div><b>reflection</b> <span class="verdict verdict-{esc(verdict)}">'
            f"{esc(verdict)}</span> <span class=muted>{esc(reason)}</span></div>"
            if verdict
            else ""
        )
        + (f'<div class="fail">{esc(step.error)}</div>' if step.error else "")
        + f'<div class=muted><a href="/runs/{url_part(run_id)}#step-{n}">step {n} in its run</a>'
        f" · subtask {esc(step.subtask_id or '–')} · {esc(step.role or '–')}</div>"
    )


def _run_head(run: RunRecord, side: str) -> str:
    return (
        f'<div class="compare-side {side}"><h2><a href="/runs/{url_part(run.run_id)}">'
        f"{esc(run.run_id)}</a></h2>"
        f'<p><span class="status-{esc(run.status)}">{esc(run.status)}</span> · '
        f"{run.steps} steps · {run.tokens} tokens · model {esc(model_of(run.settings) or '–')}"
        f" · started {when(run.created_at)} UTC</p><p>{esc(run.instruction)}</p>"
        + (f"<p><b>summary</b> {esc(run.summary)}</p>" if run.summary else "")
        + "</div>"
    )


def compare_runs_page(left: ComparedRun, right: ComparedRun) -> str:
    """The two runs' heads, then one row per step number: the left step, what differs, the
    right step."""
    copied = copied_steps(left.run, right.run)
    relation = ""
    if copied:
        child, parent = (right, left) if right.run.parent_run == left.run.run_id else (left, right)
        relation = (
            f"<p class=relation>{esc(child.run.run_id)} was rewound from "
            f"{esc(parent.run.run_id)} at step {copied}: its steps 1–{copied} are copies of the "
            "parent's.</p>"
        )
    left_steps, right_steps = left.by_step(), right.by_step()
    numbers = sorted(set(left_steps) | set(right_steps))
    rows = []
    first_difference = None
    for n in numbers:
        a, b = left_steps.get(n), right_steps.get(n)
        found = differences(a, b)
        if found and first_difference is None:
            first_difference = n
        if n <= copied:
            label = "copied from the parent" + (f" ({', '.join(found)})" if found else "")
            css = "copied"
        elif found:
            label, css = ", ".join(found), "differs"
        else:
            label, css = "same action and verdict", "same"
        rows.append(
            f'<section class="compare-row {css}" id="step-{n}" data-step="{n}">'
            f'<div class="compare-side left">{_step_cell(left.run.run_id, a, left.screen_sizes.get(n))}</div>'
            f'<div class="compare-middle"><b>step {n}</b><div class="compare-note">{esc(label)}</div></div>'
            f'<div class="compare-side right">{_step_cell(right.run.run_id, b, right.screen_sizes.get(n))}</div>'
            "</section>"
        )
    swap = (
        f'<a href="/compare?left={url_part(right.run.run_id)}&amp;right='
        f'{url_part(left.run.run_id)}">swap sides</a>'
    )
    summary = (
        f"<p>{len(numbers)} step numbers; "
        + (
            f'first difference at <a href="#step-{first_difference}">step {first_difference}</a>'
            if first_difference is not None
            else "no differences"
        )
        + f" · {swap}</p>"
    )
    body = (
        "<h1>Compare runs</h1>"
        + relation
        + f'<div class="compare-heads">{_run_head(left.run, "left")}{_run_head(right.run, "right")}</div>'
        + summary
        + ("".join(rows) if rows else "<p class=muted>Neither run has recorded steps.</p>")
    )
    return page(f"Compare {left.run.run_id} and {right.run.run_id}", body)


# --- benchmark results ------------------------------------------------------------------------


@dataclass
class ComparedResult:
    """One benchmark run's result of the task: its summary row (``pcagent bench report``'s),
    the stored result, and whether its agent run is in this viewer's store."""

    bench: BenchRun
    row: Mapping[str, Any]
    result: StoredResult
    run_known: bool


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _result_column(side: ComparedResult, task: Task | None, css: str) -> str:
    row, bench = side.row, side.bench
    verdict = verdict_html(row["success"])
    metrics = table(
        ["success", "completion", "actions", "tokens", "time"],
        [
            f"<tr class=task-metrics><td>{verdict}</td><td>{_percent(row['completion_ratio'])}</td>"
            f"<td>{row['actions']}</td><td>{row['tokens']}</td><td>{row['seconds']} s</td></tr>"
        ],
    )
    run_id = row["run_id"]
    if run_id and side.run_known:
        run_link = f'<a class=run-link href="/runs/{url_part(run_id)}">run {esc(run_id)}</a>'
    elif run_id:
        run_link = f"run {esc(run_id)} (not in this store)"
    else:
        run_link = "no run recorded"
    parts = [
        f'<div class="compare-side {css}"><h2><a href="/bench/{url_part(bench.bench_id)}'
        f'#task-{esc(side.result.task_id)}">{esc(bench.bench_id)}</a></h2>',
        f"<p>agent <b>{esc(bench.agent)}</b> {esc(bench.model)} · ablation "
        f"{esc(bench.ablation)} · started {when(bench.created_at)} UTC</p>",
        metrics,
        f"<p>{run_link}</p>",
    ]
    parts.extend(result_details(task, side.result.nodes, row))
    parts.append("</div>")
    return "".join(parts)


def result_details(task: Task | None, nodes: Any, row: Mapping[str, Any]) -> list[str]:
    """A task result's sub-goal graph, failure causes and failed checks, as HTML parts (the
    benchmark page and the comparison show them alike)."""
    parts = []
    if task is not None:
        parts.append(f'<div class="subgoal-graph">{graph_svg(task, nodes)}</div>')
    if row["failure_causes"]:
        parts.append(f"<p>failure causes: {causes_html(row['failure_causes'])}</p>")
    if row["failed_nodes"] or row["error"]:
        items = [f"<li class=fail>{esc(row['error'])}</li>"] if row["error"] else []
        items += [
            f"<li>{esc(node)}: {esc(reason)}</li>" for node, reason in row["failed_nodes"].items()
        ]
        parts.append(f"<ul class=failed-checks>{''.join(items)}</ul>")
    return parts


def _node_changes(a: StoredResult, b: StoredResult) -> list[str]:
    passed_a = {n["node_id"]: bool(n["passed"]) for n in a.nodes}
    passed_b = {n["node_id"]: bool(n["passed"]) for n in b.nodes}
    changes = []
    for node in dict.fromkeys([*passed_a, *passed_b]):
        before, after = passed_a.get(node), passed_b.get(node)
        if before != after:
            words = {True: "passed", False: "failed", None: "not checked"}
            changes.append(f"{node}: {words[before]} → {words[after]}")
    return changes


def compare_bench_page(
    task_id: str, task: Task | None, a: ComparedResult, b: ComparedResult
) -> str:
    """Two results of one task side by side: metrics, sub-goal graphs, failure causes, failed
    checks and the runs, with the sub-goals whose outcome changed listed first."""
    changes = _node_changes(a.result, b.result)
    change_text = (
        "<ul class=subgoal-changes>" + "".join(f"<li>{esc(c)}</li>" for c in changes) + "</ul>"
        if changes
        else "<p class=muted>Every sub-goal has the same outcome in both.</p>"
    )
    body = (
        f"<h1>Task {esc(task_id)}: two benchmark results</h1>"
        f"<p>{esc(task.instruction if task else '')}</p>"
        f"<h2>Sub-goals that changed</h2>{change_text}"
        f'<div class="compare-heads">{_result_column(a, task, "left")}'
        f"{_result_column(b, task, 'right')}</div>"
    )
    return page(f"Compare {task_id}", body)


def other_results_links(task_id: str, bench_id: str, others: Sequence[str]) -> str:
    """Links from a task on one benchmark page to the comparisons with the other benchmark runs
    that have the same task."""
    if not others:
        return ""
    links = ", ".join(
        f'<a class=compare-link href="/bench/compare?task={url_part(task_id)}&amp;a='
        f'{url_part(bench_id)}&amp;b={url_part(other)}">{esc(other)}</a>'
        for other in others
    )
    return f"<p class=muted>compare with {links}</p>"
