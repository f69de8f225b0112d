"""The options of ``pcagent bench run``, named so that the command's signature reads as a list.

``bench run`` takes some twenty-five options; declaring their help and limits here keeps the
command itself short enough to read in one screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pcagent.bench.ray_resources import ActorResources

AGENTS = ("pcagent", "reference", "reference-api", "noop")
#: What an actor reserves on Ray unless told otherwise.
DEFAULT_ACTOR = ActorResources()

TasksOption = Annotated[
    list[str] | None,
    typer.Option("--tasks", "-t", help="Task ids (repeatable); all by default."),
]
AgentOption = Annotated[
    str,
    typer.Option(
        metavar="[" + "|".join(AGENTS) + "]",
        help="Who does the tasks: pcagent, the task's reference solution through the GUI "
        "(reference) or with application actions (reference-api), or nobody (noop).",
    ),
]
ProfileOption = Annotated[
    str | None, typer.Option(metavar="PROFILE", help="Model profile for every agent role.")
]
ParallelOption = Annotated[int, typer.Option(help="Sandboxes side by side.", min=1, max=8)]
StepCapOption = Annotated[int | None, typer.Option("--max-steps", help="Step cap per task.")]
EnvironmentOption = Annotated[
    list[str] | None,
    typer.Option(
        "--environment",
        metavar="NAME=URL",
        help="A cross-environment task's further environment NAME is the desktop "
        "pcagent serve serves there (repeatable; default: a second local sandbox). With "
        "--ray a NAME may repeat: one served desktop per actor.",
    ),
]
EnvironmentTokenOption = Annotated[
    list[str] | None,
    typer.Option(
        "--environment-token",
        metavar="NAME=PATH",
        help="The token file of the server given for NAME with --environment.",
    ),
]
RecordToOption = Annotated[
    Path | None,
    typer.Option(
        "--record-to",
        help="Record the reference solutions (agents reference/reference-api) as runs in "
        "this folder, with their screens: what pcagent experience build learns from.",
    ),
]
ResumeOption = Annotated[
    str | None,
    typer.Option(
        "--resume",
        help="Go on with this stored benchmark run (an id, or 'latest'): only its tasks "
        "without a result run, with its agent, model, ablation, tasks and page graph.",
    ),
]
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="Run on Ray: no address (or 'local') starts a Ray instance on this machine; "
        "'auto', HOST:PORT or ray://HOST:10001 joins an existing cluster (docs/bench.md).",
    ),
]
ActorsOption = Annotated[
    int, typer.Option(help="With --ray: actors, each owning one sandbox.", min=1)
]
ActorCpusOption = Annotated[
    float, typer.Option(help="With --ray: CPUs each actor reserves.", min=0)
]
ActorMemoryOption = Annotated[
    float, typer.Option(help="With --ray: GiB of memory each actor reserves.", min=0)
]
TaskTimeoutOption = Annotated[
    float,
    typer.Option(
        help="Seconds a task may run: with --ray its actor is then ended; without, its run "
        "stops before its next step.",
        min=1,
    ),
]
AttemptsOption = Annotated[
    int,
    typer.Option(help="With --ray: starts of a task whose worker dies under it.", min=1),
]
