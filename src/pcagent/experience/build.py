"""Recorded runs become a page graph (PG-Agent), and runs and training tasks long-term program
memory (COLA).

For each step of a run that succeeded, the screen before the action and the screen before the
next action (the screen after) are compared: when the action led to a different page (another
window or dialog, other controls, a much changed picture), the new screen is matched to a node
of the same application and kind of title whose summary embeds close enough (and, between
fairly close ones, whose picture agrees), or becomes a new node.
The action becomes an edge between them, named by its target's role and label, with the subtask
it served. The program of a run that finished with every step checked (status ``finished``)
goes into long-term memory with its instruction; so does each training task's gold program
(:class:`ProgramExample`, from ``pcagent bench generate``), checked against the skills first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol

import numpy as np

from pcagent import actions as act
from pcagent.agents.plan import PLACEHOLDER, SubtaskSpec
from pcagent.agents.program import GUI, Program, ProgramStep, check_program, is_reference
from pcagent.errors import PlanError
from pcagent.experience.graph import (
    ExperienceError,
    PageEdge,
    PageGraph,
    PageNode,
    PlanMemory,
    SourceRun,
)
from pcagent.experience.screens import (
    Screen,
    describe_action,
    hash_distance,
    is_new_page,
    picture_hash,
    title_key,
)
from pcagent.runtime.record.database import DATABASE_FILE
from pcagent.runtime.record.events import PlanEvent, ReplanEvent
from pcagent.runtime.record.models import RunRecord, StepRecord
from pcagent.runtime.record.store import RunStore
from pcagent.skills import SkillCatalog, default_catalog

#: Two summaries this close are one page whatever the pictures say.
SAME_PAGE_COSINE = 0.95
#: Between this and SAME_PAGE_COSINE, the pictures decide.
MAYBE_SAME_PAGE_COSINE = 0.85
#: Picture hashes within this many bits agree.
SAME_PICTURE_BITS = 12
#: Actions that change nothing on screen and teach no way through the GUI.
_NOT_EDGES = (act.Wait, act.Done, act.Fail, act.Answer, act.AskHuman)


class TextEncoder(Protocol):
    """A sentence-embedding model: unit-length rows, one per text."""

    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class ProgramExample:
    """A training task's instruction and gold program, for program memory: ``apps`` are the
    task's applications (its program is checked against them)."""

    task_id: str
    instruction: str
    apps: tuple[str, ...]
    program: tuple[ProgramStep, ...]


def run_succeeded(run: RunRecord) -> bool:
    """Whether a run may teach: graded runs by their grade (``settings["graded_success"]``, set
    by the benchmark), others when the agents finished the task."""
    graded = run.settings.get("graded_success")
    if graded is not None:
        return bool(graded)
    return run.status == "finished"


@dataclass
class GraphBuilder:
    """Adds runs to a graph, one at a time, embedding as it goes."""

    encoder: TextEncoder
    model: str
    graph: PageGraph = field(init=False)

    def __post_init__(self) -> None:
        self.graph = PageGraph(model=self.model)

    def add_run(self, store: RunStore, run: RunRecord, task_id: str = "") -> int:
        """Add one run's transitions, and its program when the run finished with every step
        checked; returns the number of edges it contributed."""
        steps = store.steps(run.run_id)
        if not steps:
            return 0
        subtasks = _subtasks_of(store, run.run_id)
        screens = [Screen.of(s.front_app, s.window, s.listing) for s in steps]
        vectors = self.encoder.encode([screen.summary() for screen in screens])
        pictures = [_picture(store, run.run_id, s.step) for s in steps]
        nodes = [self._node_for(screens[0], vectors[0], pictures[0])]
        for index in range(1, len(steps)):
            before, after = pictures[index - 1], pictures[index]
            distance = None if before is None or after is None else hash_distance(before, after)
            if is_new_page(screens[index - 1], screens[index], distance):
                nodes.append(self._node_for(screens[index], vectors[index], after))
            else:  # the same page, changed a little (text typed, an item selected)
                nodes.append(nodes[-1])
        added = 0
        for index, step in enumerate(steps[:-1]):
            if not _teaches(step):
                continue
            assert step.action is not None
            description = subtasks.get(step.subtask_id, SubtaskSpec(id="-", description="-"))
            self.graph.add_edge(
                PageEdge(
                    source=nodes[index].id,
                    target=nodes[index + 1].id,
                    action=describe_action(step.action, step.listing),
                    subtask=description.description,
                    new_page=nodes[index].id != nodes[index + 1].id,
                )
            )
            added += 1
        self._remember_texts({s.description for s in subtasks.values()})
        plan = [
            subtasks[key] for key in dict.fromkeys(s.subtask_id for s in steps) if key in subtasks
        ]
        # Only a verified run teaches a program: "unverified" ended on the agents' word.
        if plan and run.status == "finished":
            self.graph.plans.append(
                PlanMemory(
                    instruction=run.instruction,
                    program=program_of_plan(plan),
                    run_id=run.run_id,
                    embedding=self.encoder.encode([run.instruction])[0],
                    task_id=task_id,
                )
            )
        self.graph.sources.append(
            SourceRun(run.run_id, str(store.root), run.instruction, task_id, len(steps))
        )
        return added

    def add_programs(
        self, examples: Sequence[ProgramExample], catalog: SkillCatalog | None = None
    ) -> int:
        """Add training tasks' gold programs to program memory, each checked with
        :func:`~pcagent.agents.program.check_program` against ``catalog`` (default: every
        skill) and the task's applications first; returns how many were added.

        Raises :class:`ExperienceError` naming the task whose program is not valid."""
        skills = catalog if catalog is not None else default_catalog()
        for example in examples:
            try:
                check_program(Program(steps=list(example.program)), skills, example.apps)
            except PlanError as error:
                raise ExperienceError(
                    f"task {example.task_id}'s program is not valid: {error}"
                ) from None
        vectors = self.encoder.encode([e.instruction for e in examples]) if examples else []
        for example, vector in zip(examples, vectors, strict=True):
            self.graph.plans.append(
                PlanMemory(
                    instruction=example.instruction,
                    program=list(example.program),
                    run_id="",
                    embedding=np.asarray(vector, dtype=np.float32),
                    task_id=example.task_id,
                )
            )
        return len(examples)

    def _node_for(self, screen: Screen, vector: np.ndarray, picture: int | None) -> PageNode:
        best: tuple[float, PageNode] | None = None
        key = title_key(screen.title)
        for node in self.graph.nodes:
            if node.app != screen.app or title_key(node.title) != key:
                continue
            cosine = float(np.dot(node.embedding, vector))
            if best is None or cosine > best[0]:
                best = (cosine, node)
        if best is not None:
            cosine, node = best
            pictures_agree = (
                node.picture is not None
                and picture is not None
                and hash_distance(node.picture, picture) <= SAME_PICTURE_BITS
            )
            if cosine >= SAME_PAGE_COSINE or (cosine >= MAYBE_SAME_PAGE_COSINE and pictures_agree):
                node.visits += 1
                return node
        node = PageNode(
            id=len(self.graph.nodes) + 1,
            app=screen.app,
            title=screen.title,
            labels=screen.labels,
            picture=picture,
            visits=1,
            embedding=np.asarray(vector, dtype=np.float32),
        )
        self.graph.nodes.append(node)
        return node

    def _remember_texts(self, texts: set[str]) -> None:
        new = sorted(t for t in texts if t not in self.graph.subtask_texts)
        if new:
            for text, vector in zip(new, self.encoder.encode(new), strict=True):
                self.graph.subtask_texts[text] = np.asarray(vector, dtype=np.float32)


def _written_arguments(skill: str, args: Mapping[str, object]) -> Mapping[str, object]:
    """``args`` as a model may write them for ``skill``: the mends' own (an extraction's
    ``uses``) are left out of what memory keeps, which the Manager is shown as programs a model
    wrote; a skill no catalog has keeps all of them."""
    catalog = _catalog()
    return catalog.get(skill).written_by_a_model(args) if skill in catalog else args


@cache
def _catalog() -> SkillCatalog:
    return default_catalog()


def program_of_plan(subtasks: Sequence[SubtaskSpec]) -> list[ProgramStep]:
    """A run's plan (its subtasks as :func:`~pcagent.agents.program.program_plan` made them)
    as the program it came from: a subtask with a skill is that skill's call, any other a GUI
    step whose ``uses`` are the earlier steps its description shows (``[s2: {s2}]``). Steps
    are numbered ``s1``… in order and references follow (a re-plan's ids may be anything)."""
    ids = {subtask.id: f"s{number}" for number, subtask in enumerate(subtasks, start=1)}
    steps: list[ProgramStep] = []
    for subtask in subtasks:
        earlier = list(ids)[: len(steps)]
        if subtask.skill:
            written = _written_arguments(subtask.skill, subtask.args)
            steps.append(
                ProgramStep(
                    id=ids[subtask.id],
                    skill=subtask.skill,
                    args={k: _renamed(v, ids) for k, v in written.items()},
                    environment=subtask.environment,
                )
            )
            continue
        uses = [name for name in subtask.placeholders() if name in earlier]
        task = subtask.description
        for name in uses:
            task = task.replace(f" [{name}: {{{name}}}]", "")
        steps.append(
            ProgramStep(
                id=ids[subtask.id],
                skill=GUI,
                app=subtask.app,
                task=PLACEHOLDER.sub(lambda m: f"{{{ids.get(m[1], m[1])}}}", task),
                uses=[ids[name] for name in uses][:8],
                outputs=list(subtask.outputs),
                environment=subtask.environment,
            )
        )
    return steps


def _renamed(value: object, ids: dict[str, str]) -> object:
    if is_reference(value):
        renamed = {**value, "from": ids.get(value["from"], value["from"])}  # type: ignore[dict-item,index]
        return renamed
    if isinstance(value, dict):
        return {k: _renamed(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, ids) for v in value]
    return value


def _teaches(step: StepRecord) -> bool:
    """A step whose action ran, did what Reflection expected, and moves through the GUI."""
    if step.action is None or isinstance(step.action, _NOT_EDGES):
        return False
    if step.result is None or not step.result.ok or step.result.refused:
        return False
    return step.reflection is None or not step.reflection.failed


def _subtasks_of(store: RunStore, run_id: str) -> dict[str, SubtaskSpec]:
    """The run's subtasks by id: the first plan and every re-plan's additions."""
    found: dict[str, SubtaskSpec] = {}
    for record in store.events(run_id):
        if isinstance(record.event, PlanEvent | ReplanEvent):
            for subtask in record.event.subtasks:
                found[subtask.id] = subtask
    return found


def _picture(store: RunStore, run_id: str, step: int) -> int | None:
    path = store.screenshot_path(run_id, step)
    if not path.is_file():
        return None
    from PIL import Image

    with Image.open(path) as image:
        return picture_hash(image)


def build_graph(
    encoder: TextEncoder,
    model: str,
    stores: Sequence[Path],
    *,
    include: Callable[[RunRecord], bool] = run_succeeded,
    progress: Callable[[str], None] = lambda _: None,
    examples: Sequence[ProgramExample] = (),
) -> PageGraph:
    """A graph from every run in the record folders ``stores`` that ``include`` accepts (by
    default: runs that succeeded), with program memory from the runs that finished verified and
    from ``examples`` (training tasks' gold programs)."""
    builder = GraphBuilder(encoder, model)
    if examples:
        added = builder.add_programs(examples)
        progress(f"{added} programs of training tasks")
    for folder in stores:
        if not (folder / DATABASE_FILE).is_file():
            raise ExperienceError(f"no run records in {folder} (no {DATABASE_FILE} there)")
        store = RunStore(folder)
        try:
            runs = [run for run in store.list_runs(limit=1_000_000) if include(run)]
            for number, run in enumerate(sorted(runs, key=lambda r: r.created_at), start=1):
                task_id = str(run.settings.get("task_id") or run.settings.get("bench_task") or "")
                edges = builder.add_run(store, run, task_id)
                progress(f"[{number}/{len(runs)}] {run.run_id} {task_id}: {edges} transitions")
        finally:
            store.close()
    return builder.graph
