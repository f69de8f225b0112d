"""What a task's grader knows and an agent must find itself: its fixture file names and the
values its checkers expect. Training material (generated tasks, a page graph) must contain none
of the benchmark's, or a measurement on the benchmark says nothing."""

from __future__ import annotations

from typing import Any

from pcagent.bench.tasks import Task
from pcagent.bench.value_matching import normalise_text, parse_number

#: Checker parameters that hold expected values (others name files, cells, tolerances...).
VALUE_KEYS = frozenset(
    {
        "value", "texts", "city", "to", "attachment", "subject_contains", "body_contains", "rows",
        "words", "anchor", "groups", "subjects", "name", "expected", "cases", "earliest",
        "latest", "origin", "destination", "date", "return_date", "function",
    }
)  # fmt: skip


def _leaves(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in _leaves(item)]
    return [str(value)]


def expected_values(task: Task) -> set[str]:
    """Every expected value a task's checkers compare with, normalised (numbers as numbers)."""
    values: set[str] = set()
    for node in task.nodes:
        for key, value in node.params.items():
            if key in VALUE_KEYS:
                for leaf in _leaves(value):
                    number = parse_number(leaf)
                    values.add(f"{number:g}" if number is not None else normalise_text(leaf))
        if node.checker == "clock_alarm":
            values.add(f"{node.params['hour']}:{node.params['minute']:02d}")
    return values


def file_names(task: Task) -> set[str]:
    """Names of the files a task starts with or checks, case-folded."""
    names = {f.path.rsplit("/", 1)[-1] for f in task.fixtures.files}
    for message in (*task.fixtures.inbox, *task.fixtures.sent):
        names.update(a.name for a in message.attachments)
    for node in task.nodes:
        for key in ("path", "attachment", "name"):
            if isinstance(node.params.get(key), str):
                names.add(node.params[key].rsplit("/", 1)[-1])
    return {name.casefold() for name in names}
