"""What the benchmark scripts that ask a model about generated tasks share: reading a
``SEED:COUNT`` option, and the tiny model their ``--quick`` run asks instead of the configured
one (smollm2-135m on two threads, the suite running one test at a time; no re-asks: a check
that the script works, not a figure)."""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

from headline import add_quick_option, headline
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import Task
from pcagent.config import ModelProfile, ModelsConfig, PcAgentConfig, load_config

QUICK_PACK = "smollm2-135m"

#: The goals of a reading checked against gold programs: what it is to find, found at least
#: this often, and right programs doubted at most this often.
GOAL_FOUND, GOAL_FALSE_ALARMS = 0.8, 0.05


def seed_and_count(text: str) -> tuple[int, int]:
    """``"77:20"`` as ``(77, 20)``: generated tasks of seed 77, the first 20."""
    seed, _, count = text.partition(":")
    return int(seed), int(count)


def with_quick_model(config: PcAgentConfig, max_output_tokens: int) -> PcAgentConfig:
    """``config`` with every role on the tiny local model, its replies cut at
    ``max_output_tokens``."""
    profile = ModelProfile(pack=QUICK_PACK, max_output_tokens=max_output_tokens, threads=2)
    return config.model_copy(
        update={"models": ModelsConfig(profiles={"local": profile}, validation_retries=0)}
    )


def parsed_with_model(
    parser: argparse.ArgumentParser, tasks: tuple[int, int], quick_tokens: int
) -> tuple[argparse.Namespace, PcAgentConfig]:
    """The options every such script takes (``--tasks SEED:COUNT``, ``--json``, ``--quick``)
    added to ``parser``, parsed, and the configuration to ask models with: with ``--quick``,
    one task of the seed and the tiny model."""
    parser.add_argument("--tasks", type=seed_and_count, default=tasks)
    parser.add_argument("--json", action="store_true", help="accepted: the output is JSON")
    add_quick_option(parser)
    arguments = parser.parse_args()
    config = load_config()
    if arguments.quick:
        arguments.tasks = (arguments.tasks[0], 1)
        config = with_quick_model(config, quick_tokens)
    return arguments, config


def tasks_with(
    parser: argparse.ArgumentParser,
    tasks: tuple[int, int],
    quick_tokens: int,
    kept: Callable[[Task], object],
    pool: tuple[int, int] = (50, 10),
) -> tuple[argparse.Namespace, PcAgentConfig, int, list[Task]]:
    """:func:`parsed_with_model`, then the seed and the first COUNT generated tasks of it for
    which ``kept`` is true, drawn from ``pool``: (the fewest, how many times COUNT)."""
    arguments, config = parsed_with_model(parser, tasks, quick_tokens)
    seed, count = arguments.tasks
    fewest, times = pool
    drawn = generate_tasks(max(fewest, count * times), seed)
    return arguments, config, seed, [task for task in drawn if kept(task)][:count]


def share(part: int, whole: int) -> float | None:
    """``part`` of ``whole``, to three places; None when there is no whole."""
    return round(part / whole, 3) if whole else None


def read_right_and_wrong(
    counts: tuple[int, int, int],
    goals: tuple[float, float],
    what: str,
    quick: bool,
    wrong_means: str = "gold programs changed",
) -> dict[str, object]:
    """The headline of a reading checked against gold values: the shares of ``counts``
    (right, wrong, unread) read right and read wrong, against ``goals`` (the most wrong, the
    fewest right; ``what``: what a right reading is of; ``wrong_means``: what a wrong one
    does), and the share left unread."""
    right, wrong, unread = counts
    total = right + wrong + unread
    wrong_share, right_share = share(wrong, total), share(right, total)
    most_wrong, fewest_right = goals
    met = None if not total else wrong_share <= most_wrong and right_share >= fewest_right  # type: ignore[operator]
    return {
        **headline(
            {"read_wrong_share": wrong_share, "read_right_share": right_share},
            {
                "read_wrong_share": f"at most {most_wrong}: {wrong_means}",
                "read_right_share": f"at least {fewest_right}: {what} read right",
            },
            met,
            quick=quick,
        ),
        "unread_share": share(unread, total),
    }


def reading_figures(
    kept: tuple[int, int], raw: tuple[int, int], took: list[float]
) -> dict[str, float | None]:
    """The figures of a model's reading checked by code: the precision of what code kept and
    of the model's answer as it came (``(right, total)`` each), their ratio, and the median
    seconds a reading took."""
    kept_precision, raw_precision = share(*kept), share(*raw)
    ratio = round(kept_precision / raw_precision, 2) if kept_precision and raw_precision else None
    return {
        "kept_precision": kept_precision,
        "raw_precision_baseline": raw_precision,
        "precision_ratio_to_baseline": ratio,
        "seconds_per_reading_median": round(statistics.median(took), 1) if took else None,
    }


def found_and_doubted(
    found: str, found_share: float | None, counts: str, doubted_share: float | None, quick: bool
) -> dict[str, object]:
    """The headline of a reading checked against gold programs: the share ``found`` (what it
    ``counts``, in words) at least :data:`GOAL_FOUND`, and the share of gold programs the
    check would doubt at most :data:`GOAL_FALSE_ALARMS`."""
    met = (
        None
        if found_share is None or doubted_share is None
        else found_share >= GOAL_FOUND and doubted_share <= GOAL_FALSE_ALARMS
    )
    return headline(
        {found: found_share, "gold_programs_doubted_share": doubted_share},
        {
            found: f"at least {GOAL_FOUND}: {counts}",
            "gold_programs_doubted_share": f"at most {GOAL_FALSE_ALARMS}: right programs the "
            "check would doubt",
        },
        met,
        quick=quick,
    )
