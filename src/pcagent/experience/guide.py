"""Retrieval: what earlier runs did from a screen like this one, and plans of similar tasks.

At a Decision step the current screen is summarised and embedded, the most similar pages are
found in a vector index, and the graph is walked breadth-first from the best of them to a small
depth. Paths are ranked by how close the subtask they served is to the current subtask, and a
few become lines such as ``click tab "Alarms" → clock: Clocks (achieved: Add an alarm at #:#)``
(what was achieved is shown with its numbers, files and addresses blanked: they were another
task's, and a small model copies what it reads).
The Manager gets the programs of the most similar earlier instructions, as JSON in its own
program format, so that it can copy their shape (the skills, the order, the references).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pcagent.agents.manager_memory import Example, shown_examples
from pcagent.agents.program import ProgramStep, reference_values
from pcagent.experience.build import TextEncoder
from pcagent.experience.graph import ExperienceError, PageEdge, PageGraph, PageNode, stacked
from pcagent.experience.screens import Screen, title_shape
from pcagent.text import shortened

#: A page at least this similar to the current screen counts as "a page like this".
MIN_PAGE_COSINE = 0.75
#: An earlier instruction at least this similar lends its program to the Manager. Requests of
#: no kind pcagent does (the weather on Mars, a joke, music) score 0.16-0.22 against 300
#: training programs with MiniLM; a long task of several applications scores 0.26-0.72 with its
#: nearest, most often below 0.5, and is still shown how a task with its applications and
#: skills is written (0.55 showed a program to 8 of the 25 tasks; the Manager then wrote,
#: unaided, text-file skills for a spreadsheet). Measured 2026-11-26, docs/experience.md.
MIN_PLAN_COSINE = 0.3
#: Programs shown to the Manager (the nearest instructions').
PLANS_SHOWN = 3
#: A literal text in a shown program longer than this is cut (a note's text, a mail's body): the
#: program's shape is what is shown, and three programs must stay a few hundred tokens.
MAX_SHOWN_TEXT = 80
#: Items of a literal list shown (rows of cells, files); the rest are left out.
MAX_SHOWN_ITEMS = 6
#: A GUI step's task shown is cut to this many characters.
MAX_SHOWN_TASK = 200
#: An instruction shown is cut to this many characters.
MAX_SHOWN_INSTRUCTION = 600
#: Pages like the current one that walks start from.
START_PAGES = 3
#: Lines of guidance given to Decision (each a path of at most ``depth`` actions).
MAX_LINES = 5
MAX_DEPTH = 2
#: Of those, lines whose last action stays on the page (typing, selecting).
MAX_SAME_PAGE = 2
#: Screen summaries whose embeddings are kept (the oldest goes first).
SCREEN_CACHE = 256
#: Edges followed out of each page, the most relevant to the current subtask first.
MAX_BRANCH = 12
#: Pages looked up in the index before keeping the current application's (enough that other
#: applications' pages cannot crowd them out; an exact search costs the same either way).
CANDIDATES = 64


@dataclass(frozen=True)
class WalkPath:
    """A walk from the matched page: its edges in order, and its rank."""

    edges: tuple[PageEdge, ...]
    score: float


@dataclass
class Experience:
    """A loaded page graph with its index and the encoder to query it."""

    graph: PageGraph
    encoder: TextEncoder
    #: Screen summaries whose embeddings are kept (0: none, every screen embedded).
    screen_cache: int = SCREEN_CACHE
    _by_id: dict[int, PageNode] = field(init=False, repr=False)
    _out: dict[int, list[PageEdge]] = field(init=False, repr=False)
    _index: object = field(init=False, repr=False)
    _subtask_cache: dict[str, dict[str, float]] = field(
        init=False, repr=False, default_factory=dict
    )
    _screen_cache: dict[str, np.ndarray] = field(init=False, repr=False, default_factory=dict)
    _texts: list[str] = field(init=False, repr=False)
    _text_matrix: np.ndarray = field(init=False, repr=False)
    _plan_matrix: np.ndarray = field(init=False, repr=False)
    #: Milliseconds each retrieval took (for the benchmark and the run's log).
    timings_ms: list[float] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        from pcagent.experience.vectors import VectorIndex

        self._by_id = {node.id: node for node in self.graph.nodes}
        self._texts = list(self.graph.subtask_texts)
        self._text_matrix = stacked(list(self.graph.subtask_texts.values()), self.encoder.dim)
        self._plan_matrix = stacked([p.embedding for p in self.graph.plans], self.encoder.dim)
        self._out = self.graph.out_edges()
        index = VectorIndex(self.encoder.dim)
        if self.graph.nodes:
            index.add(
                [node.id for node in self.graph.nodes],
                stacked([node.embedding for node in self.graph.nodes], self.encoder.dim),
            )
        self._index = index

    @classmethod
    def load(cls, path: Path, encoder: TextEncoder, model: str) -> Experience:
        graph = PageGraph.load(path)
        if graph.model != model:
            raise ExperienceError(
                f"{path} was built with the embedding model {graph.model!r}, not {model!r}: "
                "build it again with this one"
            )
        return cls(graph, encoder)

    def similar_pages(self, screen: Screen, k: int = 5) -> list[tuple[PageNode, float]]:
        """The ``k`` pages most like ``screen``, of the same application, best first."""
        summary = screen.summary()
        vector = self._screen_cache.get(summary)
        if vector is None:  # a screen that did not change (a retry, a loop) is not embedded again
            vector = self.encoder.encode([summary])[0]
            if self.screen_cache and len(self._screen_cache) >= self.screen_cache:
                self._screen_cache.pop(next(iter(self._screen_cache)))
            if self.screen_cache:
                self._screen_cache[summary] = vector
        found = self._index.search(vector, CANDIDATES)  # type: ignore[attr-defined]
        return [
            (self._by_id[node_id], score)
            for node_id, score in found
            if self._by_id[node_id].app == screen.app
        ][:k]

    def guidance(self, app: str, window: str, listing: str, subtask: str) -> str:
        """A few lines on what earlier runs did from a page like the current one ("" when the
        graph has no page like it)."""
        started = time.perf_counter()
        try:
            return self._guidance(Screen.of(app, window, listing), subtask)
        finally:
            self.timings_ms.append((time.perf_counter() - started) * 1000)

    def _guidance(self, screen: Screen, subtask: str) -> str:
        pages = [(n, s) for n, s in self.similar_pages(screen) if s >= MIN_PAGE_COSINE]
        if not pages:
            return ""
        goal = self._relevance(subtask)
        # From the few closest pages, not the closest alone: the same page seen half-loaded (no
        # controls yet) matches best and leads nowhere. A less similar start costs its walks.
        walks = [
            WalkPath(walk.edges, walk.score - (1.0 - similarity))
            for page, similarity in pages[:START_PAGES]
            for walk in self._walk(page.id, goal)
        ]
        paths = sorted(walks, key=lambda p: -p.score)
        lines: dict[str, str] = {}  # the actions -> the line, each way through said once
        staying = 0
        for path in paths:
            ways = self._ways(path)
            if ways in lines or (not path.edges[-1].new_page and staying >= MAX_SAME_PAGE):
                continue
            staying += not path.edges[-1].new_page
            lines[ways] = f"- {ways} (achieved: {title_shape(path.edges[-1].subtask)})"
            if len(lines) >= MAX_LINES:
                break
        return "\n".join(lines.values())

    def _walk(self, start: int, goal: Mapping[str, float]) -> list[WalkPath]:
        """Breadth-first from ``start``: paths of up to MAX_DEPTH edges, each next edge leaving
        the page the previous one reached (actions that stayed on a page end a path), through
        the MAX_BRANCH most relevant edges of each page (a page every run passed through has
        hundreds, one per subtask served)."""
        paths: list[WalkPath] = []
        queue: deque[tuple[int, tuple[PageEdge, ...]]] = deque([(start, ())])
        while queue:
            node, so_far = queue.popleft()
            edges = self._out.get(node, [])
            if len(edges) > MAX_BRANCH:
                edges = sorted(edges, key=lambda e: -goal.get(e.subtask, 0.0))[:MAX_BRANCH]
            for edge in edges:
                if any(edge.target == e.source for e in so_far):
                    continue  # no walking back in a circle
                path = (*so_far, edge)
                paths.append(WalkPath(path, self._score(path, goal)))
                if edge.new_page and len(path) < MAX_DEPTH:
                    queue.append((edge.target, path))
        return paths

    def _score(self, path: tuple[PageEdge, ...], goal: Mapping[str, float]) -> float:
        """Closeness of the subtask the path served to the current one, a little for how often
        it was taken, a little less for each extra step."""
        relevance = goal.get(path[-1].subtask, 0.0)
        travelled = min(path[0].count, 5) / 50
        leads_on = 0.1 if path[-1].new_page else 0.0
        return relevance + travelled + leads_on - 0.05 * (len(path) - 1)

    def _ways(self, path: WalkPath) -> str:
        """The path's actions and where they led, without what they served."""
        steps = []
        for edge in path.edges:
            target = self._by_id[edge.target]
            if edge.new_page:
                steps.append(f"{edge.action} → {target.app}: {target.title or '(untitled)'}")
            else:
                steps.append(f"{edge.action} (same page)")
        return ", then ".join(steps)

    def _relevance(self, subtask: str) -> Mapping[str, float]:
        """How close each subtask the graph knows is to ``subtask`` (cosine), computed once per
        subtask with one matrix product: a run asks about the same subtask step after step."""
        known = self._subtask_cache.get(subtask)
        if known is None:
            vector = self.encoder.encode([subtask])[0]
            scores = self._text_matrix @ vector if self._texts else np.zeros(0)
            known = dict(zip(self._texts, scores.tolist(), strict=True))
            self._subtask_cache[subtask] = known
        return known

    def plan_similarities(self, vector: np.ndarray) -> np.ndarray:
        """The cosine of an embedded instruction with every remembered program's instruction,
        in the order of ``graph.plans`` (empty without programs)."""
        if not self.graph.plans:
            return np.zeros(0)
        return self._plan_matrix @ vector

    def similar_plans(self, instruction: str, k: int = PLANS_SHOWN, **filters: Any) -> str:
        """:meth:`similar_programs` as prompt lines, ``Instruction: ...`` and ``Program:
        {"steps": [...]}`` for each (what ``pcagent experience query`` and the viewer show); ""
        when none is similar enough."""
        return shown_examples(self.similar_programs(instruction, k, **filters))

    def similar_programs(
        self,
        instruction: str,
        k: int = PLANS_SHOWN,
        using: Collection[str] = (),
        covering: Sequence[Collection[str]] = (),
        avoiding: Collection[str] = (),
        preferring: Callable[[Sequence[ProgramStep]], bool] | None = None,
    ) -> list[Example]:
        """Programs of the ``k`` earlier instructions most like this one (at least
        :data:`MIN_PLAN_COSINE` alike), nearest first, as the Manager is shown them (long
        literal texts and lists cut); none when none is similar enough.

        One program per shape (its skills in order and where each takes values from,
        :func:`program_shape`): the generated tasks of a kind share one
        shape, and shown three of them, nearly alike, a small model copied their files and
        their extra steps as the way the task is written; a second shape shows what varies.
        ``using``: only programs that call one of these skills (what a doubt says the program
        lacks). ``covering``: groups of skills (one group an application the instruction asks
        for); the programs that call a skill of every group come first, nearest first, then
        the others. Worded like the instruction, the nearest program may work in other
        applications (a comparison of two films shown for a task of one film and a sheet), and
        a small model copies the program it is shown. ``avoiding``: skills of applications the
        instruction does not ask for; where some covering programs call none of them, only
        those are shown: shown one program of the asked applications and two that also wrote
        a document and mailed it, the 1.5B model wrote all three at once (pc16r1,
        2026-11-28). ``preferring``: of what is left, where some programs are, only those (the
        programs that work on a file the person had, for an instruction that names one)."""
        if not self.graph.plans:
            return []
        scores = self.plan_similarities(self.encoder.encode([instruction])[0])
        nearest = [int(i) for i in np.argsort(-scores) if scores[i] >= MIN_PLAN_COSINE]
        if using:
            nearest = [
                i for i in nearest if any(s.skill in using for s in self.graph.plans[i].program)
            ]
        if covering:  # a stable sort: nearest first within each part
            covers = {i for i in nearest if _covers(self.graph.plans[i].program, covering)}
            nearest.sort(key=lambda i: i not in covers)
            exact = [
                i
                for i in nearest
                if i in covers
                and not any(step.skill in avoiding for step in self.graph.plans[i].program)
            ]
            nearest = exact or nearest
        if preferring is not None:
            liked = [i for i in nearest if preferring(self.graph.plans[i].program)]
            nearest = liked or nearest
        shown: dict[tuple[str, ...], Example] = {}
        for index in nearest:
            if len(shown) >= k:
                break
            plan = self.graph.plans[index]
            said = shortened(" ".join(plan.instruction.split()), MAX_SHOWN_INSTRUCTION)
            shape = program_shape(plan.program)
            shown.setdefault(shape, Example(said, shown_steps(plan.program)))
        return list(shown.values())


def program_shape(program: Sequence[ProgramStep]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A program's skills in order, each with the steps it takes values from: two programs of
    the same calls differ in shape where a found value goes elsewhere (a place read in a note
    into the maps form, not only a time into the alarm), which is what memory must show."""
    return tuple(
        (step.skill, tuple(sorted({ref["from"] for ref in reference_values(step.args)})))
        for step in program
    )


def shown_steps(program: Sequence[ProgramStep]) -> tuple[dict[str, Any], ...]:
    """A program's steps as the Manager writes them: fields left at their defaults left out,
    literal texts of arguments over :data:`MAX_SHOWN_TEXT` characters, literal lists over
    :data:`MAX_SHOWN_ITEMS` items and GUI tasks over :data:`MAX_SHOWN_TASK` characters cut."""
    steps = []
    for step in program:
        data = step.model_dump(mode="json", exclude_defaults=True)
        if "args" in data:
            data["args"] = _cut_literals(data["args"])
        if "task" in data:
            data["task"] = shortened(data["task"], MAX_SHOWN_TASK)
        steps.append(data)
    return tuple(steps)


def _cut_literals(value: Any) -> Any:
    if isinstance(value, str):
        return shortened(value, MAX_SHOWN_TEXT)
    if isinstance(value, dict):
        return {key: _cut_literals(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_cut_literals(item) for item in value[:MAX_SHOWN_ITEMS]]
    return value


def _covers(program: Sequence[ProgramStep], groups: Sequence[Collection[str]]) -> bool:
    """Whether ``program`` calls a skill of every group."""
    called = {step.skill for step in program}
    return all(called & set(group) for group in groups)
