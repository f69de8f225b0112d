"""CRAB's graph evaluator: sub-goals checked on the real state after every step.

A node is checked only once every node it comes ``after`` has passed; when it passes, the step is
recorded and it is not checked again until the end, when ``final`` nodes are checked once more
(what they check must still hold: a file saved and then overwritten does not count).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pcagent.bench.checkers import CheckContext, CheckerError, run_checker
from pcagent.bench.tasks import SubGoal, Task

#: What the checkers read: one context, or, for a cross-environment task, one per environment
#: by name (each node is checked in the context of the environment it names).
Contexts = CheckContext | Mapping[str, CheckContext]


@dataclass
class NodeState:
    """One sub-goal's outcome so far."""

    node_id: str
    subtask: str
    passed: bool = False
    step: int | None = None
    reason: str = "not checked yet"
    checks: int = 0


@dataclass
class GraphEvaluator:
    """Evaluates one task's sub-goal graph over one run."""

    task: Task
    states: dict[str, NodeState] = field(init=False)
    #: Completion ratio after each evaluated step (for recovery and efficiency measures).
    history: list[tuple[int, float]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.states = {n.id: NodeState(n.id, n.subtask) for n in self.task.nodes}

    def ready(self) -> list[str]:
        """Nodes not passed whose predecessors all passed."""
        return [
            n.id
            for n in self.task.nodes
            if not self.states[n.id].passed and all(self.states[a].passed for a in n.after)
        ]

    def _context(self, contexts: Contexts, node: SubGoal) -> CheckContext:
        if isinstance(contexts, CheckContext):
            return contexts
        name = self.task.environment_of(node)
        try:
            return contexts[name]
        except KeyError:
            raise CheckerError(
                f"sub-goal {node.id} is checked on environment {name!r}, which this run does not "
                f"have (it has {sorted(contexts)})"
            ) from None

    def evaluate(self, context: Contexts, step: int) -> list[str]:
        """Check every ready node (repeatedly, so a chain that became true at once passes at
        once); returns the ids that passed at this step. ``context`` is one for every node, or
        one per environment name."""
        passed_now: list[str] = []
        while True:
            newly = []
            for node_id in self.ready():
                node = self.task.node(node_id)
                state = self.states[node_id]
                result = run_checker(node.checker, node.params, self._context(context, node))
                state.checks += 1
                state.reason = result.reason
                if result.passed:
                    state.passed, state.step = True, step
                    newly.append(node_id)
            passed_now.extend(newly)
            if not newly:
                break
        self.history.append((step, self.completion_ratio))
        return passed_now

    def finish(self, context: Contexts, step: int) -> None:
        """The end of the run: check what is still open, then re-check every final node."""
        self.evaluate(context, step)
        for node in self.task.nodes:
            state = self.states[node.id]
            if node.final and state.passed:
                result = run_checker(node.checker, node.params, self._context(context, node))
                if not result.passed:
                    state.passed, state.step = False, None
                    state.reason = f"passed earlier, but not at the end: {result.reason}"
        if self.history:
            self.history[-1] = (self.history[-1][0], self.completion_ratio)

    @property
    def completion_ratio(self) -> float:
        return sum(s.passed for s in self.states.values()) / max(1, len(self.states))

    @property
    def success(self) -> bool:
        return all(s.passed for s in self.states.values())

    def subtask_success(self) -> dict[str, bool]:
        """Per subtask that has sub-goals: did all of them pass? A subtask without a checker
        (reading the mail a later search is built from) cannot be judged, and is left out of
        SSR rather than counted as passed by a run that never touched it."""
        outcome: dict[str, bool] = {}
        for state in self.states.values():
            outcome[state.subtask] = outcome.get(state.subtask, True) and state.passed
        return outcome
