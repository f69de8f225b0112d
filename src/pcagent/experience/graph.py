"""The page graph and long-term memory as stored: one SQLite file.

Nodes are pages (a :class:`~pcagent.experience.screens.Screen` with its embedding and picture
hash), edges are actions that led from one page to another (or stayed on it), each with the
subtask it served, and plans are programs (the Manager's format) of earlier instructions: of
runs that finished with every step checked, and the gold programs of training tasks. The file
also lists the runs it was built from, and each plan names its run or task, so what went in can
be checked (no benchmark task may be among them) and shown.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pcagent.agents.program import ProgramStep
from pcagent.errors import PcAgentError

#: 2: plans are programs (steps of skill calls and GUI tasks) and may come from training tasks.
GRAPH_SCHEMA_VERSION = 2

_SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """
    CREATE TABLE nodes (
        id        INTEGER PRIMARY KEY,
        app       TEXT NOT NULL,
        title     TEXT NOT NULL,
        labels    TEXT NOT NULL,
        picture   TEXT,
        visits    INTEGER NOT NULL,
        embedding BLOB NOT NULL
    )
    """,
    """
    CREATE TABLE edges (
        source   INTEGER NOT NULL REFERENCES nodes(id),
        target   INTEGER NOT NULL REFERENCES nodes(id),
        action   TEXT NOT NULL,
        subtask  TEXT NOT NULL,
        new_page INTEGER NOT NULL,
        count    INTEGER NOT NULL,
        PRIMARY KEY (source, target, action, subtask)
    )
    """,
    """
    CREATE TABLE plans (
        id          INTEGER PRIMARY KEY,
        instruction TEXT NOT NULL,
        program     TEXT NOT NULL,
        run_id      TEXT NOT NULL,
        task_id     TEXT NOT NULL,
        embedding   BLOB NOT NULL
    )
    """,
    """
    CREATE TABLE subtask_texts (
        text      TEXT PRIMARY KEY,
        embedding BLOB NOT NULL
    )
    """,
    """
    CREATE TABLE sources (
        run_id      TEXT NOT NULL,
        records     TEXT NOT NULL,
        instruction TEXT NOT NULL,
        task_id     TEXT NOT NULL,
        steps       INTEGER NOT NULL,
        PRIMARY KEY (records, run_id)
    )
    """,
]


class ExperienceError(PcAgentError):
    """A page graph file that cannot be read or written (missing, from another version, or
    built with another embedding model)."""


@dataclass
class PageNode:
    id: int
    app: str
    title: str
    labels: tuple[str, ...]
    #: The screen's picture hash (see :func:`~pcagent.experience.screens.picture_hash`).
    picture: int | None
    visits: int
    embedding: np.ndarray


@dataclass
class PageEdge:
    source: int
    target: int
    #: The action in words (:func:`~pcagent.experience.screens.describe_action`).
    action: str
    #: The subtask the action served.
    subtask: str
    new_page: bool
    count: int = 1


@dataclass
class PlanMemory:
    """The program of an earlier instruction: of a run that finished with every step checked
    (``run_id``), or a training task's gold program (``task_id``, no run)."""

    instruction: str
    program: list[ProgramStep]
    run_id: str
    embedding: np.ndarray
    #: The task it was run for or is the gold program of ("" when unknown).
    task_id: str = ""


@dataclass
class SourceRun:
    """A run the graph was built from."""

    run_id: str
    records: str
    instruction: str
    task_id: str
    steps: int


@dataclass
class PageGraph:
    """Everything in a graph file, in memory."""

    model: str
    nodes: list[PageNode] = field(default_factory=list)
    edges: dict[tuple[int, int, str, str], PageEdge] = field(default_factory=dict)
    plans: list[PlanMemory] = field(default_factory=list)
    subtask_texts: dict[str, np.ndarray] = field(default_factory=dict)
    sources: list[SourceRun] = field(default_factory=list)

    def add_edge(self, edge: PageEdge) -> None:
        key = (edge.source, edge.target, edge.action, edge.subtask)
        known = self.edges.get(key)
        if known is None:
            self.edges[key] = edge
        else:
            known.count += edge.count

    def out_edges(self) -> dict[int, list[PageEdge]]:
        """Edges by their source node, the most travelled first."""
        by_source: dict[int, list[PageEdge]] = {}
        for edge in self.edges.values():
            by_source.setdefault(edge.source, []).append(edge)
        for edges in by_source.values():
            edges.sort(key=lambda e: -e.count)
        return by_source

    def save(self, path: Path) -> None:
        """Write the graph to ``path``, replacing it whole (a half-written file never remains)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.unlink(missing_ok=True)
        with closing(sqlite3.connect(partial)) as conn, conn:
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [("schema", str(GRAPH_SCHEMA_VERSION)), ("model", self.model)],
            )
            conn.executemany(
                "INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        n.id,
                        n.app,
                        n.title,
                        json.dumps(list(n.labels), ensure_ascii=False),
                        None if n.picture is None else f"{n.picture:016x}",
                        n.visits,
                        _blob(n.embedding),
                    )
                    for n in self.nodes
                ],
            )
            conn.executemany(
                "INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (e.source, e.target, e.action, e.subtask, int(e.new_page), e.count)
                    for e in self.edges.values()
                ],
            )
            conn.executemany(
                "INSERT INTO plans (instruction, program, run_id, task_id, embedding) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (
                        p.instruction,
                        json.dumps(
                            [s.model_dump(exclude_defaults=True) for s in p.program],
                            ensure_ascii=False,
                        ),
                        p.run_id,
                        p.task_id,
                        _blob(p.embedding),
                    )
                    for p in self.plans
                ],
            )
            conn.executemany(
                "INSERT INTO subtask_texts VALUES (?, ?)",
                [(text, _blob(vector)) for text, vector in self.subtask_texts.items()],
            )
            conn.executemany(
                "INSERT INTO sources VALUES (?, ?, ?, ?, ?)",
                [(s.run_id, s.records, s.instruction, s.task_id, s.steps) for s in self.sources],
            )
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> PageGraph:
        """Read a graph file; :class:`ExperienceError` when it is missing or not one."""
        if not path.is_file():
            raise ExperienceError(
                f"no page graph at {path}; build one with `pcagent experience build`"
            )
        try:
            with _reading(path) as conn:
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
                if meta.get("schema") != str(GRAPH_SCHEMA_VERSION):
                    raise ExperienceError(
                        f"{path} is a page graph of format {meta.get('schema')!r}; this pcagent "
                        f"reads format {GRAPH_SCHEMA_VERSION}: build it again"
                    )
                graph = cls(model=meta.get("model", ""))
                for row in conn.execute("SELECT * FROM nodes ORDER BY id"):
                    graph.nodes.append(
                        PageNode(
                            id=row[0],
                            app=row[1],
                            title=row[2],
                            labels=tuple(json.loads(row[3])),
                            picture=None if row[4] is None else int(row[4], 16),
                            visits=row[5],
                            embedding=_vector(row[6]),
                        )
                    )
                for row in conn.execute("SELECT * FROM edges"):
                    graph.add_edge(PageEdge(row[0], row[1], row[2], row[3], bool(row[4]), row[5]))
                for row in conn.execute(
                    "SELECT instruction, program, run_id, task_id, embedding FROM plans ORDER BY id"
                ):
                    program = [ProgramStep.model_validate(s) for s in json.loads(row[1])]
                    graph.plans.append(
                        PlanMemory(row[0], program, row[2], _vector(row[4]), task_id=row[3])
                    )
                for text, blob in conn.execute("SELECT text, embedding FROM subtask_texts"):
                    graph.subtask_texts[text] = _vector(blob)
                for row in conn.execute("SELECT * FROM sources"):
                    graph.sources.append(SourceRun(*row))
        except (sqlite3.DatabaseError, ValueError) as error:  # a ValidationError too
            raise ExperienceError(f"{path} is not a readable page graph: {error}") from error
        return graph


@contextmanager
def _reading(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def _vector(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32).copy()


def stacked(vectors: Sequence[np.ndarray], dim: int) -> np.ndarray:
    """Rows as one float32 matrix (an empty one of the right width when there are none)."""
    if not vectors:
        return np.zeros((0, dim), dtype=np.float32)
    return np.vstack(vectors).astype(np.float32)
