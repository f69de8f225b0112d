"""The leakage check finds a benchmark task's id, fixture file and expected values wherever the
graph keeps text (program memory included), and does not cry wolf over words that merely contain
a short value, nor over a memory of generated training tasks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pcagent.agents.program import ProgramStep
from pcagent.bench.experience_leakage import check_no_leakage, graph_leaks
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import load_reworded_tasks, load_tasks
from pcagent.experience.graph import (
    ExperienceError,
    PageEdge,
    PageGraph,
    PageNode,
    PlanMemory,
    SourceRun,
)

TASKS = load_tasks()
VECTOR = np.ones(4, dtype=np.float32) / 2


def graph_with(
    title: str = "",
    subtask: str = "-",
    instruction: str = "",
    task_id: str = "",
    step: ProgramStep | None = None,
    program_task: str = "",
) -> PageGraph:
    """A graph holding each text in one place; ``step`` and ``program_task``: a training task's
    program in memory (``program_task`` its id)."""
    graph = PageGraph(model="m")
    graph.nodes.append(PageNode(1, "text_editor", title, ("File", "Edit"), None, 1, VECTOR))
    graph.add_edge(PageEdge(1, 1, "type the text", subtask, False))
    gui = ProgramStep(id="s1", skill="gui", app="text_editor", task=subtask)
    graph.plans.append(PlanMemory(instruction or "x", [gui], "r1", VECTOR))
    if step is not None or program_task:
        program = [step or gui]
        graph.plans.append(PlanMemory("y", program, "", VECTOR, task_id=program_task))
    graph.sources.append(SourceRun("r1", "/records", instruction, task_id, 3))
    return graph


def call(skill: str, **args: object) -> ProgramStep:
    return ProgramStep.model_validate({"id": "s2", "skill": skill, "args": args})


def test_an_innocent_graph_has_no_leaks() -> None:
    innocent = graph_with(
        "notes.txt - Mousepad", "Write 41 into notes.txt", "Fly from Berlin to Lonsdale"
    )
    assert graph_leaks(innocent, list(TASKS.values())) == []
    # A training task's id holds numbers ("38" is one of pc02's values), but it is an id.
    assert graph_leaks(graph_with(task_id="gen-11-38"), list(TASKS.values())) == []


@pytest.mark.parametrize(
    ("graph", "task", "finding"),
    [
        (graph_with(title="memo.txt - Mousepad"), "pc01", "the file name 'memo.txt'"),
        (graph_with(subtask="Set an alarm at 9:15"), "pc01", "the expected value '9:15'"),
        (
            graph_with(instruction="Book a flight from BER to PAR"),
            "pc16",
            "the expected value 'ber'",
        ),
        (graph_with(task_id="pc19"), "pc19", "its id"),
        (graph_with(subtask="Mail it to howie@example.test"), "pc19", "'howie@example.test'"),
        # In program memory: a literal argument, a training task's id.
        (
            graph_with(step=call("read_text_file", path="Documents/memo.txt")),
            "pc01",
            "the file name 'memo.txt'",
        ),
        (graph_with(step=call("set_alarm", time="09:15")), "pc01", "the expected value '9:15'"),
        (
            graph_with(step=call("send_mail", to=["howie@example.test"], subject="x")),
            "pc19",
            "'howie@example.test'",
        ),
        (graph_with(program_task="pc19"), "pc19", "its id"),
        (graph_with(program_task="pc05r1"), "pc05", "pc05r1's (the same task in other words) id"),
    ],
)
def test_each_kind_of_leak_is_found(graph: PageGraph, task: str, finding: str) -> None:
    leaks = graph_leaks(graph, [TASKS[task]])
    assert any(leak.startswith(f"{task}: ") and finding in leak for leak in leaks), leaks


def test_references_in_programs_are_no_values() -> None:
    """Step ids hold numbers ("s12"); a reference names a step, not a value."""
    referring = call("write_text_file", path="Documents/b.txt", text={"from": "s13"})
    assert "13" in str(referring.args)  # pc23 expects 13
    assert graph_leaks(graph_with(step=referring), [TASKS["pc23"]]) == []


def test_a_memory_of_generated_training_programs_knows_none_of_the_measured_tasks() -> None:
    graph = graph_with()
    for task in generate_tasks(120, 1) + generate_tasks(60, 11):
        assert task.program is not None
        graph.plans.append(PlanMemory(task.instruction, task.program, "", VECTOR, task.id))
    assert len(graph.plans) == 181
    measured = [*TASKS.values(), *load_reworded_tasks().values()]
    assert graph_leaks(graph, measured) == []


def test_measuring_with_a_leaking_graph_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    graph_with(title="memo.txt - Mousepad").save(path)
    with pytest.raises(
        ExperienceError, match=r"knows the tasks it would be measured on.*memo\.txt"
    ):
        check_no_leakage(path, list(TASKS.values()))
    graph_with(title="notes.txt - Mousepad").save(path)
    check_no_leakage(path, list(TASKS.values()))


# --- the rewording set is the same tasks in other words --------------------------------------

REWORDED = load_reworded_tasks()


def test_an_innocent_graph_knows_none_of_the_rewordings() -> None:
    innocent = graph_with(
        "notes.txt - Mousepad", "Write 41 into notes.txt", "Fly from Berlin to Lonsdale"
    )
    assert graph_leaks(innocent, list(REWORDED.values())) == []


@pytest.mark.parametrize(
    ("graph", "measured", "finding"),
    [
        # A graph from runs of a rewording knows its original, and the other way round.
        (graph_with(task_id="pc05r1"), "pc05", "pc05: pc05r1's (the same task in other words) id"),
        (graph_with(task_id="pc05"), "pc05r2", "pc05r2: pc05's (the same task in other words) id"),
        (graph_with(task_id="pc05r2"), "pc05r2", "pc05r2: its id"),
        # A training instruction that is a rewording's, word for word (spacing and case aside).
        (
            graph_with(instruction=REWORDED["pc04r1"].instruction.upper()),
            "pc04",
            "pc04: pc04r1's (the same task in other words) instruction",
        ),
        (
            graph_with(instruction=" ".join(TASKS["pc09"].instruction.split()[:-1]) + " x."),
            "pc09r1",
            None,  # a near copy is not the instruction; the values find what it holds
        ),
        (graph_with(instruction=TASKS["pc09"].instruction), "pc09r2", "pc09r2: pc09's"),
    ],
)
def test_a_task_and_its_rewordings_leak_as_one(
    graph: PageGraph, measured: str, finding: str | None
) -> None:
    task = TASKS.get(measured) or REWORDED[measured]
    leaks = graph_leaks(graph, [task])
    if finding is None:
        assert not any("instruction" in leak for leak in leaks), leaks
    else:
        assert any(leak.startswith(finding) for leak in leaks), leaks


def test_measuring_the_rewordings_with_a_graph_of_the_25_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    graph_with(task_id="pc19").save(path)
    with pytest.raises(ExperienceError, match=r"pc19r1: pc19's .* id"):
        check_no_leakage(path, list(REWORDED.values()))


# --- memory measured on generated tasks leaves out the training tasks that share their values ---


def test_held_out_tasks_leave_out_the_training_tasks_that_share_their_values() -> None:
    from pcagent.bench.experience_leakage import example_leaks, without_held_out
    from pcagent.experience.build import ProgramExample

    held_out = generate_tasks(10, 6)
    examples = [
        ProgramExample(task.id, task.instruction, tuple(task.apps), tuple(task.program or ()))
        for task in generate_tasks(200, 5)
    ]
    kept = without_held_out(examples, held_out)
    # Both sets draw from one vocabulary: some share a name or a value, not all.
    assert 0 < len(kept) < len(examples)
    graph = PageGraph(model="m")
    for example in kept:
        graph.plans.append(
            PlanMemory(example.instruction, list(example.program), "", VECTOR, example.task_id)
        )
    assert graph_leaks(graph, held_out) == []
    left_out = next(example for example in examples if example not in kept)
    assert example_leaks(left_out, held_out)
