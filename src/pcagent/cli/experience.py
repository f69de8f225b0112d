"""``pcagent experience build|stats|show|query``: the page graph learned from recorded runs."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup

if TYPE_CHECKING:
    from pcagent.experience.build import ProgramExample

experience_app = typer.Typer(
    cls=ConventionalGroup,
    help="Build and inspect page graphs learned from recorded runs.",
    no_args_is_help=True,
)
console = Console()

GraphArgument = Annotated[Path, typer.Argument(help="The page graph file.")]


def _default_records() -> list[Path]:
    from pcagent.config import load_config

    return [load_config().runs_dir]


@experience_app.command("build")
@reports_errors
def build(
    out: Annotated[Path, typer.Option("--out", "-o", help="The page graph file to write.")],
    records: Annotated[
        list[Path] | None,
        typer.Option(
            "--records",
            "-r",
            help="A run-record folder to learn from (repeatable; default: your runs). "
            "pcagent bench run --agent reference --record-to DIR records training tasks' "
            "solutions.",
        ),
    ] = None,
    all_runs: Annotated[
        bool,
        typer.Option(
            "--all-runs",
            help="Also learn pages and actions from runs that did not succeed (programs come "
            "only from runs that finished with every step checked).",
        ),
    ] = False,
    tasks_dir: Annotated[
        list[Path] | None,
        typer.Option(
            "--tasks-dir",
            help="A folder of training task files (written by pcagent bench generate --out DIR) whose "
            "gold programs go into program memory (repeatable; tasks without one are skipped).",
        ),
    ] = None,
    generated: Annotated[
        list[str] | None,
        typer.Option(
            "--generated",
            metavar="SEED:COUNT",
            help="Generate COUNT training tasks of SEED (as pcagent bench generate does) and put "
            "their gold programs into program memory (repeatable).",
        ),
    ] = None,
    held_out: Annotated[
        list[Path] | None,
        typer.Option(
            "--held-out",
            help="A folder of task files the graph will be measured on: training tasks that "
            "share an id, instruction, file name or expected value with them are left out "
            "(repeatable).",
        ),
    ] = None,
) -> None:
    """Learn a page graph and program memory from the successful runs of run-record folders
    and the gold programs of training tasks."""
    from pcagent.config import load_config
    from pcagent.experience.build import build_graph, run_succeeded
    from pcagent.experience.embedding import SentenceEncoder
    from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK

    started = time.perf_counter()
    examples = _training_programs(tasks_dir or [], generated or [])
    if held_out:
        examples = _without_held_out(examples, held_out)
    if records is None and not examples:
        records = _default_records()
    encoder = SentenceEncoder.load(load_config().models_dir)
    graph = build_graph(
        encoder,
        DEFAULT_EMBEDDING_PACK,
        records or [],
        include=(lambda _: True) if all_runs else run_succeeded,
        progress=lambda line: console.print(f"  {escape(line)}"),
        examples=examples,
    )
    graph.save(out)
    from_tasks = sum(1 for plan in graph.plans if not plan.run_id)
    console.print(
        f"wrote {out}: {len(graph.sources)} runs, {len(graph.nodes)} pages, "
        f"{len(graph.edges)} actions, {len(graph.plans)} programs "
        f"({from_tasks} of training tasks) ({time.perf_counter() - started:.1f} s)"
    )


def _without_held_out(examples: list[ProgramExample], folders: list[Path]) -> list[ProgramExample]:
    from pcagent.bench.experience_leakage import without_held_out
    from pcagent.bench.tasks import load_task_folder

    measured = [task for folder in folders for task in load_task_folder(folder).values()]
    kept = without_held_out(examples, measured)
    console.print(
        f"  left out {len(examples) - len(kept)} of {len(examples)} training tasks that share "
        f"values with the {len(measured)} held-out tasks"
    )
    return kept


def _training_programs(folders: list[Path], generated: list[str]) -> list[ProgramExample]:
    """The gold programs of the training tasks in ``folders`` and of ``SEED:COUNT`` generated
    sets; :class:`~pcagent.errors.ConfigurationError` for a malformed ``SEED:COUNT``."""
    from pcagent.bench.generate import generate_tasks
    from pcagent.bench.tasks import load_task_folder
    from pcagent.errors import ConfigurationError
    from pcagent.experience.build import ProgramExample

    tasks = [task for folder in folders for task in load_task_folder(folder).values()]
    for spec in generated:
        seed, _, count = spec.partition(":")
        if not (seed.isdigit() and count.isdigit()):
            raise ConfigurationError(f"--generated {spec!r} is not SEED:COUNT; e.g. 11:60")
        tasks += generate_tasks(int(count), int(seed))
    return [
        ProgramExample(task.id, task.instruction, tuple(task.apps), tuple(task.program))
        for task in tasks
        if task.program is not None
    ]


@experience_app.command("stats")
@reports_errors
def stats(
    graph_file: GraphArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """How big the graph is, per application, and which runs it was built from."""
    from pcagent.experience.graph import PageGraph

    graph = PageGraph.load(graph_file)
    apps: dict[str, int] = {}
    for node in graph.nodes:
        apps[node.app] = apps.get(node.app, 0) + 1
    facts = {
        "model": graph.model,
        "runs": len(graph.sources),
        "tasks": sorted({s.task_id for s in graph.sources if s.task_id}),
        "pages": len(graph.nodes),
        "actions": len(graph.edges),
        "page_changes": sum(1 for e in graph.edges.values() if e.new_page),
        "plans": len(graph.plans),
        "plans_of_training_tasks": sum(1 for plan in graph.plans if not plan.run_id),
        "pages_per_app": dict(sorted(apps.items())),
    }
    if as_json:
        print(json.dumps(facts, indent=1))
        return
    for key, value in facts.items():
        console.print(f"{key}: {escape(str(value))}")


@experience_app.command("show")
@reports_errors
def show(
    graph_file: GraphArgument,
    app: Annotated[str | None, typer.Option(help="Only pages of this application.")] = None,
    limit: Annotated[int, typer.Option(help="Most pages shown.")] = 30,
) -> None:
    """The pages, most visited first, with the actions that leave them."""
    from pcagent.experience.graph import PageGraph

    graph = PageGraph.load(graph_file)
    out = graph.out_edges()
    by_id = {node.id: node for node in graph.nodes}
    nodes = [n for n in graph.nodes if app is None or n.app == app]
    for node in sorted(nodes, key=lambda n: -n.visits)[:limit]:
        console.print(
            f"[bold]page {node.id}[/bold] {escape(node.app)}: {escape(node.title)} "
            f"(seen {node.visits}x) controls: {escape(', '.join(node.labels[:8]))}"
        )
        for edge in out.get(node.id, [])[:6]:
            target = by_id[edge.target]
            where = f"page {target.id} {target.title}" if edge.new_page else "same page"
            console.print(
                f"    {escape(edge.action)} → {escape(where)} ({edge.count}x; "
                f"for: {escape(edge.subtask[:70])})"
            )


@experience_app.command("query")
@reports_errors
def query(
    graph_file: GraphArgument,
    app: Annotated[str, typer.Option(help="The application in front.")],
    window: Annotated[str, typer.Option(help="The title of the window in front.")] = "",
    subtask: Annotated[str, typer.Option(help="The subtask being worked on.")] = "",
    listing: Annotated[
        Path | None,
        typer.Option(help="A recorded step's listing.txt (the marks on screen)."),
    ] = None,
    instruction: Annotated[
        str | None,
        typer.Option(help="Also show the programs of earlier instructions like this one."),
    ] = None,
) -> None:
    """What a Decision agent would be told on such a screen (and the Manager for an
    instruction)."""
    from pcagent.experience.loading import open_experience
    from pcagent.experience.screens import Screen

    experience = open_experience(graph_file)
    text = listing.read_text(encoding="utf-8") if listing is not None else ""
    table = Table("page", "app", "title", "similarity")
    for node, score in experience.similar_pages(Screen.of(app, window, text), k=5):
        table.add_row(str(node.id), node.app, escape(node.title), f"{score:.2f}")
    console.print(table)
    guidance = experience.guidance(app, window, text, subtask or window)
    console.print(escape(guidance) if guidance else "(no page like this in the graph)")
    console.print(f"retrieval: {experience.timings_ms[-1]:.1f} ms")
    if instruction:
        plans = experience.similar_plans(instruction)
        # soft_wrap: a program is one line of JSON, kept whole to be copied.
        console.print(
            escape(plans) if plans else "(no similar earlier instruction)", soft_wrap=True
        )
