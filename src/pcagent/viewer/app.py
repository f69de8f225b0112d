"""The viewer's web application: routes, token check, and where its records come from.

:func:`create_app` builds a FastAPI application over one run store (``runs.sqlite`` and the step
folders), the benchmark results next to it and, optionally, a page graph file. Every request
needs the viewer's token: once in the URL of the first page (``/?token=...``), which turns it
into an HttpOnly, SameSite=Strict cookie and sends the browser on without it, or as
``Authorization: Bearer TOKEN`` from scripts. Tokens are compared in constant time.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.exceptions import HTTPException as StarletteHTTPException

from pcagent.bench.report import summary
from pcagent.bench.results import BenchStore
from pcagent.bench.tasks import Task, load_task_folder, load_tasks
from pcagent.errors import PcAgentError, RecordError, RunNotFoundError, RunStateError
from pcagent.experience.graph import PageGraph
from pcagent.runtime.record_export import export_run
from pcagent.runtime.record_models import RunRecord, StepRecord
from pcagent.runtime.records import RunStore
from pcagent.viewer.bench_progress import bench_progress
from pcagent.viewer.compare_pages import (
    ComparedResult,
    ComparedRun,
    compare_bench_page,
    compare_runs_page,
)
from pcagent.viewer.experience_query import Question, experience_query_page
from pcagent.viewer.images import DEFAULT_THUMBNAIL_WIDTH, THUMBNAIL_WIDTHS, ImageCache
from pcagent.viewer.job_pages import FORM_TOKEN_FIELD, jobs_page
from pcagent.viewer.jobs import Job, JobBoard, JobRefused, replay_command, rewind_command
from pcagent.viewer.layout import error_page, esc, url_part
from pcagent.viewer.other_pages import (
    bench_list_page,
    bench_page,
    experience_node_page,
    experience_page,
)
from pcagent.viewer.page_graph_view import PagePictures
from pcagent.viewer.run_pages import (
    STATUSES,
    RunContents,
    calls_fragment,
    matches,
    run_page,
    runs_page,
    step_html,
)
from pcagent.viewer.window_crop import window_region

#: The cookie that carries the token after the first page.
COOKIE = "pcagent_view"
#: How often the live endpoint looks at the record, and how long one stream lasts (the browser
#: reconnects by itself; a bounded stream lets the server stop promptly).
LIVE_POLL_S = 0.5
LIVE_STREAM_S = 30.0
#: How many runs the list reads before filtering.
RUNS_LISTED = 500
#: The largest form body a POST may send, and the longest guidance a rewind may carry.
MAX_FORM_BYTES = 16 * 1024
MAX_GUIDANCE_CHARS = 2000


class NotFound(Exception):
    """Answered with a 404 page carrying ``message``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class ViewerSources:
    """Where the viewer reads from: the run record's folder, the benchmark results' folder
    (``bench.sqlite`` inside; optional) and a page graph file (optional)."""

    runs_dir: Path
    bench_dir: Path | None = None
    experience: Path | None = None


@dataclass
class _State:
    sources: ViewerSources
    store: RunStore
    images: ImageCache = field(default_factory=ImageCache)
    bench_lock: threading.Lock = field(default_factory=threading.Lock)
    bench: BenchStore | None = None
    builtin_tasks: dict[str, Task] | None = None
    graphs: dict[tuple[str, int], PageGraph] = field(default_factory=dict)
    pictures: PagePictures | None = None

    def bench_store(self) -> BenchStore | None:
        """The benchmark results, opened on first use; None when there are none."""
        folder = self.sources.bench_dir
        if self.bench is None and folder is not None and (folder / "bench.sqlite").is_file():
            self.bench = BenchStore(folder)
        return self.bench

    def tasks_for(self, tasks_dir: str) -> dict[str, Task]:
        if tasks_dir:
            try:
                return load_task_folder(Path(tasks_dir))
            except PcAgentError:
                return {}
        if self.builtin_tasks is None:
            self.builtin_tasks = load_tasks()
        return self.builtin_tasks

    def graph(self, path: Path) -> PageGraph:
        """The page graph at ``path``, read again when the file changed."""
        stamp = path.stat().st_mtime_ns if path.is_file() else 0
        key = (str(path), stamp)
        if key not in self.graphs:
            self.graphs.clear()
            self.graphs[key] = PageGraph.load(path)
        return self.graphs[key]

    def page_pictures(self, graph: PageGraph) -> PagePictures:
        """The pictures of ``graph``'s pages (kept while the graph is the one loaded)."""
        if self.pictures is None or self.pictures.graph is not graph:
            self.pictures = PagePictures(graph)
        return self.pictures


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


def token_matches(expected: str, supplied: str | None) -> bool:
    if not supplied:
        return False
    return hmac.compare_digest(expected.encode(), supplied.encode())


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status)


class Forbidden(Exception):
    """Answered with a 403 page carrying ``message`` (a state-changing request without its form
    token, or from another site)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Conflict(Exception):
    """Answered with a 409 page carrying ``message`` (a job already running on the run)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    state = _State(sources, store if store is not None else RunStore(sources.runs_dir))
    board = jobs if jobs is not None else JobBoard.for_data_dir(sources.runs_dir.parent)
    # Forms that change something carry a token derived from the session's credential with a
    # secret made at start: another site can make a browser send the cookie (SameSite aside,
    # e.g. from a sibling port), but cannot read a page to learn the form token.
    form_secret = secrets.token_bytes(32)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        state.store.close()
        if state.bench is not None:
            state.bench.close()

    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)

    @app.middleware("http")
    async def authenticate(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        supplied = request.query_params.get("token")
        if request.url.path == "/" and supplied is not None:
            if not token_matches(token, supplied):
                return _unauthorised()
            # The token leaves the address bar (and the history) at once; the cookie carries it.
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
            return response
        header = request.headers.get("authorization", "")
        bearer = header[7:].strip() if header[:7].lower() == "bearer " else None
        if token_matches(token, request.cookies.get(COOKIE)) or token_matches(token, bearer):
            response = await call_next(request)
            response.headers.setdefault("Cache-Control", "no-store")
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
            return response
        return _unauthorised()

    @app.exception_handler(NotFound)
    async def not_found(_: Request, error: NotFound) -> Response:
        return _html(error_page("Not found", error.message), 404)

    @app.exception_handler(Forbidden)
    async def forbidden(_: Request, error: Forbidden) -> Response:
        return _html(error_page("Refused", error.message), 403)

    @app.exception_handler(Conflict)
    async def conflict(_: Request, error: Conflict) -> Response:
        return _html(error_page("Not started", error.message), 409)

    def credential(request: Request) -> str:
        header = request.headers.get("authorization", "")
        if header[:7].lower() == "bearer ":
            return header[7:].strip()
        return request.cookies.get(COOKIE, "")

    def form_token(request: Request) -> str:
        """The form token of this request's session (the middleware has checked its
        credential)."""
        digest = hmac.new(form_secret, credential(request).encode(), hashlib.sha256)
        return digest.hexdigest()

    async def checked_form(request: Request) -> dict[str, str]:
        """The fields of a POSTed form, after checking where it comes from and its form token.
        Raises Forbidden when either is wrong."""
        origin = request.headers.get("origin")
        # A browser names the page a form came from; another site's page (or a sandboxed
        # frame's "null") may not start anything. Scripts send no Origin and need the token.
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
            raise Forbidden(f"A form from {origin} may not change anything here.")
        body = await request.body()
        if len(body) > MAX_FORM_BYTES:
            raise Forbidden("The form is too large.")
        fields = {
            key: values[-1]
            for key, values in parse_qs(
                body.decode("utf-8", errors="replace"), keep_blank_values=True
            ).items()
        }
        supplied = fields.get(FORM_TOKEN_FIELD, "")
        if not token_matches(form_token(request), supplied):
            raise Forbidden(
                "This form has no valid form token: reload the page it came from and send it again."
            )
        return fields

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> Response:
        title = "Not found" if error.status_code == 404 else f"Error {error.status_code}"
        message = (
            "There is no such page in the viewer."
            if error.status_code == 404
            else str(error.detail)
        )
        return _html(error_page(title, message), error.status_code)

    @app.exception_handler(RecordError)
    async def record_error(_: Request, error: RecordError) -> Response:
        return _html(error_page("The record cannot be read", str(error)), 500)

    # --- runs ------------------------------------------------------------------------------------

    def find_run(run_id: str) -> RunRecord:
        try:
            return state.store.get_run(run_id)
        except (RunNotFoundError, RunStateError) as error:
            raise NotFound(f"No run {run_id!r} in {sources.runs_dir}: {error}") from None

    def exact_run(run_id: str) -> RunRecord:
        run = find_run(run_id)
        if run.run_id != run_id:
            raise NotFound(f"No run {run_id!r}; did you mean {run.run_id}?")
        return run

    @app.get("/", response_class=HTMLResponse)
    def list_runs(status: str = "", q: str = "") -> Response:
        wanted = status if status in STATUSES else ""
        runs = [r for r in state.store.list_runs(RUNS_LISTED) if matches(r, wanted, q.strip())]
        return _html(runs_page(runs, status=wanted, query=q, store_path=str(sources.runs_dir)))

    def render_steps(
        run: RunRecord, contents: RunContents, after: int = 0, token_for_forms: str = ""
    ) -> list[str]:
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

    def contents_of(run: RunRecord) -> RunContents:
        return RunContents.of(
            run,
            state.store.steps(run.run_id),
            state.store.calls(run.run_id),
            state.store.events(run.run_id),
        )

    @app.get("/runs/{run_id}", response_class=HTMLResponse)
    def show_run(run_id: str, request: Request) -> Response:
        run = find_run(run_id)
        if run.run_id != run_id:
            return RedirectResponse(f"/runs/{url_part(run.run_id)}", status_code=307)
        contents = contents_of(run)
        tokens = form_token(request)
        return _html(run_page(contents, render_steps(run, contents, 0, tokens), tokens))

    @app.get("/runs/{run_id}/steps", response_class=HTMLResponse)
    def steps_after(run_id: str, request: Request, after: int = 0) -> Response:
        """The steps after ``after``, as sections of the timeline (the live page appends them)."""
        run = exact_run(run_id)
        return _html("".join(render_steps(run, contents_of(run), after, form_token(request))))

    # --- comparing runs ------------------------------------------------------------------------

    def compared(run_id: str) -> ComparedRun:
        run = find_run(run_id)
        steps = state.store.steps(run.run_id)
        sizes = {
            step.step: state.images.size(state.store.screenshot_path(run.run_id, step.step))
            for step in steps
        }
        return ComparedRun(run, steps, sizes)

    @app.get("/compare", response_class=HTMLResponse)
    def compare_runs(
        left: str = "", right: str = "", run: Annotated[list[str] | None, Query()] = None
    ) -> Response:
        """Two runs step by step: ``left`` and ``right``, or two ``run`` values (from the run
        list's check boxes; the older run goes left)."""
        if not (left and right):
            picked = [r for r in run or [] if r]
            if len(picked) != 2:
                return _html(
                    error_page(
                        "Pick two runs",
                        f"Comparing needs two runs; {len(picked)} were ticked. Tick two runs "
                        "in the list, or open /compare?left=RUN&right=RUN.",
                    ),
                    400,
                )
            first, second = (find_run(r) for r in picked)
            older, newer = sorted((first, second), key=lambda r: (r.created_at, r.run_id))
            return RedirectResponse(
                f"/compare?left={url_part(older.run_id)}&right={url_part(newer.run_id)}",
                status_code=303,
            )
        return _html(compare_runs_page(compared(left), compared(right)))

    # --- rewinds and replays -------------------------------------------------------------------

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
        fields = await checked_form(request)
        run = await asyncio.to_thread(exact_run, run_id)
        try:
            step = int(fields.get("step", ""))
        except ValueError:
            return _html(error_page("Not started", "The form gives no step number."), 400)
        if step > 0:
            await asyncio.to_thread(recorded_step, run.run_id, step)
        elif step < 0:
            return _html(error_page("Not started", f"There is no step {step}."), 400)
        guidance = fields.get("guidance", "").strip()
        if len(guidance) > MAX_GUIDANCE_CHARS:
            return _html(
                error_page(
                    "Not started", f"Guidance is limited to {MAX_GUIDANCE_CHARS} characters."
                ),
                400,
            )
        return start_job(run.run_id, "rewind", rewind_command(run.run_id, step, guidance))

    @app.post("/runs/{run_id}/replay")
    async def replay(run_id: str, request: Request) -> Response:
        """Start ``pcagent runs replay RUN`` in the background."""
        await checked_form(request)
        run = await asyncio.to_thread(exact_run, run_id)
        return start_job(run.run_id, "replay", replay_command(run.run_id))

    def run_made_by(job: Job, recent: list[RunRecord]) -> str | None:
        """The run a rewind made: the newest run rewound from the job's run since it started."""
        if job.kind != "rewind":
            return None
        for candidate in recent:  # newest first
            if candidate.parent_run == job.run_id and candidate.created_at >= job.started_at:
                return candidate.run_id
        return None

    @app.get("/jobs", response_class=HTMLResponse)
    def list_jobs(started: str = "") -> Response:
        jobs = board.jobs()
        recent = state.store.list_runs(RUNS_LISTED) if jobs else []
        made = {job.job_id: run for job in jobs if (run := run_made_by(job, recent)) is not None}
        message = f"Started job {started}." if started else ""
        return _html(jobs_page(jobs, made, message))

    def step_file(run_id: str, step: int, kind: str) -> Path:
        exact_run(run_id)
        if kind == "screenshot":
            path = state.store.screenshot_path(run_id, step)
        elif kind == "som":
            path = state.store.set_of_mark_path(run_id, step)
        else:
            raise NotFound(f"No image {kind!r}; a step has screenshot.png and som.png")
        if not path.is_file():
            raise NotFound(f"Step {step} of run {run_id} has no {kind} image recorded.")
        return path

    @app.get("/runs/{run_id}/steps/{step}/{kind}.png")
    def step_image(run_id: str, step: int, kind: str) -> Response:
        path = step_file(run_id, step, kind)
        return FileResponse(
            path, media_type="image/png", headers={"Cache-Control": "private, max-age=60"}
        )

    @app.get("/runs/{run_id}/steps/{step}/thumb/{kind}.png")
    def step_thumbnail(
        run_id: str, step: int, kind: str, w: int = DEFAULT_THUMBNAIL_WIDTH, view: str = "screen"
    ) -> Response:
        """A small copy of a step's image: of the whole screen (``view=screen``) or of the
        application's region (``view=window``; the whole screen when none is known)."""
        path = step_file(run_id, step, kind)
        width = min(THUMBNAIL_WIDTHS, key=lambda option: abs(option - w))
        if view not in ("screen", "window"):
            return _html(error_page("Bad request", "view is screen or window."), 400)
        region = None
        if view == "window":
            size = state.images.size(path)
            record = recorded_step(run_id, step)
            region = window_region(record.listing, record.action, size) if size else None
        try:
            data = state.images.thumbnail(path, width, region)
        except OSError as error:
            raise NotFound(f"{path} is not a readable image: {error}") from None
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "private, max-age=60"}
        )

    def recorded_step(run_id: str, step: int) -> StepRecord:
        exact_run(run_id)
        try:
            return state.store.step(run_id, step)
        except RunStateError as error:
            raise NotFound(str(error)) from None

    @app.get("/runs/{run_id}/steps/{step}/listing.txt")
    def listing_text(run_id: str, step: int) -> Response:
        return PlainTextResponse(recorded_step(run_id, step).listing)

    @app.get("/runs/{run_id}/steps/{step}/listing", response_class=HTMLResponse)
    def listing_fragment(run_id: str, step: int) -> Response:
        return _html(f"<pre class=listing>{esc(recorded_step(run_id, step).listing)}</pre>")

    @app.get("/runs/{run_id}/steps/{step}/calls", response_class=HTMLResponse)
    def calls_of_step(run_id: str, step: int) -> Response:
        exact_run(run_id)
        return _html(calls_fragment(state.store.calls(run_id, step)))

    @app.get("/runs/{run_id}/events")
    async def live(run_id: str, after: int = 0) -> Response:
        """Server-sent events: a ``steps`` event with the step count and status now, then one
        whenever either changes, until the run is no longer running (or the stream's time is
        up: the browser then reconnects)."""
        await asyncio.to_thread(exact_run, run_id)

        async def stream() -> AsyncIterator[str]:
            yield "retry: 1000\n\n"
            last: tuple[int, str] | None = None
            ends = time.monotonic() + LIVE_STREAM_S
            while True:
                run = await asyncio.to_thread(state.store.get_run, run_id)
                now = (run.steps, run.status)
                if now != last:
                    data = json.dumps({"steps": run.steps, "status": run.status, "after": after})
                    yield f"event: steps\ndata: {data}\n\n"
                    last = now
                if run.status != "running" or time.monotonic() > ends:
                    return
                await asyncio.sleep(LIVE_POLL_S)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    @app.get("/runs/{run_id}/export.zip")
    def export(run_id: str) -> Response:
        run = exact_run(run_id)
        archive = export_run(state.store, run.run_id)

        def chunks() -> Iterator[bytes]:
            try:
                while block := archive.read(256 * 1024):
                    yield block
            finally:
                archive.close()

        return StreamingResponse(
            chunks(),
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{run.run_id}.zip"'},
        )

    # --- benchmark -------------------------------------------------------------------------------

    @app.get("/bench", response_class=HTMLResponse)
    def bench_runs() -> Response:
        recent = state.store.list_runs(RUNS_LISTED)
        with state.bench_lock:
            bench = state.bench_store()
            progress = (
                [bench_progress(run, bench.results(run.bench_id), recent) for run in bench.runs()]
                if bench is not None
                else []
            )
        where = str(sources.bench_dir) if sources.bench_dir else "no benchmark folder"
        return _html(bench_list_page(progress, where))

    @app.get("/bench/compare", response_class=HTMLResponse)
    def bench_compare(task: str, a: str, b: str) -> Response:
        """One task's results in two benchmark runs, side by side."""
        with state.bench_lock:
            bench = state.bench_store()
            if bench is None:
                raise NotFound("No benchmark results recorded here.")
            sides = []
            for bench_id in (a, b):
                try:
                    run = bench.get(bench_id)
                except RecordError as error:
                    raise NotFound(str(error)) from None
                rows = {row["task"]: row for row in summary(bench, run)["tasks"]}
                results = {r.task_id: r for r in bench.results(run.bench_id)}
                if task not in results:
                    raise NotFound(f"Benchmark run {run.bench_id} has no result of task {task!r}.")
                row = rows[task]
                known = bool(row["run_id"]) and _run_known(state.store, row["run_id"])
                sides.append(ComparedResult(run, row, results[task], known))
            definition = state.tasks_for(sides[0].bench.tasks_dir).get(task)
        return _html(compare_bench_page(task, definition, sides[0], sides[1]))

    @app.get("/bench/{bench_id}", response_class=HTMLResponse)
    def bench_run(bench_id: str) -> Response:
        recent = state.store.list_runs(RUNS_LISTED)
        with state.bench_lock:
            bench = state.bench_store()
            if bench is None:
                raise NotFound("No benchmark results recorded here.")
            try:
                run = bench.get(bench_id)
            except RecordError as error:
                raise NotFound(str(error)) from None
            tasks = state.tasks_for(run.tasks_dir)
            known = {
                r.run_id
                for r in bench.results(run.bench_id)
                if r.run_id and _run_known(state.store, r.run_id)
            }
            others: dict[str, list[str]] = {}
            own = {result.task_id for result in bench.results(run.bench_id)}
            for other in bench.runs():
                if other.bench_id == run.bench_id:
                    continue
                for result in bench.results(other.bench_id):
                    if result.task_id in own:
                        others.setdefault(result.task_id, []).append(other.bench_id)
            progress = bench_progress(run, bench.results(run.bench_id), recent)
            return _html(bench_page(bench, run, tasks, known, others, progress))

    # --- experience ------------------------------------------------------------------------------

    def graph_path(graph: str) -> Path:
        if graph:
            return Path(graph).expanduser()
        if sources.experience is None:
            raise NotFound(
                "No page graph given: start the viewer with `pcagent view --experience PATH` "
                "or add ?graph=PATH to this address."
            )
        return sources.experience

    def load_graph(path: Path) -> PageGraph:
        try:
            return state.graph(path)
        except PcAgentError as error:
            raise NotFound(str(error)) from None

    @app.get("/experience", response_class=HTMLResponse)
    def experience(graph: str = "", app: str = "", q: str = "", offset: int = 0) -> Response:
        path = graph_path(graph)
        loaded = load_graph(path)
        return _html(
            experience_page(
                loaded,
                path,
                app=app,
                query=q,
                offset=max(0, offset),
                pictures=state.page_pictures(loaded),
            )
        )

    @app.get("/experience/query", response_class=HTMLResponse)
    def experience_query(
        graph: str = "",
        app: str = "",
        window: str = "",
        labels: str = "",
        subtask: str = "",
        instruction: str = "",
    ) -> Response:
        path = graph_path(graph)
        apps = sorted({node.app for node in load_graph(path).nodes})
        question = Question(app, window, labels, subtask, instruction)
        try:
            return _html(experience_query_page(path, apps, question))
        except PcAgentError as error:  # the embedding model is not installed, for one
            raise NotFound(str(error)) from None

    @app.get("/experience/nodes/{node_id}/picture.png")
    def experience_node_picture(node_id: int, graph: str = "") -> Response:
        """A small picture of a page: the screenshot of a recorded step that showed it, cut to
        the application."""
        loaded = load_graph(graph_path(graph))
        node = next((n for n in loaded.nodes if n.id == node_id), None)
        if node is None:
            raise NotFound(f"The page graph has no page {node_id}.")
        found = state.page_pictures(loaded).picture_of(node)
        if found is None:
            raise NotFound(f"No recorded step shows page {node_id} any more.")
        size = state.images.size(found.screenshot)
        region = window_region(found.step.listing, found.step.action, size) if size else None
        try:
            data = state.images.thumbnail(found.screenshot, 320, region)
        except OSError as error:
            raise NotFound(f"{found.screenshot} is not a readable image: {error}") from None
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "private, max-age=300"}
        )

    @app.get("/experience/nodes/{node_id}", response_class=HTMLResponse)
    def experience_node(node_id: int, graph: str = "") -> Response:
        path = graph_path(graph)
        rendered = experience_node_page(load_graph(path), path, node_id)
        if rendered is None:
            raise NotFound(f"The page graph {path} has no page {node_id}.")
        return _html(rendered)

    return app


def _run_known(store: RunStore, run_id: str) -> bool:
    try:
        return store.get_run(run_id).run_id == run_id
    except (RunNotFoundError, RunStateError):
        return False


def _unauthorised() -> Response:
    return _html(
        error_page(
            "Not signed in",
            "This viewer needs its token: open the address `pcagent view` printed "
            "(it ends in ?token=...), or send `Authorization: Bearer TOKEN`.",
        ),
        401,
    )
