"""The files behind a run's page: each step's images, thumbnails, listing and model calls, the
live step count as server-sent events, and the whole run as a zip.

They answer only for a run named by its whole id, so an address keeps meaning the same run.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO

from fastapi import FastAPI
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)

from pcagent.runtime.record.export import export_run
from pcagent.viewer.app_state import NotFound, ViewerState, html_page
from pcagent.viewer.images import DEFAULT_THUMBNAIL_WIDTH, THUMBNAIL_WIDTHS
from pcagent.viewer.layout import error_page, esc
from pcagent.viewer.step_sections import calls_fragment
from pcagent.viewer.window_crop import window_region

#: How often the live endpoint looks at the record, and how long one stream lasts (the browser
#: reconnects by itself; a bounded stream lets the server stop promptly).
LIVE_POLL_S = 0.5
LIVE_STREAM_S = 30.0


def add_step_routes(app: FastAPI, state: ViewerState) -> None:
    """Register the step files, ``/runs/RUN/events`` and ``/runs/RUN/export.zip`` on ``app``."""

    @app.get("/runs/{run_id}/steps/{step}/{kind}.png")
    def step_image(run_id: str, step: int, kind: str) -> Response:
        path = _step_file(state, run_id, step, kind)
        return FileResponse(
            path, media_type="image/png", headers={"Cache-Control": "private, max-age=60"}
        )

    @app.get("/runs/{run_id}/steps/{step}/thumb/{kind}.png")
    def step_thumbnail(
        run_id: str, step: int, kind: str, w: int = DEFAULT_THUMBNAIL_WIDTH, view: str = "screen"
    ) -> Response:
        """A small copy of a step's image: of the whole screen (``view=screen``) or of the
        application's region (``view=window``; the whole screen when none is known)."""
        path = _step_file(state, run_id, step, kind)
        width = min(THUMBNAIL_WIDTHS, key=lambda option: abs(option - w))
        if view not in ("screen", "window"):
            return html_page(error_page("Bad request", "view is screen or window."), 400)
        region = None
        if view == "window":
            size = state.images.size(path)
            record = state.recorded_step(run_id, step)
            region = window_region(record.listing, record.action, size) if size else None
        try:
            data = state.images.thumbnail(path, width, region)
        except OSError as error:
            raise NotFound(f"{path} is not a readable image: {error}") from None
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "private, max-age=60"}
        )

    @app.get("/runs/{run_id}/steps/{step}/listing.txt")
    def listing_text(run_id: str, step: int) -> Response:
        return PlainTextResponse(state.recorded_step(run_id, step).listing)

    @app.get("/runs/{run_id}/steps/{step}/listing", response_class=HTMLResponse)
    def listing_fragment(run_id: str, step: int) -> Response:
        return html_page(
            f"<pre class=listing>{esc(state.recorded_step(run_id, step).listing)}</pre>"
        )

    @app.get("/runs/{run_id}/steps/{step}/calls", response_class=HTMLResponse)
    def calls_of_step(run_id: str, step: int) -> Response:
        state.exact_run(run_id)
        return html_page(calls_fragment(state.store.calls(run_id, step)))

    @app.get("/runs/{run_id}/events")
    async def live(run_id: str, after: int = 0) -> Response:
        """Server-sent events: a ``steps`` event with the step count and status now, then one
        whenever either changes, until the run is no longer running (or the stream's time is
        up: the browser then reconnects)."""
        await asyncio.to_thread(state.exact_run, run_id)
        return StreamingResponse(
            _step_events(state, run_id, after),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/runs/{run_id}/export.zip")
    def export(run_id: str) -> Response:
        run = state.exact_run(run_id)
        return StreamingResponse(
            _chunks(export_run(state.store, run.run_id)),
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{run.run_id}.zip"'},
        )


def _step_file(state: ViewerState, run_id: str, step: int, kind: str) -> Path:
    state.exact_run(run_id)
    if kind == "screenshot":
        path = state.store.screenshot_path(run_id, step)
    elif kind == "som":
        path = state.store.set_of_mark_path(run_id, step)
    else:
        raise NotFound(f"No image {kind!r}; a step has screenshot.png and som.png")
    if not path.is_file():
        raise NotFound(f"Step {step} of run {run_id} has no {kind} image recorded.")
    return path


async def _step_events(state: ViewerState, run_id: str, after: int) -> AsyncIterator[str]:
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


def _chunks(archive: IO[bytes]) -> Iterator[bytes]:
    """The archive in blocks, closed once sent (or once the client goes away)."""
    try:
        while block := archive.read(256 * 1024):
            yield block
    finally:
        archive.close()
