"""The forms that start a rewind or a replay, and the page of the jobs they started."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pcagent.viewer.jobs import Job, shown_command
from pcagent.viewer.layout import esc, page, run_link, table, url_part, when

#: The name of the hidden field that carries the form token in every state-changing form.
FORM_TOKEN_FIELD = "form_token"


def _token_field(form_token: str) -> str:
    return f'<input type="hidden" name="{FORM_TOKEN_FIELD}" value="{esc(form_token)}">'


def rewind_form(run_id: str, step: int, form_token: str) -> str:
    """ "Rewind to here": a new run from the state after ``step``, with optional guidance."""
    return (
        f'<form class="rewind-form" method="post" action="/runs/{url_part(run_id)}/rewind">'
        f'{_token_field(form_token)}<input type="hidden" name="step" value="{step}">'
        '<input type="text" name="guidance" maxlength="2000" size="40" '
        'placeholder="guidance for the agents (optional)">'
        f'<button type="submit">rewind to here</button></form>'
    )


def replay_form(run_id: str, form_token: str) -> str:
    """ "Replay": re-execute the run's recorded actions in a fresh sandbox, without a model."""
    return (
        f'<form class="replay-form" method="post" action="/runs/{url_part(run_id)}/replay">'
        f'{_token_field(form_token)}<button type="submit">replay</button> '
        "<span class=muted>re-executes the recorded actions in a fresh sandbox</span></form>"
    )


def jobs_page(jobs: Sequence[Job], new_runs: Mapping[str, str], message: str = "") -> str:
    """The jobs started from this viewer, newest first: the command, its process, whether it
    still runs or how it ended, the run a rewind made (``new_runs``: job id to run id) and the
    end of its log."""
    rows = []
    for job in jobs:
        code = job.exit_code
        if code is None:
            status = '<span class="status-running">running</span>'
        else:
            status = f'<span class="{"pass" if code == 0 else "fail"}">exit status {code}</span>'
        made = new_runs.get(job.job_id)
        made_html = run_link(made) if made else "–"
        rows.append(
            f'<tr class="job" data-job="{esc(job.job_id)}" data-exit="{"" if code is None else code}">'
            f"<td>{esc(job.job_id)}</td>"
            f"<td>{run_link(job.run_id)}</td>"
            f"<td><code>{esc(shown_command(job.argv))}</code></td><td>{job.process.pid}</td>"
            f"<td>{when(job.started_at)}</td><td>{status}</td><td>{made_html}</td>"
            f"<td><pre class=log-tail>{esc(job.log_tail())}</pre>"
            f"<span class=muted>{esc(str(job.log_path))}</span></td></tr>"
        )
    notice = f"<p class=notice>{esc(message)}</p>" if message else ""
    listing = (
        table(
            ["job", "run", "command", "pid", "started (UTC)", "status", "new run", "log"],
            rows,
            css="jobs",
        )
        if rows
        else "<p>No jobs started yet: a run page has “replay”, and each step “rewind to here”.</p>"
    )
    return page("Jobs", f"<h1>Jobs</h1>{notice}{listing}")
