"""No benchmark in the page graph: a graph used to measure on tasks must not know them.

Every text the graph holds (page titles and labels, actions, the subtasks they served, the
programs in memory with their instructions and every literal value of their steps, the
instructions and task ids of its source runs and of the training tasks its programs came from)
is scanned for the tasks' ids and instructions, their fixture file names and the values their checkers expect: numbers as whole
numbers (of two digits or more: a test case's "1" identifies nothing), short texts as whole
words, long ones anywhere.

A task and its rewordings (``tasks_reworded/``) are one task said in other words: a graph that
knows ``pc01r1`` knows ``pc01``, and the other way round, so each is scanned for with the ids and
instructions of all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pcagent.agents.program import ProgramStep, literal_texts
from pcagent.bench.task_secrets import expected_values, file_names
from pcagent.bench.tasks import Task, same_task_in_other_words
from pcagent.bench.value_matching import normalise_text, parse_number
from pcagent.experience.graph import ExperienceError, PageGraph

if TYPE_CHECKING:
    from pcagent.experience.build import ProgramExample

_NUMBER = re.compile(r"\d+(?:[.:]\d+)*")


def graph_texts(graph: PageGraph) -> Iterator[str]:
    """Every text stored in the graph but its source runs' task ids (compared as ids: the
    numbers in "gen-11-38" are no value)."""
    for node in graph.nodes:
        yield node.title
        yield from node.labels
    for edge in graph.edges.values():
        yield edge.action
        yield edge.subtask
    for plan in graph.plans:
        yield from program_texts(plan.instruction, plan.program)
    yield from graph.subtask_texts
    for source in graph.sources:
        yield source.instruction


def program_texts(instruction: str, program: Sequence[ProgramStep]) -> Iterator[str]:
    """The instruction of a program in memory and every text its steps hold."""
    yield instruction
    for step in program:
        yield from (step.task, step.app, *step.outputs)
        yield from literal_texts(step.args)


def _numbers(text: str) -> set[str]:
    found = set()
    for token in _NUMBER.findall(text):
        if ":" in token:
            hour, _, minute = token.partition(":")
            found.add(f"{int(hour)}:{minute[:2]}")
        number = parse_number(token)
        if number is not None:
            found.add(f"{number:g}")
    return found


def _contains(text: str, value: str) -> bool:
    """Whether ``value`` appears in ``text``: as a whole word (or words) when short ("ber" is
    an airport, not a part of "Berlin"), anywhere when long."""
    if len(value) >= 8:
        return value in text
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def graph_leaks(graph: PageGraph, tasks: Sequence[Task]) -> list[str]:
    """What of ``tasks`` the graph contains, one line per finding (empty: nothing)."""
    source_ids = {source.task_id.casefold() for source in graph.sources} | {
        plan.task_id.casefold() for plan in graph.plans if plan.task_id
    }
    return _leaks(list(graph_texts(graph)), source_ids, tasks)


def example_leaks(example: ProgramExample, tasks: Sequence[Task]) -> list[str]:
    """What of ``tasks`` one training task's program would bring into memory: a training set
    drawn from the same names and values as the tasks measured on shares some of them."""
    texts = list(program_texts(example.instruction, example.program))
    return _leaks(texts, {example.task_id.casefold()}, tasks)


def without_held_out(
    examples: Sequence[ProgramExample], held_out: Sequence[Task]
) -> list[ProgramExample]:
    """The training tasks that share no id, instruction, file name or expected value with the
    ``held_out`` tasks, so that memory built from them may be measured on those."""
    return [example for example in examples if not example_leaks(example, held_out)]


def _leaks(texts: list[str], source_ids: set[str], tasks: Sequence[Task]) -> list[str]:
    words = {word for text in texts for word in re.findall(r"[\w.@-]+", text.casefold())}
    numbers = set().union(*(_numbers(text) for text in texts)) if texts else set()
    normalised = " | ".join(normalise_text(text) for text in texts)
    folded = " | ".join(text.casefold() for text in texts)
    found = []
    for task in tasks:
        for same in same_task_in_other_words(task):
            which = "its" if same is task else f"{same.id}'s (the same task in other words)"
            if same.id.casefold() in words | source_ids:
                found.append(f"{task.id}: {which} id")
            if normalise_text(same.instruction) in normalised:
                found.append(f"{task.id}: {which} instruction")
        for name in sorted(file_names(task)):
            if name in folded:
                found.append(f"{task.id}: the file name {name!r}")
        for value in sorted(expected_values(task)):
            if parse_number(value) is not None or _NUMBER.fullmatch(value):
                # A one-digit number (a test case's 1 or 7) says nothing about a task.
                if sum(c.isdigit() for c in value) >= 2 and value in numbers:
                    found.append(f"{task.id}: the expected value {value!r}")
            elif _contains(normalised, value):
                found.append(f"{task.id}: the expected value {value!r}")
    return found


def check_no_leakage(path: Path, tasks: Sequence[Task]) -> None:
    """Refuse to measure on ``tasks`` with a graph that knows them (:class:`ExperienceError`
    listing what it knows)."""
    leaks = graph_leaks(PageGraph.load(path), tasks)
    if leaks:
        shown = "; ".join(leaks[:8]) + (f"; and {len(leaks) - 8} more" if len(leaks) > 8 else "")
        raise ExperienceError(
            f"the page graph {path} knows the tasks it would be measured on ({shown}); build it "
            "from other tasks' runs (e.g. `pcagent bench generate`)"
        )
