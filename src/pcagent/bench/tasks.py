"""Benchmark tasks as data: instruction, fixtures, subtasks, a graph of checked sub-goals, and a
reference solution.

One YAML file per task in ``pcagent/bench/tasks/``. A task needs no Python unless it needs a new
kind of check (then add a checker to the library). :func:`load_tasks` validates every file:
unknown checkers, bad checker parameters, unknown apps, sub-goal cycles and dangling references
are errors with the file name, found before anything runs.

The task format itself (fields, checks across them) is in :mod:`pcagent.bench.task_model`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from pcagent.bench.task_model import (
    DEFAULT_ENVIRONMENT,
    AttachmentSpec,
    DocumentSpec,
    FileFixture,
    Fixtures,
    MessageFixture,
    OpenApp,
    ReferenceStep,
    SubGoal,
    SubtaskSpec,
    Task,
    TaskDefinitionError,
    WorkbookSpec,
)
from pcagent.errors import PcAgentError

__all__ = [
    "DEFAULT_ENVIRONMENT",
    "MAX_TASK_NESTING",
    "MAX_TASK_VALUES",
    "AttachmentSpec",
    "DocumentSpec",
    "FileFixture",
    "Fixtures",
    "MessageFixture",
    "OpenApp",
    "ReferenceStep",
    "SubGoal",
    "SubtaskSpec",
    "Task",
    "TaskDefinitionError",
    "WorkbookSpec",
    "cross_tasks_folder",
    "load_cross_tasks",
    "load_reworded_tasks",
    "load_task",
    "load_task_folder",
    "load_tasks",
    "reworded_tasks_folder",
    "same_task_in_other_words",
    "select_tasks",
    "task_problems",
]


#: A task file needs a handful of levels (task → sub-goals → parameters → a list); much deeper
#: nesting is a broken or hostile file, refused before anything walks it.
MAX_TASK_NESTING = 32
#: The largest built-in task has under 200 values; YAML aliases can make a short file expand to
#: billions (each ``*alias`` repeats a whole list), which would hang validation.
MAX_TASK_VALUES = 50_000


def _shape_problem(value: object) -> str | None:
    """Why ``value`` is too deep or too large to be a task, or None. Walks without recursion and
    stops at the first limit, so a hostile file costs at most :data:`MAX_TASK_VALUES` steps."""
    pending, count = [(value, 1)], 0
    while pending:
        item, level = pending.pop()
        count += 1
        if level > MAX_TASK_NESTING:
            return (
                f"nested more than {MAX_TASK_NESTING} levels deep; a task needs a few (task, "
                "sub-goals, parameters, lists)"
            )
        if count > MAX_TASK_VALUES:
            return (
                f"more than {MAX_TASK_VALUES} values once its aliases are expanded; a task has "
                "a few hundred"
            )
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        pending.extend((child, level + 1) for child in children)
    return None


def task_problems(error: ValidationError) -> str:
    """A task's validation errors as ``place: problem; ...``: ``nodes.2.checker: Field
    required``, or the sentence of a check across fields, without pydantic's type codes and
    documentation links."""
    problems = []
    for item in error.errors(include_url=False):
        message = str(item["msg"]).removeprefix("Value error, ")
        place = ".".join(str(part) for part in item["loc"])
        problems.append(f"{place}: {message}" if place else message)
    return "; ".join(problems)


def load_task(text: str, name: str) -> Task:
    """Parse and validate one task file. Any problem, a YAML error, a file nested too deeply or
    expanding too far included, is a :class:`TaskDefinitionError` naming ``name``."""
    try:
        data = yaml.safe_load(text)
    except RecursionError:
        raise TaskDefinitionError(
            f"task file {name}: nested too deeply to read (a task needs a few levels)"
        ) from None
    except yaml.YAMLError as error:
        raise TaskDefinitionError(f"task file {name}: {error}") from error
    problem = _shape_problem(data)
    if problem is not None:
        raise TaskDefinitionError(f"task file {name}: {problem}")
    if not isinstance(data, dict):
        raise TaskDefinitionError(
            f"task file {name}: a task is a mapping of fields (id, instruction, apps, subtasks, "
            "nodes...); this file holds none"
        )
    try:
        return Task.model_validate(data)
    except ValidationError as error:
        # One line per problem with its place in the file, not pydantic's text and links.
        raise TaskDefinitionError(f"task file {name}: {task_problems(error)}") from None
    except (PcAgentError, ValueError) as error:
        raise TaskDefinitionError(f"task file {name}: {error}") from error


@cache
def load_tasks() -> dict[str, Task]:
    """Every built-in task (the 25 of PC-Eval), by id, in file order."""
    return _load_package_folder("tasks")


@cache
def load_cross_tasks() -> dict[str, Task]:
    """The built-in cross-environment tasks (``xe01``…), each spanning two desktops, by id. They
    live in their own folder so that the PC-Eval set stays the 25 it measures."""
    return _load_package_folder("tasks_cross")


def cross_tasks_folder() -> Path:
    """The folder of the built-in cross-environment task files (a benchmark run of them records
    it as its task folder, so reports find the tasks and keep them out of PC-Eval's tables)."""
    return Path(str(resources.files("pcagent.bench").joinpath("tasks_cross")))


@cache
def load_reworded_tasks() -> dict[str, Task]:
    """The built-in rewording set (``pc01r1``, ``pc01r2``…): each of the 25 tasks twice, its
    instruction in other words and all else the same, each naming the task it rewords in
    ``rewords``. For development: a change that helps on the 25 and not on their rewordings
    learnt the words, not the task."""
    return _load_package_folder("tasks_reworded")


def reworded_tasks_folder() -> Path:
    """The folder of the built-in rewording set (what ``bench run --tasks-dir`` takes)."""
    return Path(str(resources.files("pcagent.bench").joinpath("tasks_reworded")))


def same_task_in_other_words(task: Task) -> list[Task]:
    """``task``, the built-in task it rewords and every built-in rewording of that task (or of
    ``task`` itself), ``task`` first: a leakage check treats them as one task. Just ``task``
    for a task of its own (a generated one)."""
    original = task.rewords or task.id
    built_in = load_tasks()
    family = {task.id: task}
    if original in built_in:
        family.setdefault(original, built_in[original])
        for rewording in load_reworded_tasks().values():
            if rewording.rewords == original:
                family.setdefault(rewording.id, rewording)
    return list(family.values())


def _load_package_folder(name: str) -> dict[str, Task]:
    folder = resources.files("pcagent.bench").joinpath(name)
    tasks: dict[str, Task] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            task = load_task(entry.read_text("utf-8"), entry.name)
            if task.id in tasks:
                raise TaskDefinitionError(f"task id {task.id} appears twice ({entry.name})")
            tasks[task.id] = task
    return tasks


def _natural_order(path: Path) -> list[int | str]:
    """``gen-7-2.yaml`` before ``gen-7-10.yaml``: numbers in names compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


def load_task_folder(folder: Path) -> dict[str, Task]:
    """Every task file (``*.yaml``) in ``folder``, by id, in file-name order (numbers as
    numbers): generated training tasks (``pcagent bench generate``) or any other set written in
    the built-in format.

    Raises :class:`TaskDefinitionError` when the folder is missing, holds no task file, a file
    is invalid (naming it), or two files share an id.
    """
    if not folder.is_dir():
        raise TaskDefinitionError(f"no task folder {folder}; give a folder of task .yaml files")
    tasks: dict[str, Task] = {}
    for path in sorted(folder.glob("*.yaml"), key=_natural_order):
        task = load_task(path.read_text("utf-8"), path.name)
        if task.id in tasks:
            raise TaskDefinitionError(f"task id {task.id} appears twice ({path.name})")
        tasks[task.id] = task
    if not tasks:
        raise TaskDefinitionError(f"no task files (*.yaml) in {folder}")
    return tasks


def select_tasks(
    ids: list[str] | None, folder: Path | None = None, *, cross: bool = False
) -> list[Task]:
    """The tasks with these ids (all when None), from the built-in set, the built-in
    cross-environment set (``cross``) or, given ``folder``, the task files there; the error
    lists the known ids."""
    if cross and folder is not None:
        raise TaskDefinitionError("choose the cross-environment tasks or a task folder, not both")
    if folder is not None:
        tasks = load_task_folder(folder)
    else:
        tasks = load_cross_tasks() if cross else load_tasks()
    if not ids:
        return list(tasks.values())
    unknown = [i for i in ids if i not in tasks]
    if unknown:
        raise TaskDefinitionError(f"unknown tasks {unknown}; known: {', '.join(tasks)}")
    return [tasks[i] for i in ids]
