"""Training tasks composed from sub-task templates (CRAB's sub-task composition).

The 25 built-in tasks measure; agents that learn from experience need many more tasks of the
same kind to practise on. Here a task is composed from one to three sub-task templates
(:mod:`~pcagent.bench.generate.catalogue`), values flowing from one sub-task to the next, with its
checkers' expected values, fixtures and both reference solutions generated with it
(:mod:`~pcagent.bench.generate.composer`), and written as ordinary task files
(:mod:`~pcagent.bench.generate.task_files`) that ``pcagent bench run --tasks-dir`` runs.
"""

from __future__ import annotations

from pcagent.bench.generate.catalogue import TEMPLATES, template_named
from pcagent.bench.generate.composer import (
    MAX_COUNT,
    TaskGenerationError,
    compose_task,
    generate_tasks,
)
from pcagent.bench.generate.task_files import task_yaml, write_task_files

__all__ = [
    "MAX_COUNT",
    "TEMPLATES",
    "TaskGenerationError",
    "compose_task",
    "generate_tasks",
    "task_yaml",
    "template_named",
    "write_task_files",
]
