"""What every page family of the viewer shares: where its records come from, the stores it has
opened, and the errors it answers with a page.

The routes of each family (:mod:`.run_routes`, :mod:`.job_routes`, :mod:`.bench_routes`,
:mod:`.experience_routes`) receive one :class:`ViewerState`, so they read the same stores and
caches and report a missing run the same way.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from fastapi.responses import HTMLResponse

from pcagent.bench.results import BenchStore
from pcagent.bench.tasks import Task, load_task_folder, load_tasks
from pcagent.errors import PcAgentError, RunNotFoundError, RunStateError
from pcagent.experience.graph import PageGraph
from pcagent.runtime.record.models import RunRecord, StepRecord
from pcagent.runtime.record.store import RunStore
from pcagent.viewer.images import ImageCache
from pcagent.viewer.page_graph_view import PagePictures

#: How many runs the list reads before filtering.
RUNS_LISTED = 500


class PageError(Exception):
    """An error a route raises that the viewer answers with a page: ``title`` over ``message``,
    with the HTTP ``status``."""

    status: ClassVar[int]
    title: ClassVar[str]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(PageError):
    """Answered with a 404 page carrying ``message``."""

    status = 404
    title = "Not found"


class Forbidden(PageError):
    """Answered with a 403 page carrying ``message`` (a state-changing request without its form
    token, or from another site)."""

    status = 403
    title = "Refused"


class Conflict(PageError):
    """Answered with a 409 page carrying ``message`` (a job already running on the run)."""

    status = 409
    title = "Not started"


def html_page(text: str, status: int = 200) -> HTMLResponse:
    """A rendered page as the response, with its status."""
    return HTMLResponse(text, status_code=status)


@dataclass
class ViewerSources:
    """Where the viewer reads from: the run record's folder, the benchmark results' folder
    (``bench.sqlite`` inside; optional) and a page graph file (optional)."""

    runs_dir: Path
    bench_dir: Path | None = None
    experience: Path | None = None


@dataclass
class ViewerState:
    """The viewer's open stores and caches, kept for the application's lifetime."""

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
        """The task definitions of a benchmark run's folder (the built-in ones for none); an
        unreadable folder gives none, so the results still show."""
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

    def find_run(self, run_id: str) -> RunRecord:
        """The run ``run_id`` names (a unique prefix is enough); :class:`NotFound` otherwise."""
        try:
            return self.store.get_run(run_id)
        except (RunNotFoundError, RunStateError) as error:
            raise NotFound(f"No run {run_id!r} in {self.sources.runs_dir}: {error}") from None

    def exact_run(self, run_id: str) -> RunRecord:
        """The run whose id is exactly ``run_id``: addresses below a run's page name it whole."""
        run = self.find_run(run_id)
        if run.run_id != run_id:
            raise NotFound(f"No run {run_id!r}; did you mean {run.run_id}?")
        return run

    def recorded_step(self, run_id: str, step: int) -> StepRecord:
        """Step ``step`` of the run ``run_id``; :class:`NotFound` when either is missing."""
        self.exact_run(run_id)
        try:
            return self.store.step(run_id, step)
        except RunStateError as error:
            raise NotFound(str(error)) from None

    def run_known(self, run_id: str) -> bool:
        """Whether the run store holds a run with exactly this id (a benchmark result may name
        a run recorded elsewhere)."""
        try:
            return self.store.get_run(run_id).run_id == run_id
        except (RunNotFoundError, RunStateError):
            return False
