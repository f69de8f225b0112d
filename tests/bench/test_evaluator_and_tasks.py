"""The graph evaluator, the metrics, and task-file validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent.actions import ACTION_TYPES, parse_action
from pcagent.bench.checkers import CheckContext
from pcagent.bench.evaluator import GraphEvaluator
from pcagent.bench.metrics import TaskOutcome, summarize
from pcagent.bench.tasks import TaskDefinitionError, load_task, load_tasks

TASK = """
id: t1
instruction: write two files
apps: [text_editor]
subtasks:
  - {id: s1, app: text_editor, description: first}
  - {id: s2, app: text_editor, description: second}
nodes:
  - {id: a, subtask: s1, checker: file_exists, params: {path: a.txt}}
  - {id: b, subtask: s2, checker: file_exists, params: {path: b.txt}, after: [a]}
  - {id: seen, subtask: s1, checker: file_exists, params: {path: seen.txt}, final: false}
reference:
  - action: {kind: done}
"""


def test_nodes_wait_for_predecessors_and_record_their_step(tmp_path: Path) -> None:
    task = load_task(TASK, "t1.yaml")
    evaluator = GraphEvaluator(task)
    context = CheckContext(home=tmp_path)
    (tmp_path / "b.txt").write_text("b")  # b holds early, but must wait for a
    assert evaluator.evaluate(context, 1) == []
    assert evaluator.states["b"].checks == 0
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "seen.txt").write_text("x")
    assert sorted(evaluator.evaluate(context, 2)) == ["a", "b", "seen"]
    assert evaluator.states["b"].step == 2
    # final nodes are checked again at the end; non-final ones keep their pass
    (tmp_path / "a.txt").unlink()
    (tmp_path / "seen.txt").unlink()
    evaluator.finish(context, 3)
    assert not evaluator.states["a"].passed and "not at the end" in evaluator.states["a"].reason
    assert evaluator.states["seen"].passed
    assert evaluator.completion_ratio == pytest.approx(2 / 3)
    assert evaluator.subtask_success() == {"s1": False, "s2": True}
    assert not evaluator.success


def test_a_subtask_without_sub_goals_is_left_out_of_subtask_success() -> None:
    from pcagent.bench.tasks import select_tasks

    (task,) = select_tasks(["pc25"])  # s1 reads the mail; only the search is checked
    assert {subtask.id for subtask in task.subtasks} == {"s1", "s2"}
    assert GraphEvaluator(task).subtask_success() == {"s2": False}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("checker: file_exists, params: {path: b.txt}", "checker: nope, params: {}"),
            "unknown checker",
        ),
        (("after: [a]", "after: [zz]"), "unknown nodes"),
        (("subtask: s2", "subtask: s9"), "unknown subtask"),
        (("apps: [text_editor]", "apps: [photoshop]"), "unknown apps"),
        (
            (
                "{id: a, subtask: s1, checker: file_exists, params: {path: a.txt}}",
                "{id: a, subtask: s1, checker: file_exists, params: {path: a.txt}, after: [b]}",
            ),
            "cycle",
        ),
        (("action: {kind: done}", "action: {kind: teleport}"), "teleport"),
    ],
)
def test_invalid_task_files_are_refused_with_the_file_name(
    change: tuple[str, str], message: str
) -> None:
    with pytest.raises(TaskDefinitionError, match=message) as caught:
        load_task(TASK.replace(*change), "broken.yaml")
    assert "broken.yaml" in str(caught.value)


def _alias_bomb(levels: int = 9) -> str:
    """A short file whose aliases expand to 10**levels values."""
    lines = ["a0: &a0 [" + ", ".join(["x"] * 10) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _nested_mappings(levels: int) -> str:
    return "".join("  " * level + f"k{level}:\n" for level in range(levels)) + "  " * levels + "x"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: " + "[" * 3000 + "]" * 3000, "nested too deeply"),
        ("a: " + "[" * 40 + "]" * 40, "nested more than 32 levels"),
        (_nested_mappings(40), "nested more than 32 levels"),
        ("a: &a [*a]\n", "nested more than 32 levels"),  # a list that holds itself
        (_alias_bomb(), "more than 50000 values"),
    ],
    ids=["flow-3000", "flow-40", "block-40", "self-reference", "alias-bomb"],
)
def test_deeply_nested_task_files_are_a_task_error(text: str, message: str) -> None:
    with pytest.raises(TaskDefinitionError, match=message) as caught:
        load_task(text, "deep.yaml")
    assert "deep.yaml" in str(caught.value)


def test_the_built_in_tasks_load() -> None:
    tasks = load_tasks()
    assert sorted(tasks) == [f"pc{number:02d}" for number in range(1, 26)]
    for task in tasks.values():
        assert task.reference and task.nodes
        assert task.source.startswith("PC-Eval ")
    # PC-Eval's spread: the eight applications, several tasks across three of them.
    assert {app for task in tasks.values() for app in task.apps} == {
        "text_editor", "calculator", "writer", "spreadsheet", "file_manager", "clock",
        "browser", "mail",
    }  # fmt: skip
    assert sum(len(task.apps) >= 3 for task in tasks.values()) >= 3


def outcome(**fields: object) -> TaskOutcome:
    base: dict[str, object] = {
        "task_id": "t",
        "success": False,
        "completion_ratio": 0.5,
        "subtasks_passed": 1,
        "subtasks_total": 2,
        "actions": 10,
        "tokens": 1000,
        "seconds": 1.0,
        "reset_seconds": 0.5,
    }
    return TaskOutcome(**{**base, **fields})  # type: ignore[arg-type]


def test_metrics() -> None:
    results = [
        outcome(
            success=True,
            completion_ratio=1.0,
            subtasks_passed=2,
            flagged_steps=(3,),
            completion_history=((2, 0.5), (3, 0.5), (4, 1.0)),
            planned_apps=("writer",),
            task_apps=("writer",),
        ),
        outcome(
            flagged_steps=(2,),
            completion_history=((2, 0.5), (5, 0.5)),
            planned_apps=("writer", "calculator"),
            task_apps=("calculator", "writer"),
            reset_seconds=4.0,
        ),
        outcome(completion_ratio=0.0, subtasks_passed=0, actions=0, tokens=0),
    ]
    metrics = summarize(results)
    assert metrics["SR"] == pytest.approx(1 / 3)
    assert metrics["SSR"] == pytest.approx(3 / 6)
    assert metrics["CR"] == pytest.approx(0.5)
    assert metrics["EE"] == pytest.approx((0.1 + 0.05 + 0) / 3)
    assert metrics["CE"] == pytest.approx((0.001 + 0.0005 + 0) / 3)
    assert metrics["recovery_rate"] == pytest.approx(0.5)  # first recovered, second did not
    assert metrics["manager_accuracy"] == pytest.approx(0.5)  # order matters
    assert metrics["reset_seconds_median"] == 0.5


def test_every_task_has_a_solution_with_application_actions_of_its_own_apps() -> None:
    for task in load_tasks().values():
        kinds = [parse_action(step.action).kind for step in task.reference_api if step.action]
        owners = {ACTION_TYPES[kind].belongs_to for kind in kinds} - {None}
        assert owners, f"{task.id}: no application action in reference_api"
        assert owners <= set(task.apps), f"{task.id}: {owners - set(task.apps)} not in its apps"
        assert len(task.reference_api) < len(task.reference), task.id
