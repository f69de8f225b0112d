"""The top of a run page: the outcome as checked, what the models cost (calls, tokens, time) per
role, and the filmstrip of step pictures that the keyboard moves through.

The outcome is the one the run checked and recorded (the ``finish`` event: finished, unverified,
failed, stopped), not a guess from the last step; a run without one shows its status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pcagent.models.usage import Usage
from pcagent.runtime.record.events import FinishEvent
from pcagent.runtime.record.models import ModelCallRecord, RunRecord, StepRecord
from pcagent.viewer.layout import duration, esc, table, url_part

#: Width of a filmstrip picture in pixels (one of :data:`~pcagent.viewer.images.THUMBNAIL_WIDTHS`).
FILM_WIDTH = 160


def checked_outcome(run: RunRecord, finish: FinishEvent | None) -> tuple[str, str] | None:
    """The outcome the run checked and its summary (from the record's ``outcome`` where it
    keeps one, else its ``finish`` event); None when it recorded none (still running, or ended
    by an error before finishing)."""
    recorded = getattr(run, "outcome", None)
    if isinstance(recorded, str) and recorded:
        return recorded, run.summary
    if finish is not None and finish.outcome:
        return finish.outcome, finish.summary or run.summary
    return None


def models_by_role(run: RunRecord) -> dict[str, str]:
    """The model name of each role (agent) as the run recorded it: the record's ``models``
    (each role's profile and model) where it keeps them, else a ``models`` mapping of its
    settings; empty when the record names none per role."""
    for source in (getattr(run, "models", None), run.settings.get("models")):
        if isinstance(source, Mapping) and source:
            named = {str(role): _model_name(value) for role, value in source.items() if value}
            return {role: name for role, name in named.items() if name}
    return {}


def _model_name(value: Any) -> str:
    """A role's model as text: ``model (profile)``, ``model``, or the name as recorded."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        model, profile = value.get("model"), value.get("profile")
    else:
        model, profile = getattr(value, "model", None), getattr(value, "profile", None)
    if not model:
        return ""
    return f"{model} ({profile})" if profile else str(model)


@dataclass
class RoleCost:
    """What one role's model calls of a run came to: their ``usage`` (calls, tokens, and the
    seconds spent waiting in ``latency_s``), how many failed and how many re-asks they took."""

    role: str
    usage: Usage = field(default_factory=Usage)
    failed: int = 0
    reasked: int = 0


def role_costs(calls: Iterable[ModelCallRecord]) -> list[RoleCost]:
    """The calls added up per role, in the order the roles first called."""
    costs: dict[str, RoleCost] = {}
    for call in calls:
        cost = costs.setdefault(call.agent, RoleCost(call.agent))
        cost.usage += Usage(
            prompt_tokens=call.prompt_tokens,
            completion_tokens=call.completion_tokens,
            calls=1,
            latency_s=call.latency_s,
        )
        cost.failed += 0 if call.ok else 1
        cost.reasked += max(0, len(call.attempts) - 1)
    return list(costs.values())


def outcome_html(run: RunRecord, finish: FinishEvent | None) -> str:
    checked = checked_outcome(run, finish)
    outcome, summary = checked or (run.status, run.summary)
    note = "" if checked else ' <span class="muted">(no outcome checked yet: the status)</span>'
    # A run ended by an error records it with its outcome (records of older versions do not).
    error = getattr(finish, "error", "") if finish is not None else ""
    return (
        f'<p id="outcome"><b>checked outcome</b> <span class="outcome outcome-{esc(outcome)}">'
        f"{esc(outcome)}</span>{note}"
        + (f" · {esc(summary)}" if summary else "")
        + (f' <span class="fail run-error">{esc(error)}</span>' if error else "")
        + "</p>"
    )


def cost_html(
    run: RunRecord,
    calls: Sequence[ModelCallRecord],
    steps: Sequence[StepRecord],
    run_seconds: float,
    fallback_model: str,
) -> str:
    """The models used, per role: model name ("-" when the record names none), calls, tokens
    in and out, time spent waiting for the model; a total row; the run's time beside it."""
    models = models_by_role(run)
    # A record that names models per role names them all; one name for the run is every role's.
    fallback = "-" if models else (fallback_model or "-")
    costs = role_costs(calls)
    rows = [
        f'<tr class="role-cost" data-role="{esc(cost.role)}"><td>{esc(cost.role)}</td>'
        f"<td>{esc(models.get(cost.role) or fallback)}</td><td>{cost.usage.calls}</td>"
        f"<td>{cost.reasked}</td><td>{cost.failed}</td><td>{cost.usage.prompt_tokens}</td>"
        f"<td>{cost.usage.completion_tokens}</td><td>{duration(cost.usage.latency_s)}</td></tr>"
        for cost in costs
    ]
    total = sum((cost.usage for cost in costs), Usage())
    if costs:
        rows.append(
            '<tr class="role-cost-total"><th>all</th><th></th>'
            f"<th>{total.calls}</th><th>{sum(c.reasked for c in costs)}</th>"
            f"<th>{sum(c.failed for c in costs)}</th><th>{total.prompt_tokens}</th>"
            f"<th>{total.completion_tokens}</th><th>{duration(total.latency_s)}</th></tr>"
        )
    acting = sum(step.duration_ms for step in steps) / 1000
    totals = (
        f'<p class="muted" id="run-time">{len(steps)} steps · {run.tokens} tokens · run time '
        f"{duration(run_seconds)} · steps {duration(acting)}"
        + (f" · waiting for models {duration(total.latency_s)}" if costs else "")
        + "</p>"
    )
    if not costs:
        return '<h2>Models</h2><p class="muted">No model calls recorded.</p>' + totals
    return (
        "<h2>Models</h2>"
        + table(
            ["role", "model", "calls", "re-asked", "failed", "tokens in", "tokens out", "time"],
            rows,
            css="model-costs",
        )
        + totals
    )


def film_item(run_id: str, step: int, verdict: str) -> str:
    """One picture of the filmstrip, linking to its step."""
    thumb = f"/runs/{url_part(run_id)}/steps/{step}/thumb/screenshot.png?w={FILM_WIDTH}&view=window"
    return (
        f'<a class="film verdict-{esc(verdict)}" href="#step-{step}" data-step="{step}" '
        f'title="step {step}"><img loading="lazy" decoding="async" src="{thumb}" '
        f'alt="step {step}"><span>{step}</span></a>'
    )


def filmstrip_html(run_id: str, steps: Sequence[StepRecord]) -> str:
    """The strip of step pictures over the timeline; empty for a run without steps."""
    items = "".join(
        film_item(run_id, step.step, step.reflection.verdict if step.reflection else "")
        for step in steps
    )
    return (
        '<nav id="filmstrip" aria-label="steps"><span class="muted keys">'
        "← → or j k: previous / next step</span>"
        f'<div class="films">{items}</div></nav>'
    )


#: Moves between steps with the keyboard (right or j: next, left or k: previous), marks the
#: step shown in the filmstrip, and adds live steps to the filmstrip.
STEP_KEYS_SCRIPT = """
(function () {
  function steps() {
    return Array.prototype.slice.call(document.querySelectorAll('#timeline section.step'));
  }
  function mark(n) {
    document.querySelectorAll('#filmstrip a.current, section.step.current').forEach(
      function (e) { e.classList.remove('current'); });
    var film = document.querySelector('#filmstrip a[data-step="' + n + '"]');
    if (film) {
      film.classList.add('current');
      film.scrollIntoView({block: 'nearest', inline: 'nearest'});
    }
    var section = document.getElementById('step-' + n);
    if (section) section.classList.add('current');
  }
  function go(index) {
    var all = steps();
    if (!all.length) return;
    var section = all[Math.max(0, Math.min(all.length - 1, index))];
    section.scrollIntoView({block: 'start'});
    mark(section.dataset.step);
    history.replaceState(null, '', '#step-' + section.dataset.step);
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var target = e.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var move = {ArrowRight: 1, j: 1, ArrowLeft: -1, k: -1}[e.key];
    if (!move) return;
    e.preventDefault();
    var all = steps();
    var at = all.findIndex(function (s) { return s.classList.contains('current'); });
    go(at < 0 ? (move > 0 ? 0 : all.length - 1) : at + move);
  });
  document.addEventListener('click', function (e) {
    var film = e.target.closest && e.target.closest('#filmstrip a.film');
    if (film) mark(film.dataset.step);
  });
  window.addFilm = function (section) {
    var strip = document.querySelector('#filmstrip .films');
    if (!strip) return;
    var n = section.dataset.step;
    var run = encodeURIComponent(document.getElementById('timeline').dataset.run);
    var film = document.createElement('a');
    film.className = 'film verdict-' + section.dataset.verdict;
    film.href = '#step-' + n;
    film.dataset.step = n;
    film.title = 'step ' + n;
    var img = document.createElement('img');
    img.loading = 'lazy';
    img.alt = 'step ' + n;
    img.src = '/runs/' + run + '/steps/' + n + '/thumb/screenshot.png?w=FILM_WIDTH&view=window';
    var label = document.createElement('span');
    label.textContent = n;
    film.appendChild(img);
    film.appendChild(label);
    strip.appendChild(film);
  };
  if (location.hash.indexOf('#step-') === 0) mark(location.hash.slice(6));
})();
""".replace("FILM_WIDTH", str(FILM_WIDTH))
