"""The viewer's rewinds and replays: the forms that start them and the page that lists them.

A rewind or replay runs as a ``pcagent runs ...`` process beside the viewer (:mod:`.jobs`);
these routes check the form (its origin and form token) and the run before one starts.
"""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from pcagent.runtime.record.models import RunRecord
from pcagent.viewer.access import FormGuard
from pcagent.viewer.app_state import RUNS_LISTED, Conflict, ViewerState, html_page
from pcagent.viewer.job_pages import jobs_page
from pcagent.viewer.jobs import Job, JobBoard, JobRefused, replay_command, rewind_command
from pcagent.viewer.layout import error_page, url_part

#: The longest guidance a rewind may carry.
MAX_GUIDANCE_CHARS = 2000


def add_job_routes(app: FastAPI, state: ViewerState, forms: FormGuard, board: JobBoard) -> None:
    """Register ``POST /runs/RUN/rewind``, ``POST /runs/RUN/replay`` and ``/jobs`` on ``app``."""

    def start_job(run_id: str, kind: str, argv: list[str]) -> Response:
        try:
            job = board.start(run_id, kind, argv)
        except JobRefused as error:
            raise Conflict(str(error)) from None
        except OSError as error:
            raise Conflict(f"The {kind} could not be started: {error}") from None
        return RedirectResponse(f"/jobs?started={url_part(job.job_id)}", status_code=303)

    @app.post("/runs/{run_id}/rewind")
    async def rewind(run_id: str, request: Request) -> Response:
        """Start ``pcagent runs rewind RUN --to STEP [--guidance TEXT]`` in the background."""
        fields = await forms.checked_form(request)
        run = await asyncio.to_thread(state.exact_run, run_id)
        try:
            step = int(fields.get("step", ""))
        except ValueError:
            return html_page(error_page("Not started", "The form gives no step number."), 400)
        if step > 0:
            await asyncio.to_thread(state.recorded_step, run.run_id, step)
        elif step < 0:
            return html_page(error_page("Not started", f"There is no step {step}."), 400)
        guidance = fields.get("guidance", "").strip()
        if len(guidance) > MAX_GUIDANCE_CHARS:
            return html_page(
                error_page(
                    "Not started", f"Guidance is limited to {MAX_GUIDANCE_CHARS} characters."
                ),
                400,
            )
        return start_job(run.run_id, "rewind", rewind_command(run.run_id, step, guidance))

    @app.post("/runs/{run_id}/replay")
    async def replay(run_id: str, request: Request) -> Response:
        """Start ``pcagent runs replay RUN`` in the background."""
        await forms.checked_form(request)
        run = await asyncio.to_thread(state.exact_run, run_id)
        return start_job(run.run_id, "replay", replay_command(run.run_id))

    @app.get("/jobs", response_class=HTMLResponse)
    def list_jobs(started: str = "") -> Response:
        jobs = board.jobs()
        recent = state.store.list_runs(RUNS_LISTED) if jobs else []
        made = {job.job_id: run for job in jobs if (run := _run_made_by(job, recent)) is not None}
        message = f"Started job {started}." if started else ""
        return html_page(jobs_page(jobs, made, message))


def _run_made_by(job: Job, recent: list[RunRecord]) -> str | None:
    """The run a rewind made: the newest run rewound from the job's run since it started."""
    if job.kind != "rewind":
        return None
    for candidate in recent:  # newest first
        if candidate.parent_run == job.run_id and candidate.created_at >= job.started_at:
            return candidate.run_id
    return None
