"""Reading recorded runs in the terminal: ``pcagent runs list`` and ``pcagent runs show``.

These commands only read the run store, so they live apart from the ones that start a desktop
(:mod:`.runs`, :mod:`.run_command`); :mod:`.runs` registers them on the ``runs`` group.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.cli.run_launch import RunIdArgument, console
from pcagent.cli.run_output import step_markup
from pcagent.config import load_config

if TYPE_CHECKING:
    from pcagent.runtime.record.models import RunRecord, StepRecord

#: How a run's outcome reads in the terminal: what was checked.
OUTCOME_WORDS = {
    "finished": "every subtask's effect checked",
    "unverified": "done by the agents' word, not every effect checked",
}


def print_step(record: StepRecord) -> None:
    """One line per step (see :func:`~pcagent.cli.run_output.step_markup`)."""
    console.print(step_markup(record))


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


@reports_errors
def list_runs(
    limit: Annotated[int, typer.Option(help="How many runs, newest first.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The most recent runs."""
    from pcagent.runtime.record.store import RunStore

    with RunStore(load_config().runs_dir) as store:
        runs = store.list_runs(limit)
    if as_json:
        print(json.dumps([run.model_dump(mode="json") for run in runs], indent=1))
        return
    console.print(runs_table(runs, console.width))


def runs_table(runs: list[RunRecord], width: int) -> Table:
    """The runs as a table ``width`` characters wide that keeps each run id whole (the value to
    copy into the next command) and cuts a long instruction with an ellipsis; the model column
    only where it leaves the instruction room (``runs show`` names the models too)."""
    columns = {
        "run": max((len(run.run_id) for run in runs), default=3),
        "started (UTC)": 16,
        "status": max((len(run.status) for run in runs), default=6),
        "steps": max((len(str(run.steps)) for run in runs), default=5),
        "tokens": max((len(str(run.tokens)) for run in runs), default=6),
    }
    models = [_models_of(run) for run in runs]
    model_width = max(len("model"), *(len(text) for text in models))
    # Between two columns: a space of padding on each side of a one-space rule.
    used = sum(max(content, len(name)) + 3 for name, content in columns.items())
    if width - used - model_width - 3 >= _INSTRUCTION_ROOM:
        columns["model"] = model_width
        used += model_width + 3
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name, content in columns.items():
        table.add_column(name, no_wrap=True, min_width=max(content, len(name)))
    table.add_column(
        "instruction", no_wrap=True, overflow="ellipsis", max_width=max(12, width - used)
    )
    for run, model in zip(runs, models, strict=True):
        cells = [run.run_id, _when(run.created_at), run.status, str(run.steps), str(run.tokens)]
        if "model" in columns:
            cells.append(escape(model))
        table.add_row(*cells, escape(" ".join(run.instruction.split())))
    return table


#: The fewest characters of the instruction worth a narrower table than the model column makes.
_INSTRUCTION_ROOM = 30


def _models_of(run: RunRecord) -> str:
    """The model names the run's roles asked, each once."""
    return ", ".join(dict.fromkeys(m.model for m in run.models.values())) or "-"


@reports_errors
def show_run(
    run_id: RunIdArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A run's plan, steps and events."""
    from pcagent.runtime.record.events import PlanEvent
    from pcagent.runtime.record.store import RunStore

    with RunStore(load_config().runs_dir) as store:
        run = store.get_run(run_id)
        steps = store.steps(run.run_id)
        events = store.events(run.run_id)
        folder = store.run_dir(run.run_id)
    if as_json:
        print(
            json.dumps(
                {
                    "run": run.model_dump(mode="json"),
                    "steps": [
                        s.model_dump(mode="json", exclude={"state", "listing"}) for s in steps
                    ],
                    "events": [e.model_dump(mode="json") for e in events],
                },
                indent=1,
            )
        )
        return
    console.print(f"[bold]{run.run_id}[/bold] {run.status}: {escape(run.instruction)}")
    if run.status in OUTCOME_WORDS:
        console.print(f"  outcome: {run.status} ({OUTCOME_WORDS[run.status]})")
    for line in _model_lines(run):
        console.print(f"  {escape(line)}")
    if run.settings.get("code"):
        console.print(f"  code: {escape(str(run.settings['code']))}")
    if run.parent_run:
        console.print(f"rewound from {run.parent_run} at step {run.parent_step}")
    for record in events:
        if isinstance(record.event, PlanEvent):
            if record.event.fallback:
                console.print(
                    "  the Manager's programs were unusable, so the whole instruction is one "
                    f"subtask: {escape(record.event.problem or 'no reason recorded')}"
                )
            for subtask in record.event.subtasks:
                mended = (
                    " [dim](the model's call as code changed it)[/dim]" if subtask.mended else ""
                )
                console.print(
                    f"  plan {subtask.id} [{escape(subtask.app or '?')}] "
                    f"{escape(subtask.description)}{mended}"
                )
                if subtask.doubt:
                    console.print(
                        f"      [yellow]kept with a doubt: {escape(subtask.doubt)}[/yellow]"
                    )
    for step in steps:
        print_step(step)
        if step.thought:
            console.print(f"      [dim]thought: {escape(step.thought[:160])}[/dim]")
        if step.reflection is not None and step.reflection.reason:
            console.print(f"      [dim]reflection: {escape(step.reflection.reason[:160])}[/dim]")
        if step.reflection is not None and step.reflection.model_verdict is not None:
            opinion = f"{step.reflection.model_verdict}: {step.reflection.model_reason[:120]}"
            console.print(f"      [dim]model's second opinion: {escape(opinion)}[/dim]")
    for record in events:
        if isinstance(record.event, PlanEvent):
            continue
        details = record.event.model_dump_json(exclude={"kind"})[:160]
        console.print(
            f"  [dim]event after step {record.step}: {record.kind} {escape(details)}[/dim]"
        )
    console.print(f"summary: {escape(run.summary or '-')}   files: {folder}")


def _model_lines(run: RunRecord) -> list[str]:
    """The models that answered the run's agents, one line per model with its roles."""
    roles: dict[tuple[str, str], list[str]] = {}
    for role, model in run.models.items():
        roles.setdefault((model.model, model.profile), []).append(role)
    return [
        f"model {name}" + (f" (profile {profile})" if profile else "") + f": {', '.join(names)}"
        for (name, profile), names in roles.items()
    ]
