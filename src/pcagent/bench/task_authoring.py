"""Writing benchmark tasks by hand: a skeleton that validates, the checkers with their
parameters, and a check of task files that says what each sub-goal will check.

A task is data (:mod:`pcagent.bench.tasks`); these helpers serve ``pcagent bench new``,
``pcagent bench checkers`` and ``pcagent bench validate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic_core import PydanticUndefined

from pcagent.bench.checker_types import Checker
from pcagent.bench.checkers import builtin_library
from pcagent.bench.tasks import Task, TaskDefinitionError, load_task

#: A task id is also its file's name: letters, digits, - and _, starting with a letter or digit.
TASK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")

_SKELETON = """\
# A pcagent benchmark task (docs/bench.md, "A task"). Check it with: pcagent bench validate {folder}
id: {task_id}
instruction: >-
  In the text editor, write the line "Hello from pcagent" into a new file and save it as
  hello.txt in the Documents folder.
apps: [text_editor]            # applications the task uses: {apps}
fixtures:
  files: []                    # e.g. - {{path: Documents/notes.txt, text: "..."}}
  # open: [{{app: text_editor, file: Documents/notes.txt}}]   applications open at the start
  # services: [web, mail]      offline websites, an SMTP sink and a mail profile
subtasks:                      # how a person would split the task
  - {{id: s1, app: text_editor, description: "Write the line into hello.txt and save it"}}
nodes:                         # the sub-goals; pcagent bench checkers lists every checker
  - id: saved
    subtask: s1
    checker: text_file_contains
    params: {{path: Documents/hello.txt, texts: ["Hello from pcagent"]}}
# Reference solutions are optional; a task runs with the ones it has
# (bench run --agent reference needs reference, --agent reference-api needs reference_api).
# reference:                   # through the GUI: typed actions, clicks on named elements, waits
#   - action: {{kind: open_app, app: text_editor}}
#   - action: {{kind: type, text: "Hello from pcagent"}}
#   - action: {{kind: hotkey, keys: [ctrl, s]}}
#   - wait_for: Save As
# reference_api:               # with application actions where one fits
#   - action: {{kind: editor_save_as, path: Documents/hello.txt}}
"""


def task_skeleton(task_id: str, folder: Path) -> str:
    """The text of a new task file ``task_id``: a one-application task that validates, with
    every other field shown in comments. :class:`TaskDefinitionError` for an id that cannot be a
    file name."""
    if not TASK_ID.fullmatch(task_id):
        raise TaskDefinitionError(
            f"task id {task_id!r}: use letters, digits, - and _ (it is also the file's name)"
        )
    from pcagent.env.apps import APPS

    text = _SKELETON.format(task_id=task_id, folder=folder, apps=", ".join(APPS))
    load_task(text, f"{task_id}.yaml")  # the skeleton itself must stay a valid task
    return text


def write_task_skeleton(task_id: str, folder: Path) -> Path:
    """Write ``folder/task_id.yaml``; an existing file is never overwritten."""
    text = task_skeleton(task_id, folder)
    target = folder / f"{task_id}.yaml"
    if target.exists():
        raise TaskDefinitionError(f"{target} exists already; choose another id or folder")
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


@dataclass(frozen=True)
class CheckerParameter:
    """One parameter of a checker as a task file gives it."""

    name: str
    type: str
    required: bool
    default: Any = None

    def __str__(self) -> str:
        if self.required:
            return f"{self.name}: {self.type}"
        return f"{self.name}: {self.type} = {self.default!r}"


def type_name(annotation: Any) -> str:
    """``list[str]``, ``int``, ``dict[str, str]``: a parameter's type as a task author reads it."""
    origin = get_origin(annotation)
    if origin is not None:
        arguments = ", ".join(
            "..." if a is Ellipsis else type_name(a) for a in get_args(annotation)
        )
        return f"{getattr(origin, '__name__', str(origin))}[{arguments}]"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def checker_parameters(checker: Checker) -> list[CheckerParameter]:
    """The parameters ``checker`` takes, in its function's order."""
    return [
        CheckerParameter(
            name,
            type_name(field.annotation),
            field.is_required(),
            None if field.default is PydanticUndefined else field.default,
        )
        for name, field in checker.parameters.model_fields.items()
    ]


def checker_summary(checker: Checker) -> str:
    """The checker's one-line description, without the markup of its docstring."""
    return checker.description.replace("``", "")


def all_checkers() -> list[Checker]:
    """Every built-in checker, by name."""
    library = builtin_library()
    return [library.get(name) for name in library.names()]


@dataclass(frozen=True)
class CheckedFile:
    """One task file checked: its task, or the problem that made it invalid."""

    path: Path
    task: Task | None
    problem: str = ""


def task_files(target: Path) -> list[Path]:
    """The task files ``target`` names: itself when it is a file, else its ``*.yaml`` files.
    :class:`TaskDefinitionError` when there is nothing to check."""
    if target.is_file():
        return [target]
    if not target.is_dir():
        raise TaskDefinitionError(f"no task file or folder {target}")
    files = sorted(target.glob("*.yaml"))
    if not files:
        raise TaskDefinitionError(f"no task files (*.yaml) in {target}")
    return files


def check_task_files(target: Path) -> list[CheckedFile]:
    """Every task file under ``target`` validated on its own (one bad file does not hide the
    others); two files with one id make the second one invalid."""
    checked: list[CheckedFile] = []
    seen: dict[str, Path] = {}
    for path in task_files(target):
        try:
            task = load_task(path.read_text(encoding="utf-8"), path.name)
        except (TaskDefinitionError, UnicodeDecodeError, OSError) as error:
            checked.append(CheckedFile(path, None, str(error)))
            continue
        if task.id in seen:
            problem = f"task file {path.name}: id {task.id} is also the id in {seen[task.id].name}"
            checked.append(CheckedFile(path, None, problem))
            continue
        seen[task.id] = path
        checked.append(CheckedFile(path, task))
    return checked
