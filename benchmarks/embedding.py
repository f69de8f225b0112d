"""Sentence-embedding benchmark: the numpy all-MiniLM-L6-v2 encoder on screen-summary-like texts.

Encodes the same 200 short texts (screen summaries and task instructions, 15–40 tokens) one at a
time and then in batches (``SentenceEncoder.encode`` sorts by length and pads batches of 32), and
reports the median milliseconds per text of each, and their ratio as the baseline comparison. It
also times one search of a 200-row :class:`VectorIndex`. Needs the pack:
``pcagent models install all-minilm-l6-v2``.

Goal: batching pays (a text costs less in a batch than alone).

    python benchmarks/embedding.py --json [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import numpy as np

from headline import add_quick_option, headline
from pcagent.experience.embedding import BATCH_SIZE, SentenceEncoder
from pcagent.experience.vectors import VectorIndex

APPS = {
    "mail": ("Write: {0}", ["To", "Cc", "Subject", "Send", "Attach"]),
    "calc": ("{0}.ods - LibreOffice Calc", ["Name Box", "Sum", "Bold", "Save"]),
    "writer": ("{0}.docx - LibreOffice Writer", ["Paragraph Style", "Bold", "Italic"]),
    "files": ("{0} - Files", ["Back", "Search", "New Folder", "Rename"]),
    "browser": ("{0} - Firefox", ["Address", "Reload", "Bookmarks"]),
}
TOPICS = ["Quarterly report", "Budget 2026", "Meeting notes", "Invoice 1042", "Travel plan"]
VERBS = ["Send", "Open", "Rename", "Copy the total of", "Make bold the title of"]


def sample_texts(count: int = 200) -> list[str]:
    """``count`` distinct screen summaries and instructions, built deterministically."""
    texts = []
    index = 0
    while len(texts) < count:
        app, (window, marks) = list(APPS.items())[index % len(APPS)]
        topic = TOPICS[(index // len(APPS)) % len(TOPICS)]
        shown = ", ".join(marks[: 2 + index % (len(marks) - 1)])
        texts.append(f"app: {app}; window: {window.format(topic)}; marks: {shown}; step {index}")
        verb = VERBS[index % len(VERBS)]
        texts.append(f"{verb} '{topic}' in {app} and tell Howie (case {index})")
        index += 1
    return texts[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the texts")
    add_quick_option(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat = 1

    started = time.perf_counter()
    encoder = SentenceEncoder.load()
    load_s = time.perf_counter() - started
    texts = sample_texts(8 if args.quick else 200)
    encoder.encode(texts[:8])  # warm-up: first BLAS calls allocate

    single: list[float] = []
    batched: list[float] = []
    for _ in range(args.repeat):
        for text in texts:
            started = time.perf_counter()
            encoder.encode([text])
            single.append(time.perf_counter() - started)
        started = time.perf_counter()
        vectors = encoder.encode(texts)
        batched.append(time.perf_counter() - started)

    index = VectorIndex(encoder.dim)
    index.add(range(len(texts)), vectors)
    searches = []
    for row in vectors[:50]:
        started = time.perf_counter()
        index.search(row, 5)
        searches.append(time.perf_counter() - started)

    tokens = [len(encoder.token_ids(text)) for text in texts]
    single_ms = statistics.median(single) * 1000
    batch_ms = statistics.median(batched) * 1000 / len(texts)
    report = {
        **headline(
            {"batched_vs_single": round(batch_ms / single_ms, 3)},
            {"batched_vs_single": "below 1: a text costs less in a batch than alone"},
            batch_ms < single_ms,
            quick=args.quick,
        ),
        "benchmark": "embedding",
        "model": "all-MiniLM-L6-v2 (numpy encoder)",
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "texts": len(texts),
        "tokens_per_text": {
            "min": min(tokens),
            "median": int(np.median(tokens)),
            "max": max(tokens),
        },
        "load_s": round(load_s, 3),
        "single_ms_per_text": round(single_ms, 3),
        "batched_ms_per_text": round(batch_ms, 3),
        "batch_size": BATCH_SIZE,
        "batched_vs_single": round(batch_ms / single_ms, 3),
        "search_ms_200_rows_k5": round(statistics.median(searches) * 1000, 4),
        "repeat": args.repeat,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
