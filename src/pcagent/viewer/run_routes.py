"""The viewer's run pages: the list of runs, one run's timeline, and two runs side by side.

They render what the run store holds at the moment of the request; the live page asks for the
steps after the last one it shows (``/runs/RUN/steps?after=N``) and appends them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from pcagent.runtime.record.models import RunRecord
from pcagent.viewer.access import FormGuard
from pcagent.viewer.app_state import RUNS_LISTED, ViewerState, html_page
from pcagent.viewer.compare_pages import ComparedRun, compare_runs_page
from pcagent.viewer.layout import error_page, url_part
from pcagent.viewer.run_pages import STATUSES, RunContents, matches, run_page, runs_page
from pcagent.viewer.step_sections import step_html
from pcagent.viewer.window_crop import window_region


def add_run_routes(app: FastAPI, state: ViewerState, forms: FormGuard) -> None:
    """Register ``/``, ``/runs/RUN``, ``/runs/RUN/steps`` and ``/compare`` on ``app``."""

    @app.get("/", response_class=HTMLResponse)
    def list_runs(status: str = "", q: str = "") -> Response:
        wanted = status if status in STATUSES else ""
        runs = [r for r in state.store.list_runs(RUNS_LISTED) if matches(r, wanted, q.strip())]
        store_path = str(state.sources.runs_dir)
        return html_page(runs_page(runs, status=wanted, query=q, store_path=store_path))

    @app.get("/runs/{run_id}", response_class=HTMLResponse)
    def show_run(run_id: str, request: Request) -> Response:
        run = state.find_run(run_id)
        if run.run_id != run_id:
            return RedirectResponse(f"/runs/{url_part(run.run_id)}", status_code=307)
        contents = _contents_of(state, run)
        tokens = forms.form_token(request)
        return html_page(run_page(contents, _render_steps(state, run, contents, 0, tokens), tokens))

    @app.get("/runs/{run_id}/steps", response_class=HTMLResponse)
    def steps_after(run_id: str, request: Request, after: int = 0) -> Response:
        """The steps after ``after``, as sections of the timeline (the live page appends them)."""
        run = state.exact_run(run_id)
        sections = _render_steps(
            state, run, _contents_of(state, run), after, forms.form_token(request)
        )
        return html_page("".join(sections))

    @app.get("/compare", response_class=HTMLResponse)
    def compare_runs(
        left: str = "", right: str = "", run: Annotated[list[str] | None, Query()] = None
    ) -> Response:
        """Two runs step by step: ``left`` and ``right``, or two ``run`` values (from the run
        list's check boxes; the older run goes left)."""
        if not (left and right):
            picked = [r for r in run or [] if r]
            if len(picked) != 2:
                return html_page(
                    error_page(
                        "Pick two runs",
                        f"Comparing needs two runs; {len(picked)} were ticked. Tick two runs "
                        "in the list, or open /compare?left=RUN&right=RUN.",
                    ),
                    400,
                )
            first, second = (state.find_run(r) for r in picked)
            older, newer = sorted((first, second), key=lambda r: (r.created_at, r.run_id))
            return RedirectResponse(
                f"/compare?left={url_part(older.run_id)}&right={url_part(newer.run_id)}",
                status_code=303,
            )
        return html_page(compare_runs_page(_compared(state, left), _compared(state, right)))


def _render_steps(
    state: ViewerState,
    run: RunRecord,
    contents: RunContents,
    after: int = 0,
    token_for_forms: str = "",
) -> list[str]:
    """The timeline's sections of the steps after ``after``, each with its screen's size and
    the application's region for the thumbnails."""
    sections = []
    for step in contents.steps:
        if step.step <= after:
            continue
        screenshot = state.store.screenshot_path(run.run_id, step.step)
        som = state.store.set_of_mark_path(run.run_id, step.step)
        screen_size = state.images.size(screenshot)
        sections.append(
            step_html(
                run.run_id,
                step,
                calls=contents.calls_by_step.get(step.step, []),
                events=contents.events_by_step.get(step.step, []),
                screen_size=screen_size,
                has_som=som.is_file(),
                form_token=token_for_forms,
                region=window_region(step.listing, step.action, screen_size)
                if screen_size
                else None,
            )
        )
    return sections


def _contents_of(state: ViewerState, run: RunRecord) -> RunContents:
    return RunContents.of(
        run,
        state.store.steps(run.run_id),
        state.store.calls(run.run_id),
        state.store.events(run.run_id),
    )


def _compared(state: ViewerState, run_id: str) -> ComparedRun:
    run = state.find_run(run_id)
    steps = state.store.steps(run.run_id)
    sizes = {
        step.step: state.images.size(state.store.screenshot_path(run.run_id, step.step))
        for step in steps
    }
    return ComparedRun(run, steps, sizes)
