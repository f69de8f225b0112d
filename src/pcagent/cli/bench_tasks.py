"""``pcagent bench tasks|new|validate|checkers``: the tasks, and writing new ones as data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.errors import ConfigurationError

console = Console()

TasksDirOption = Annotated[
    Path | None,
    typer.Option(
        "--tasks-dir",
        help="A folder of task files (your own, or from bench generate) instead of the "
        "built-in tasks.",
    ),
]
CrossOption = Annotated[
    bool,
    typer.Option(
        "--cross",
        help="The built-in cross-environment tasks (xe01...), each spanning two desktops.",
    ),
]


@reports_errors
def list_tasks(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    tasks_dir: TasksDirOption = None,
    cross: CrossOption = False,
) -> None:
    """The tasks, with their applications, sub-goal counts and reference solutions."""
    from pcagent.bench.tasks import select_tasks

    tasks = select_tasks(None, tasks_dir, cross=cross)
    rows = [
        {
            "id": t.id,
            "environments": list(t.environments),
            "apps": t.apps,
            "subtasks": len(t.subtasks),
            "subgoals": len(t.nodes),
            "services": t.fixtures.services,
            "references": [
                name for name, api in (("gui", False), ("api", True)) if t.has_reference(api)
            ],
            "instruction": t.instruction,
        }
        for t in tasks
    ]
    if as_json:
        print(json.dumps(rows, indent=1))
        return
    table = Table("task", "apps", "subtasks", "sub-goals", "references", "instruction")
    for row in rows:
        table.add_row(
            row["id"],
            ", ".join(row["apps"]),
            str(row["subtasks"]),
            str(row["subgoals"]),
            ", ".join(row["references"]) or "-",
            escape(row["instruction"][:70]),
        )
    console.print(table)


@reports_errors
def new_task(
    task_id: Annotated[str, typer.Argument(help="The new task's id, also its file's name.")],
    folder: Annotated[
        Path, typer.Option("--dir", "-d", help="Folder to write TASK_ID.yaml into.")
    ] = Path("tasks"),
) -> None:
    """Write a task file to start from: a small task that validates, with every other field
    shown in comments. Run it with bench run --tasks-dir DIR -t TASK_ID."""
    from pcagent.bench.task_authoring import write_task_skeleton

    written = write_task_skeleton(task_id, folder)
    console.print(f"wrote {escape(str(written))}")
    console.print(
        f"check it with: pcagent bench validate {escape(str(folder))}\n"
        f"run it with:   pcagent bench run --tasks-dir {escape(str(folder))} -t {task_id}"
    )


@reports_errors
def validate_tasks(
    target: Annotated[Path, typer.Argument(help="A task file, or a folder of task files.")],
) -> None:
    """Check task files: each valid task with its sub-goals and their checkers' parameters,
    each invalid one with its problems. Exit status 2 when any file is invalid."""
    from pcagent.bench.task_authoring import check_task_files

    checked = check_task_files(target)
    for entry in checked:
        if entry.task is None:
            console.print(f"[red]invalid[/red] {escape(entry.problem)}", soft_wrap=True)
            continue
        task = entry.task
        references = [
            name for name, api in (("reference", False), ("reference_api", True))
            if task.has_reference(api)
        ]  # fmt: skip
        console.print(
            f"[green]valid[/green] {escape(entry.path.name)}: task {escape(task.id)}, apps "
            f"{escape(', '.join(task.apps))}, references: {', '.join(references) or 'none'}"
        )
        for node in task.nodes:
            params = ", ".join(f"{key}={value!r}" for key, value in node.params.items())
            console.print(
                f"    {escape(node.id)} ({escape(node.subtask)}): "
                f"{escape(node.checker)}({escape(params)})",
                soft_wrap=True,
            )
    invalid = sum(1 for entry in checked if entry.task is None)
    if invalid:
        raise ConfigurationError(f"{invalid} of {len(checked)} task files are invalid")


@reports_errors
def list_checkers(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The checkers a sub-goal can name, with their parameters (type, and default when one
    may be left out)."""
    from pcagent.bench.task_authoring import all_checkers, checker_parameters, checker_summary

    checkers = all_checkers()
    if as_json:
        rows = [
            {
                "name": checker.name,
                "description": checker_summary(checker),
                "parameters": [vars(p) for p in checker_parameters(checker)],
            }
            for checker in checkers
        ]
        print(json.dumps(rows, indent=1, default=str))
        return
    for checker in checkers:
        parameters = ", ".join(str(p) for p in checker_parameters(checker))
        console.print(
            f"[bold]{checker.name}[/bold]({escape(parameters)})\n    "
            f"{escape(checker_summary(checker))}",
            soft_wrap=True,
        )
