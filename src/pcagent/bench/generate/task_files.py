"""Writing generated tasks as task files that load exactly like the built-in ones."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

from pcagent.agents.program import is_reference
from pcagent.bench.generate.composer import TaskGenerationError
from pcagent.bench.tasks import Task, load_task


class _TaskFileDumper(yaml.SafeDumper):
    """Writes task files the way people write them: multi-line texts as ``|`` blocks, short
    lists of plain values and a program's references on one line (``keys: [ctrl, s]``,
    ``time: {from: s2, key: time}``)."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _sequence(dumper: yaml.SafeDumper, value: list[object]) -> yaml.SequenceNode:
    plain = all(isinstance(item, str | int | float) and "\n" not in str(item) for item in value)
    short = sum(len(str(item)) + 2 for item in value) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=plain and short)


def _mapping(dumper: yaml.SafeDumper, value: dict[str, object]) -> yaml.MappingNode:
    # A program's reference to an earlier step reads as one value: {from: s2, key: time}.
    return dumper.represent_mapping(
        "tag:yaml.org,2002:map", value, flow_style=True if is_reference(value) else None
    )


_TaskFileDumper.add_representer(str, _text)
_TaskFileDumper.add_representer(list, _sequence)
_TaskFileDumper.add_representer(dict, _mapping)


def task_yaml(task: Task) -> str:
    """The task as a task file's text (defaults and empty fields left out)."""
    data = task.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    data = {"id": task.id, **data}  # the id first, as in the built-in files
    return yaml.dump(data, Dumper=_TaskFileDumper, sort_keys=False, allow_unicode=True, width=100)


def write_task_files(
    tasks: Sequence[Task], folder: Path, on_written: Callable[[Path], None] | None = None
) -> list[Path]:
    """Write ``<id>.yaml`` for each task into ``folder`` (created if missing), each read back
    through :func:`~pcagent.bench.tasks.load_task` before the next is written, so a file that
    would not load is an error here, not at run time. ``on_written`` is called per file.

    Raises :class:`TaskGenerationError` when the folder cannot be created or written.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TaskGenerationError(
            f"cannot create the folder {folder}: {error.strerror or error}; choose another --out"
        ) from None
    written: list[Path] = []
    for task in tasks:
        path = folder / f"{task.id}.yaml"
        text = task_yaml(task)
        if load_task(text, path.name) != task:
            raise TaskGenerationError(f"task {task.id} does not read back as written")
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise TaskGenerationError(
                f"cannot write {path}: {error.strerror or error}; choose another --out"
            ) from None
        written.append(path)
        if on_written is not None:
            on_written(path)
    return written
