"""A run's step timeline as HTML: each step's section (its screen, action and result), the
events between steps, and the model calls a step's details load when opened.

The run page (:mod:`.run_pages`), the live page's appended steps and the step fragments all
render a step here, so a step reads the same wherever it appears.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pcagent.actions import Action
from pcagent.env.observation import Box
from pcagent.runtime.record.events import (
    AskedHumanEvent,
    AssignEvent,
    FinishEvent,
    PlanEvent,
    RefusedEvent,
    ReplanEvent,
    SensitiveEvent,
)
from pcagent.runtime.record.models import ModelCallRecord, RunEvent, StepRecord
from pcagent.viewer.drawing import action_overlay_svg, action_text
from pcagent.viewer.job_pages import rewind_form
from pcagent.viewer.layout import duration, esc, lazy_details, table, url_part, when


def event_text(record: RunEvent) -> str:
    """One event in words (HTML), the kind first."""
    event = record.event
    match event:
        case PlanEvent():
            ids = ", ".join(s.id for s in event.subtasks)
            detail = f"{len(event.subtasks)} subtasks ({ids})" + (
                f", fallback plan: {event.problem or 'the programs were unusable'}"
                if event.fallback
                else ""
            )
            detail += "".join(
                f"; {s.id} kept with a doubt: {s.doubt}" for s in event.subtasks if s.doubt
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


def calls_summary(run_id: str, step: int, calls: Sequence[ModelCallRecord]) -> str:
    """A table of a step's model calls, with their prompts and replies behind a section that
    loads them when opened; "" for none."""
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
    details.append(calls_summary(run_id, n, calls))
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


def _desktop(environment: str) -> str:
    """The desktop a step acted on, in a run across several (nothing for a run on one)."""
    return f"desktop <b>{esc(environment)}</b> · " if environment else ""
