"""The viewer's web application: one FastAPI application over a run store, with its token check.

:func:`create_app` builds it over one run store (``runs.sqlite`` and the step folders), the
benchmark results next to it and, optionally, a page graph file. Who may use it is decided in
:mod:`.access`; each family of pages registers its own routes (:mod:`.run_routes`,
:mod:`.job_routes`, :mod:`.step_routes`, :mod:`.bench_routes`, :mod:`.experience_routes`) over
one shared :class:`~pcagent.viewer.app_state.ViewerState`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from pcagent.bench.results import BenchStore
from pcagent.errors import PcAgentError, RecordError
from pcagent.experience.graph import PageGraph
from pcagent.runtime.record.store import RunStore
from pcagent.viewer.access import FormGuard, require_token
from pcagent.viewer.app_state import (
    PageError,
    ViewerSources,
    ViewerState,
    html_page,
)
from pcagent.viewer.bench_routes import add_bench_routes
from pcagent.viewer.experience_routes import add_experience_routes
from pcagent.viewer.job_routes import add_job_routes
from pcagent.viewer.jobs import JobBoard
from pcagent.viewer.layout import error_page
from pcagent.viewer.run_routes import add_run_routes
from pcagent.viewer.step_routes import add_step_routes


def check_sources(sources: ViewerSources) -> RunStore:
    """Open the run store and read from it once, so that an unreadable store is reported at
    start, not on the first page. Raises RecordError (with what to do) when it cannot be read,
    ExperienceError when the page graph cannot."""
    store = RunStore(sources.runs_dir)
    try:
        store.list_runs(1)
    except PcAgentError:
        store.close()
        raise
    if sources.experience is not None:
        PageGraph.load(sources.experience)
    if sources.bench_dir is not None and (sources.bench_dir / "bench.sqlite").is_file():
        BenchStore(sources.bench_dir).close()
    return store


def create_app(
    sources: ViewerSources,
    token: str,
    *,
    store: RunStore | None = None,
    jobs: JobBoard | None = None,
) -> FastAPI:
    """The viewer application. ``store`` is an already opened store of ``sources.runs_dir``
    (from :func:`check_sources`); one is opened otherwise. The store is closed when the
    application shuts down. ``jobs`` starts the rewinds and replays asked for from the pages
    (default: ``pcagent runs ...`` processes over the run store's data folder)."""
    state = ViewerState(sources, store if store is not None else RunStore(sources.runs_dir))
    board = jobs if jobs is not None else JobBoard.for_data_dir(sources.runs_dir.parent)
    forms = FormGuard()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        state.store.close()
        if state.bench is not None:
            state.bench.close()

    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    require_token(app, token)
    _answer_errors_with_pages(app)
    add_run_routes(app, state, forms)
    add_job_routes(app, state, forms, board)
    add_step_routes(app, state)
    add_bench_routes(app, state)
    add_experience_routes(app, state)
    return app


def _answer_errors_with_pages(app: FastAPI) -> None:
    """Every error a route raises is answered with a page that says what happened."""

    @app.exception_handler(PageError)
    async def page_error(_: Request, error: PageError) -> Response:
        return html_page(error_page(error.title, error.message), error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> Response:
        title = "Not found" if error.status_code == 404 else f"Error {error.status_code}"
        message = (
            "There is no such page in the viewer."
            if error.status_code == 404
            else str(error.detail)
        )
        return html_page(error_page(title, message), error.status_code)

    @app.exception_handler(RecordError)
    async def record_error(_: Request, error: RecordError) -> Response:
        return html_page(error_page("The record cannot be read", str(error)), 500)
