"""The plan section of a run's page: the subtask graph, the subtasks' status and roles, and
the re-plans.

A plan changes during a run (re-plans, the checkpoint's own copy); :class:`PlanView` gathers the
first plan and the one in force from the run's events and steps, once per page.
"""

from __future__ import annotations

from dataclasses import dataclass

from pcagent.agents.plan import SubtaskSpec
from pcagent.runtime.record.events import AssignEvent, PlanEvent, ReplanEvent
from pcagent.viewer.drawing import plan_graph_svg
from pcagent.viewer.layout import esc, table
from pcagent.viewer.run_contents import RunContents
from pcagent.viewer.step_sections import calls_summary, event_text

#: Beside a subtask whose call code changed after the model wrote it, so that a reader of the
#: plan sees which calls are the model's own (they count as code's decisions).
_MENDED = ' <span class="muted mended">(the model\'s call as code changed it)</span>'


@dataclass
class PlanView:
    """The plan as the run page shows it: the first plan, the re-plans, the plan in force now
    (the last checkpoint's), each subtask's status and the roles it was given to."""

    first: list[SubtaskSpec]
    current: list[SubtaskSpec]
    status: dict[str, str]
    roles: dict[str, list[str]]
    replans: list[tuple[int, ReplanEvent]]

    @classmethod
    def of(cls, contents: RunContents) -> PlanView:
        first: list[SubtaskSpec] = []
        current: list[SubtaskSpec] = []
        status: dict[str, str] = {}
        roles: dict[str, list[str]] = {}
        replans: list[tuple[int, ReplanEvent]] = []
        for record in contents.all_events():
            event = record.event
            if isinstance(event, PlanEvent) and not first:
                first = list(event.subtasks)
                current = list(event.subtasks)
                status = dict(event.state.status)
            elif isinstance(event, ReplanEvent):
                replans.append((record.step, event))
                if event.subtasks:
                    current = list(event.subtasks)
            elif isinstance(event, AssignEvent):
                named = roles.setdefault(event.subtask, [])
                if event.role not in named:
                    named.append(event.role)
        for step in reversed(contents.steps):
            if step.state is not None and step.state.subtasks:
                current = list(step.state.subtasks)
                status = dict(step.state.status)
                break
        return cls(first, current, status, roles, replans)


def plan_html(contents: RunContents, plan: PlanView) -> str:
    """The plan section: the graph, a table of the subtasks, the re-plans, and what happened
    before the first step (planning calls, events)."""
    run_id = contents.run.run_id
    parts = ["<h2>Plan</h2>"]
    if not plan.current:
        parts.append("<p class=muted>No plan recorded.</p>")
    else:
        parts.append(plan_graph_svg(plan.current, plan.status, plan.roles))
        rows = [
            f'<tr class="subtask"><td>{esc(s.id)}</td><td>{esc(s.app)}</td>'
            f"<td>{esc(s.description)}{_MENDED if s.mended else ''}</td>"
            f"<td>{esc(', '.join(s.depends_on))}</td>"
            f"<td>{esc(', '.join(s.inputs))}</td><td>{esc(', '.join(s.outputs))}</td>"
            f"<td>{esc(plan.status.get(s.id, 'pending'))}</td>"
            f"<td>{esc(', '.join(plan.roles.get(s.id, [])))}</td></tr>"
            for s in plan.current
        ]
        parts.append(
            table(
                ["id", "app", "description", "after", "inputs", "outputs", "status", "roles"],
                rows,
            )
        )
    if plan.replans:
        items = "".join(
            f"<li>after step {step}: {esc(event.failed)} failed ({esc(event.reason)}); "
            f"new subtasks {esc(', '.join(s.id for s in event.subtasks) or '–')}</li>"
            for step, event in plan.replans
        )
        parts.append(f"<h3>Re-plans</h3><ul class=replans>{items}</ul>")
        if plan.first:
            parts.append(
                "<details><summary>first plan</summary>"
                + plan_graph_svg(plan.first, {}, plan.roles)
                + "</details>"
            )
    before = [e for e in contents.events_by_step.get(0, []) if not isinstance(e.event, PlanEvent)]
    if before:
        parts.append("<h3>Before the first step</h3>" + "".join(event_text(e) for e in before))
    planning_calls = contents.calls_by_step.get(0, [])
    if planning_calls:
        parts.append("<h3>Planning calls</h3>" + calls_summary(run_id, 0, planning_calls))
    return "".join(parts)
