"""Page graph build time and retrieval latency, on recorded runs.

Builds a page graph from the run-record folders given (e.g. training tasks' reference solutions
recorded with ``pcagent bench run --agent reference --record-to DIR``), then asks it for Decision
guidance at every recorded step that has a screen, as a run would. Prints JSON: the graph's size,
the build time, and the median and 95th-percentile retrieval time. The baseline, measured in the
same run on the same screens, is embedding the screen summary alone (the floor any retrieval
pays); ``ratio`` is retrieval over that floor, so the cost of the index search and the graph walk
shows apart from the encoder's speed. Goal: median retrieval <= 50 ms on a graph from 200 runs.

    python benchmarks/experience.py --records /path/to/records [--records more] [--queries 300]
    python benchmarks/experience.py --records /path/to/records --quick      # three queries
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from headline import add_quick_option, headline
from pcagent.experience.build import build_graph
from pcagent.experience.embedding import SentenceEncoder
from pcagent.experience.guide import Experience
from pcagent.experience.screens import Screen
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK
from pcagent.runtime.record.store import RunStore

GOAL_MS = 50.0


def recorded_screens(folders: list[Path], limit: int) -> list[tuple[str, str, str, str]]:
    """(app, window, listing, subtask) of recorded steps, spread over the runs."""
    queries: list[tuple[str, str, str, str]] = []
    for folder in folders:
        with RunStore(folder) as store:
            for run in store.list_runs(limit=100_000):
                for step in store.steps(run.run_id):
                    if step.listing and step.front_app:
                        queries.append((step.front_app, step.window, step.listing, run.instruction))
    stride = max(1, len(queries) // limit)
    return queries[::stride][:limit]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, action="append", required=True)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="accepted: the output is JSON")
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.queries = 3

    encoder = SentenceEncoder.load()
    started = time.perf_counter()
    graph = build_graph(encoder, DEFAULT_EMBEDDING_PACK, arguments.records)
    build_s = time.perf_counter() - started
    experience = Experience(graph, encoder, screen_cache=0)  # every query pays its embedding
    queries = recorded_screens(arguments.records, arguments.queries)

    floor_ms: list[float] = []
    for app, window, listing, _ in queries:
        began = time.perf_counter()
        encoder.encode([Screen.of(app, window, listing).summary()])
        floor_ms.append((time.perf_counter() - began) * 1000)
    answered = 0
    for app, window, listing, subtask in queries:
        answered += bool(experience.guidance(app, window, listing, subtask))
    retrieval = experience.timings_ms
    median = statistics.median(retrieval)
    floor = statistics.median(floor_ms)
    print(
        json.dumps(
            {
                **headline(
                    {"retrieval_median_ms": round(median, 1)},
                    {"retrieval_median_ms": f"at most {GOAL_MS:.0f} ms on a graph from 200 runs"},
                    median <= GOAL_MS,
                    quick=arguments.quick,
                ),
                "runs": len(graph.sources),
                "pages": len(graph.nodes),
                "actions": len(graph.edges),
                "plans": len(graph.plans),
                "build_s": round(build_s, 1),
                "queries": len(queries),
                "answered": answered,
                "retrieval_median_ms": round(median, 1),
                "retrieval_p95_ms": round(percentile(retrieval, 0.95), 1),
                "baseline_embed_only_median_ms": round(floor, 1),
                "ratio": round(median / floor, 2) if floor else None,
                "goal_ms": GOAL_MS,
                "goal_met": median <= GOAL_MS,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
