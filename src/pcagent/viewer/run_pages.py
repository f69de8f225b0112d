"""The runs list and a run's page (its head, plan and step timeline).

The plan section is drawn by :mod:`.plan_section` and each step by :mod:`.step_sections`.

A run page holds no image data and no prompt text: images are ``<img loading=lazy>`` thumbnails
and each step's listing and model-call details are fetched when their ``<details>`` is opened,
so a run of hundreds of steps opens quickly and loads only the images scrolled to.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from pcagent.runtime.record.events import FinishEvent
from pcagent.runtime.record.models import (
    RunRecord,
    role_models,
)
from pcagent.viewer.job_pages import replay_form
from pcagent.viewer.layout import duration, esc, page, run_link, table, url_part, when
from pcagent.viewer.plan_section import PlanView, plan_html
from pcagent.viewer.run_contents import RunContents
from pcagent.viewer.run_summary import STEP_KEYS_SCRIPT, cost_html, filmstrip_html, outcome_html

#: Run statuses offered by the list's filter.
STATUSES = ("running", "finished", "unverified", "failed", "stopped", "interrupted")


def model_of(settings: Mapping[str, Any]) -> str:
    """The model(s) a run's settings name: each role's model as the run recorded it
    (:func:`~pcagent.runtime.record.models.role_models`), else ``model``, or ``models`` as a name
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
        f"<td>{run_link(run.run_id)}</td>"
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
