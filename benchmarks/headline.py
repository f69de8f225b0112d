"""What every benchmark script prints besides its own figures: the headline figure, its goal,
whether the goal is met, and whether the run was a quick one.

``--quick`` runs a benchmark once, on the smallest input that still exercises all of it, in
seconds: the test suite runs every script so (``tests/test_benchmarks.py``) so that a broken
benchmark fails a test. Its figures are not the ones to report: they come from one repetition.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

Figure = float | int | None


def add_quick_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one repetition on the smallest input, in seconds (a check that it works, not a figure)",
    )


def headline(
    figure: Mapping[str, Figure], goal: Mapping[str, str], met: bool | None, *, quick: bool
) -> dict[str, object]:
    """The keys every benchmark's JSON has: ``figure`` (the numbers the goal is about, by name),
    ``goal`` (each as a sentence, by the same names), ``goal_met`` (None where this run cannot
    say) and ``quick``."""
    return {"figure": dict(figure), "goal": dict(goal), "goal_met": met, "quick": quick}
