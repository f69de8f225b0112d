"""The runs list, a run's page (plan and step timeline) and the fragments the run page loads.

A run page holds no image data and no prompt text: images are ``<img loading=lazy>`` thumbnails
and each step's listing and model-call details are fetched when their ``<details>`` is opened,
so a run of hundreds of steps opens quickly and loads only the images scrolled to.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pcagent.actions import Action
from pcagent.agents.plan import SubtaskSpec
from pcagent.env.observation import Box
from pcagent.runtime.events import (
    AskedHumanEvent,
    AssignEvent,
    FinishEvent,
    PlanEvent,
    RefusedEvent,
    ReplanEvent,
    SensitiveEvent,
)
from pcagent.runtime.record_models import (
    ModelCallRecord,
    RunEvent,
    RunRecord,
    StepRecord,
    role_models,
)
from pcagent.viewer.drawing import action_overlay_svg, action_text, plan_graph_svg
from pcagent.viewer.job_pages import replay_form, rewind_form
from pcagent.viewer.layout import duration, esc, lazy_details, page, table, url_part, when
from pcagent.viewer.run_summary import (
    STEP_KEYS_SCRIPT,
    cost_html,
    filmstrip_html,
    outcome_html,
)

#: Run statuses offered by the list's filter.
STATUSES = ("running", "finished", "unverified", "failed", "stopped", "interrupted")


def model_of(settings: Mapping[str, Any]) -> str:
    """The model(s) a run's settings name: each role's model as the run recorded it
    (:func:`~pcagent.runtime.record_models.role_models`), else ``model``, or ``models`` as a name
    or a mapping of agent to name (older records); "" when they name none."""
    recorded = role_models(settings)
    if recorded:
        return ", ".join(dict.fromkeys(model.model for model in recorded.values()))
    for key in ("model", "models"):
        value = settings.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, Mapping) and value:
            names = dict.fromkeys(str(v) for v in value.values() if v)
            return ", ".join(names)
        if isinstance(value, list | tuple) and value:
            return ", ".join(str(v) for v in value)
    return ""


def run_duration(run: RunRecord) -> float:
    """Seconds from the run's creation to its last change (to now while it is running)."""
    end = time.time() if run.status == "running" else run.updated_at
    return max(0.0, end - run.created_at)


def matches(run: RunRecord, status: str, query: str) -> bool:
    """Whether a run passes the list's filters (``query``: in the instruction, the id, the
    summary or the model, ignoring case)."""
    if status and run.status != status:
        return False
    if not query:
        return True
    wanted = query.casefold()
    haystack = " ".join((run.instruction, run.run_id, run.summary, model_of(run.settings)))
    return wanted in haystack.casefold()


def runs_page(runs: Sequence[RunRecord], *, status: str, query: str, store_path: str) -> str:
    """The list of runs (already filtered), newest first, with the filter form."""
    options = "".join(
        f'<option value="{s}"{" selected" if s == status else ""}>{s}</option>' for s in STATUSES
    )
    form = (
        '<form class="filters" method="get" action="/">'
        f'<select name="status"><option value="">any status</option>{options}</select>'
        f'<input type="search" name="q" value="{esc(query)}" placeholder="search instructions">'
        '<button type="submit">filter</button></form>'
    )
    rows = [
        f'<tr class="run-row" data-run="{esc(run.run_id)}">'
        f'<td><input type="checkbox" name="run" value="{esc(run.run_id)}" form="compare-form" '
        f'aria-label="compare {esc(run.run_id)}"></td>'
        f'<td><a href="/runs/{url_part(run.run_id)}">{esc(run.run_id)}</a></td>'
        f'<td class="status-{esc(run.status)}">{esc(run.status)}</td>'
        f"<td>{esc(run.instruction[:160])}</td><td>{esc(model_of(run.settings) or '–')}</td>"
        f"<td>{run.steps}</td><td>{run.tokens}</td><td>{duration(run_duration(run))}</td>"
        f"<td>{when(run.created_at)}</td></tr>"
        for run in runs
    ]
    listing = (
        table(
            [
                "compare",
                "run",
                "status",
                "instruction",
                "model",
                "steps",
                "tokens",
                "duration",
                "started (UTC)",
            ],
            rows,
            css="runs",
        )
        if rows
        else "<p>No runs match.</p>"
    )
    compare = (
        '<form id="compare-form" class="filters" method="get" action="/compare">'
        '<button type="submit">compare the two ticked runs</button></form>'
        if rows
        else ""
    )
    body = f"<h1>Runs</h1><p class=muted>{esc(store_path)}</p>{form}{compare}{listing}"
    return page("Runs", body)


# --- the run page ---------------------------------------------------------------------------------


@dataclass
class RunContents:
    """A run with what its page shows, grouped by step."""

    run: RunRecord
    steps: list[StepRecord]
    calls_by_step: dict[int, list[ModelCallRecord]] = field(default_factory=dict)
    events_by_step: dict[int, list[RunEvent]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        run: RunRecord,
        steps: list[StepRecord],
        calls: Iterable[ModelCallRecord],
        events: Iterable[RunEvent],
    ) -> RunContents:
        calls_by_step: dict[int, list[ModelCallRecord]] = defaultdict(list)
        for call in calls:
            calls_by_step[call.step].append(call)
        events_by_step: dict[int, list[RunEvent]] = defaultdict(list)
        for event in events:
            events_by_step[event.step].append(event)
        return cls(run, steps, dict(calls_by_step), dict(events_by_step))

    def all_events(self) -> list[RunEvent]:
        return [e for step in sorted(self.events_by_step) for e in self.events_by_step[step]]


def event_text(record: RunEvent) -> str:
    """One event in words (HTML), the kind first."""
    event = record.event
    match event:
        case PlanEvent():
            ids = ", ".join(s.id for s in event.subtasks)
            detail = f"{len(event.subtasks)} subtasks ({ids})" + (
                ", fallback plan" if event.fallback else ""
            )
        case AssignEvent():
            detail = f"{event.subtask} → {event.role}" + (
                f": {event.reason}" if event.reason else ""
            )
        case RefusedEvent():
            detail = f"{action_text(event.action)}: {event.reason}"
        case SensitiveEvent():
            verdict = event.verdict
            detail = (
                f"{'allowed' if verdict.allowed else 'refused'}"
                f"{' after asking' if verdict.asked_human else ''}: {verdict.reason}"
            )
        case AskedHumanEvent():
            detail = f"{event.question} → {event.reply or '(no reply)'}"
        case ReplanEvent():
            detail = f"{event.failed} failed: {event.reason}; new plan " + ", ".join(
                s.id for s in event.subtasks
            )
        case FinishEvent():
            detail = f"{event.outcome}: {event.summary}"
        case _:
            values = event.model_dump(mode="json", exclude={"kind", "state"})
            detail = ", ".join(
                f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in values.items()
            )
    return (
        f'<div class="event event-{esc(event.kind)}"><b>{esc(event.kind)}</b> '
        f"{esc(detail[:600])}</div>"
    )


def _calls_summary(run_id: str, step: int, calls: Sequence[ModelCallRecord]) -> str:
    if not calls:
        return ""
    rows = []
    for call in calls:
        failures = [a.failure for a in call.attempts if a.failure]
        rows.append(
            f'<tr class="call"><td>{esc(call.agent)}</td>'
            f"<td class={'pass' if call.ok else 'fail'}>{'ok' if call.ok else 'failed'}</td>"
            f"<td>{call.prompt_tokens} + {call.completion_tokens}</td>"
            f"<td>{call.latency_s:.2f} s</td><td>{len(call.attempts)}</td>"
            f"<td>{esc('; '.join(f[:200] for f in failures))}</td></tr>"
        )
    calls_table = table(
        ["agent", "", "tokens in + out", "latency", "tries", "re-asked because"], rows
    )
    base = f"/runs/{url_part(run_id)}/steps/{step}"
    return calls_table + lazy_details(
        "prompts and replies", f"{base}/calls", fallback_link=f"{base}/calls"
    )


def calls_fragment(calls: Sequence[ModelCallRecord]) -> str:
    """Every attempt of every call: the prompt messages (images by their hash), the reply, and
    why a reply was re-asked."""
    if not calls:
        return "<p>No model calls at this step.</p>"
    parts = []
    for number, call in enumerate(calls, 1):
        parts.append(
            f'<div class="call-detail"><h4>{number}. {esc(call.agent)} '
            f"<span class=muted>{call.prompt_tokens} + {call.completion_tokens} tokens, "
            f"{call.latency_s:.2f} s</span></h4>"
        )
        for index, attempt in enumerate(call.attempts, 1):
            parts.append(f"<p><b>attempt {index}</b></p>")
            for message in attempt.request.get("messages", []):
                texts = []
                for part in message.get("parts", []):
                    if "text" in part:
                        texts.append(str(part["text"]))
                    elif "image_sha256" in part:
                        texts.append(f"[image {str(part['image_sha256'])[:12]}]")
                role = str(message.get("role", ""))
                parts.append(
                    f"<div class=message><b>{esc(role)}</b><pre>{esc(chr(10).join(texts))}</pre></div>"
                )
            reply = attempt.completion.get("text", "")
            parts.append(f"<div class=reply><b>reply</b><pre>{esc(reply)}</pre></div>")
            if attempt.failure:
                parts.append(f'<p class="fail">rejected: {esc(attempt.failure)}</p>')
        parts.append("</div>")
    return "".join(parts)


def _result_html(step: StepRecord) -> str:
    result = step.result
    if result is None:
        return ""
    if result.refused:
        state = '<span class="fail">refused</span>'
    elif result.ok:
        state = '<span class="pass">ok</span>'
    else:
        state = f'<span class="fail">failed{" (" + esc(result.error) + ")" if result.error else ""}</span>'
    extras = [
        f"<div>{label}: <q>{esc(value)}</q></div>"
        for label, value in (
            ("message", result.message),
            ("answer", result.answer),
            ("reply", result.reply),
        )
        if value
    ]
    if result.output:
        extras.append(
            f"<details><summary>output</summary><pre>{esc(result.output)}</pre></details>"
        )
    flags = [
        word
        for word, on in (
            ("verified", result.verified),
            ("finished", result.finished),
            ("not settled", not result.settled),
        )
        if on
    ]
    flag_text = f" <span class=muted>{esc(', '.join(flags))}</span>" if flags else ""
    return (
        f"<div><b>result</b> {state}{flag_text} "
        f"<span class=muted>{result.duration_ms:.0f} ms</span>{''.join(extras)}</div>"
    )


def _reflection_html(step: StepRecord) -> str:
    reflection = step.reflection
    if reflection is None:
        return ""
    text = (
        f'<div><b>reflection</b> <span class="verdict verdict-{esc(reflection.verdict)}">'
        f"{esc(reflection.verdict)}</span>"
        f"{' (model asked)' if reflection.asked_model else ''} {esc(reflection.reason)}"
    )
    if reflection.model_verdict is not None:
        text += (
            f"<div class=muted>model's verdict: <span class=\"verdict-"
            f'{esc(reflection.model_verdict)}">{esc(reflection.model_verdict)}</span> '
            f"{esc(reflection.model_reason)}</div>"
        )
    return text + "</div>"


def _step_visual(
    base: str, n: int, action: Action | None, screen_size: tuple[int, int], has_som: bool,
    region: Box | None,
) -> str:  # fmt: skip
    """A step's picture: the application's region of the screenshot when one is known (a click
    on it, or its button, shows the whole screen), the action drawn over it, the Set-of-Mark
    toggle and a link to the full-size image."""
    width, height = screen_size
    image_id = f"img-{n}"
    screen_box = (0, 0, width, height)
    box = (region.x, region.y, region.width, region.height) if region else screen_box
    view_attributes = (
        f' class="croppable" data-view="window" data-window-box="{" ".join(map(str, box))}" '
        f'onclick="toggleWindow(this)" title="click: the whole screen / the application"'
        if region
        else ' data-view="screen"'
    )
    toggle = (
        f'<button type="button" class="som-toggle" data-img="{image_id}" '
        'onclick="toggleImage(this)">show Set-of-Mark</button> '
        if has_som
        else ""
    )
    whole = (
        f'<button type="button" class="view-toggle" id="{image_id}-view" '
        f"onclick=\"toggleWindow(document.getElementById('{image_id}'))\">"
        "show the whole screen</button> "
        if region
        else ""
    )
    query = "?view=window" if region else ""
    return (
        f'<div class="shot"><img id="{image_id}" loading="lazy" decoding="async" '
        f'src="{base}/thumb/screenshot.png{query}" width="{box[2]}" height="{box[3]}" '
        f'alt="screenshot of step {n}" data-base="{base}" data-kind="screenshot" '
        f'data-screen-box="0 0 {width} {height}"{view_attributes}>'
        f"{action_overlay_svg(action, width, height, view=box, svg_id=image_id + '-overlay')}"
        f'</div><div>{toggle}{whole}<a id="{image_id}-full" href="{base}/screenshot.png">'
        "full size</a></div>"
    )


def step_html(
    run_id: str,
    step: StepRecord,
    *,
    calls: Sequence[ModelCallRecord],
    events: Sequence[RunEvent],
    screen_size: tuple[int, int] | None,
    has_som: bool,
    form_token: str = "",
    region: Box | None = None,
) -> str:
    """One step of the timeline. ``screen_size`` is the screenshot's size (None: no
    screenshot); ``has_som`` says whether a Set-of-Mark image was recorded; ``region`` is the
    part of the screen the application shows (see :mod:`.window_crop`), shown first; with a
    ``form_token`` the step has a "rewind to here" form."""
    n = step.step
    base = f"/runs/{url_part(run_id)}/steps/{n}"
    if screen_size is not None:
        visual = _step_visual(base, n, step.action, screen_size, has_som, region)
    elif has_som:
        visual = (
            f'<div class="shot"><img id="img-{n}" loading="lazy" src="{base}/thumb/som.png" '
            f'alt="Set-of-Mark of step {n}"></div>'
        )
    else:
        visual = "<p class=muted>no screenshot recorded</p>"

    verdict = step.reflection.verdict if step.reflection else ""
    heading = (
        f"<h3>Step {n} <span class=muted>subtask {esc(step.subtask_id or '–')} · role "
        f"{esc(step.role or '–')}</span> "
        f'<span class="verdict-{esc(verdict)}">{esc(verdict)}</span></h3>'
    )
    details = [
        f"<div><b>action</b> <code class=action>{esc(action_text(step.action))}</code></div>"
    ]
    typed = getattr(step.action, "text", None)
    if step.action is not None and step.action.kind == "type" and typed:
        details.append(f"<div><b>typed</b> <q class=typed>{esc(typed)}</q></div>")
    if step.thought:
        details.append(f"<div><b>thought</b> {esc(step.thought)}</div>")
    details.append(_result_html(step))
    details.append(_reflection_html(step))
    if step.error:
        details.append(f'<div class="fail"><b>error</b> {esc(step.error)}</div>')
    if step.progress:
        details.append(f"<div><b>progress</b> {esc(step.progress)}</div>")
    if step.hub:
        hub_rows = [f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in step.hub.items()]
        details.append("<div><b>hub</b>" + table(["name", "value"], hub_rows) + "</div>")
    if events:
        details.append("<div><b>events</b>" + "".join(event_text(e) for e in events) + "</div>")
    details.append(_calls_summary(run_id, n, calls))
    if step.listing:
        details.append(
            lazy_details(
                f"listing <span class=muted>({step.listing.count(chr(10)) + 1} lines)</span>",
                f"{base}/listing",
                fallback_link=f"{base}/listing.txt",
            )
        )
    details.append(
        f"<div class=muted>{_desktop(step.environment)}"
        f"{esc(step.front_app or '–')} · {esc(step.window or '–')} · "
        f"{when(step.started_at)} · {duration(step.duration_ms / 1000)} · {step.tokens} tokens</div>"
    )
    if form_token:
        details.append(rewind_form(run_id, n, form_token))
    return (
        f'<section class="step" id="step-{n}" data-step="{n}" data-verdict="{esc(verdict)}">'
        f"{heading}"
        f'<div class="visual">{visual}</div><div class="details">{"".join(details)}</div></section>'
    )


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
            f"<td>{esc(s.description)}</td><td>{esc(', '.join(s.depends_on))}</td>"
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
        parts.append("<h3>Planning calls</h3>" + _calls_summary(run_id, 0, planning_calls))
    return "".join(parts)


LIVE_SCRIPT = """
(function () {
  var timeline = document.getElementById('timeline');
  var runId = timeline.dataset.run;
  var shown = parseInt(timeline.dataset.steps, 10);
  var source = new EventSource('/runs/' + encodeURIComponent(runId) + '/events?after=' + shown);
  var busy = false;
  function more() {
    if (busy) return;
    busy = true;
    fetch('/runs/' + encodeURIComponent(runId) + '/steps?after=' + shown,
          {credentials: 'same-origin'})
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var box = document.createElement('div');
        box.innerHTML = html;
        Array.prototype.forEach.call(box.querySelectorAll('section.step'), function (s) {
          var n = parseInt(s.dataset.step, 10);
          if (n > shown) {
            timeline.appendChild(s);
            shown = n;
            if (window.addFilm) window.addFilm(s);
          }
        });
        timeline.dataset.steps = shown;
      }).finally(function () { busy = false; });
  }
  source.addEventListener('steps', function (e) {
    var data = JSON.parse(e.data);
    if (data.steps > shown) more();
    var status = document.getElementById('run-status');
    status.textContent = data.status;
    status.className = 'status-' + data.status;
    if (data.status !== 'running') {
      source.close();
      document.getElementById('live').textContent = 'run ended: ' + data.status;
      more();
    }
  });
})();
"""


def run_page(
    contents: RunContents,
    step_sections: Sequence[str],
    form_token: str = "",
) -> str:
    """A run's whole page; ``step_sections`` are the rendered steps (see :func:`step_html`).
    With a ``form_token`` the page has a "replay" form."""
    run = contents.run
    plan = PlanView.of(contents)
    live = run.status == "running"
    parent = (
        f'<p>continued from <a href="/runs/{url_part(run.parent_run)}#step-{run.parent_step}">'
        f"{esc(run.parent_run)} step {run.parent_step}</a> · "
        f'<a class="compare-parent" href="/compare?left={url_part(run.parent_run)}&amp;right='
        f'{url_part(run.run_id)}">compare with its parent</a></p>'
        if run.parent_run
        else ""
    )
    settings = json.dumps(run.settings, indent=1, ensure_ascii=False)
    finishes = [e.event for e in contents.all_events() if isinstance(e.event, FinishEvent)]
    calls = [
        call for step in sorted(contents.calls_by_step) for call in contents.calls_by_step[step]
    ]
    head = (
        f"<h1>Run {esc(run.run_id)}</h1>"
        f'<p><b>status</b> <span id="run-status" class="status-{esc(run.status)}">'
        f"{esc(run.status)}</span>"
        + (' <span id="live" class="live">live: new steps appear here</span>' if live else "")
        + f"</p><p><b>instruction</b> {esc(run.instruction)}</p>"
        + outcome_html(run, finishes[-1] if finishes else None)
        + f"<p class=muted>model {esc(model_of(run.settings) or '–')} · "
        f"started {when(run.created_at)} UTC · "
        f'<a href="/runs/{url_part(run.run_id)}/export.zip">export (zip)</a></p>'
        + parent
        + (replay_form(run.run_id, form_token) if form_token else "")
        + f"<details><summary>settings</summary><pre>{esc(settings)}</pre></details>"
        + cost_html(run, calls, contents.steps, run_duration(run), model_of(run.settings))
    )
    timeline = (
        f"<h2>Steps</h2>{filmstrip_html(run.run_id, contents.steps)}"
        f'<div id="timeline" data-run="{esc(run.run_id)}" '
        f'data-steps="{max((s.step for s in contents.steps), default=0)}">'
        + "".join(step_sections)
        + "</div>"
    )
    if not contents.steps:
        timeline += "<p class=muted id=no-steps>No steps recorded yet.</p>"
    return page(
        f"Run {run.run_id}",
        head + plan_html(contents, plan) + timeline,
        extra_script=STEP_KEYS_SCRIPT + (LIVE_SCRIPT if live else ""),
    )


def _desktop(environment: str) -> str:
    """The desktop a step acted on, in a run across several (nothing for a run on one)."""
    return f"desktop <b>{esc(environment)}</b> · " if environment else ""
