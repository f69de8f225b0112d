"""Benchmark runs and their task results as a person reads them in a terminal: one row per
stored run (``pcagent bench list``), and per task its outcome and why it failed
(``pcagent bench report``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from pcagent.bench.metrics import summarize
from pcagent.bench.results import BenchRun, BenchStore, StoredResult
from pcagent.code_version import code_version

#: Shown for a benchmark run that named no model profile: every role used the configured one.
DEFAULT_MODEL_LABEL = "(configured)"


class BenchRunRow(BaseModel):
    """One stored benchmark run, summed up."""

    bench_id: str
    created_at: float
    agent: str
    model: str
    ablation: str
    tasks_done: int
    tasks_total: int
    #: Success rate and subtask success rate over the tasks done (None: no task done yet).
    success_rate: float | None
    subtask_success_rate: float | None
    tasks_dir: str
    #: The version of pcagent's code that started the run, and how many of its results ran
    #: at each version (more than one key: a run resumed after the code changed).
    code: str = ""
    codes: dict[str, int] = {}


class TaskLine(BaseModel):
    """One task's result: passed or failed, and what went wrong."""

    task_id: str
    success: bool
    completion_ratio: float
    actions: int
    seconds: float
    run_id: str | None
    #: Keys of :data:`pcagent.bench.failure_causes.CAUSES` read off the run record.
    failure_causes: list[str]
    #: The task's error (the run stopped on it), else the first failed sub-goal and its reason.
    problem: str


def model_label(bench: BenchRun) -> str:
    """The model a benchmark run used, as recorded when it started."""
    if bench.model_server is not None:
        return f"{bench.model_server.name} at {bench.model_server.url}"
    return bench.model or DEFAULT_MODEL_LABEL


def run_row(store: BenchStore, bench: BenchRun) -> BenchRunRow:
    """``bench`` with its results counted and its SR and SSR over the tasks done so far."""
    results = store.results(bench.bench_id)
    metrics = summarize([result.task_outcome() for result in results])
    return BenchRunRow(
        bench_id=bench.bench_id,
        created_at=bench.created_at,
        agent=bench.agent,
        model=model_label(bench),
        ablation=bench.ablation,
        tasks_done=len(results),
        tasks_total=len(bench.tasks),
        success_rate=metrics.get("SR"),
        subtask_success_rate=metrics.get("SSR"),
        tasks_dir=bench.tasks_dir,
        code=bench.code,
        codes=code_counts(results),
    )


def code_counts(results: Sequence[StoredResult]) -> dict[str, int]:
    """How many of ``results`` ran at each version of the code, the most first ("" counts
    the results stored before versions were kept)."""
    return dict(Counter(result.code for result in results).most_common())


def code_label(started: str, codes: dict[str, int]) -> str:
    """The code a run's results ran at, in a word: its one version, the versions of a mixed
    run with their counts, or ``started`` (the version that began it) while it has none."""
    if not codes:
        return started or "unknown"
    if len(codes) == 1:
        return next(iter(codes)) or "unknown"
    return codes_text(codes)


def codes_text(codes: dict[str, int]) -> str:
    """Each version with how many results ran at it: "db209bf (20), 1f4e370 (5)"."""
    return ", ".join(f"{code or 'unknown'} ({count})" for code, count in codes.items())


def other_code(results: Sequence[StoredResult]) -> str:
    """What resuming a run with ``results`` says of the code: nothing when they all ran at
    the code running now; else the versions they ran at, since its figures will mix them."""
    codes, now = code_counts(results), code_version()
    if not codes or set(codes) == {now}:
        return ""
    return (
        f"; the code is now {now} and its results so far ran at {codes_text(codes)}: "
        "its figures will not be one version's"
    )


def task_line(result: StoredResult) -> TaskLine:
    """What a person needs of one task result to see where it went wrong."""
    failed = [node for node in result.nodes if not node.get("passed")]
    if result.error:
        problem = result.error
    elif failed:
        first = failed[0]
        problem = f"sub-goal {first.get('node_id')} failed: {first.get('reason', '')}".rstrip(": ")
    else:
        problem = ""
    return TaskLine(
        task_id=result.task_id,
        success=bool(result.outcome.get("success")),
        completion_ratio=float(result.outcome.get("completion_ratio", 0.0)),
        actions=int(result.outcome.get("actions", 0)),
        seconds=float(result.outcome.get("seconds", 0.0)),
        run_id=result.run_id,
        failure_causes=list(result.outcome.get("failure_causes") or []),
        problem=problem,
    )
