"""Failure causes read off a run record and the evaluator's verdicts."""

from __future__ import annotations

from pathlib import Path

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.bench.evaluator import NodeState
from pcagent.bench.failure_causes import CAUSES, INTERNAL_ERROR, RunFacts, failure_causes
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.report import render_html, summary
from pcagent.bench.results import BenchStore
from pcagent.bench.task_run import TaskRun
from pcagent.bench.tasks import load_tasks
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import LoopEvent
from pcagent.runtime.record.models import ReflectionRecord, RunEvent, StepRecord, StepResult

TASK = load_tasks()["pc01"]  # text_editor, then clock
PLAN = [
    SubtaskSpec(id="s1", description="Read the memo", app="text_editor"),
    SubtaskSpec(id="s2", description="Set the alarm", app="clock"),
]
LISTING = 'marks: ...\n1 button "Add" @100,100\n2 text "memo" @400,300'


def step(number: int, action: act.Action, **fields: object) -> StepRecord:
    state = RunCheckpoint(instruction="x", subtasks=PLAN)
    values: dict[str, object] = {"subtask_id": "s2", "listing": LISTING, "front_app": "clock"}
    values.update(fields)
    return StepRecord(run_id="r", step=number, action=action, state=state, **values)  # type: ignore[arg-type]


FAILED = [NodeState("opened", "s1", passed=True, step=1), NodeState("alarm", "s2")]


def test_a_passed_task_has_no_cause() -> None:
    passed = [NodeState("opened", "s1", True, 1), NodeState("alarm", "s2", True, 3)]
    facts = RunFacts(steps=[], events=[], nodes=passed, status="failed", summary="step cap (40)")
    assert failure_causes(TASK, facts) == []


def test_each_cause_is_read_off_its_evidence() -> None:
    steps = [
        step(1, act.Click(x=105, y=98)),  # on the "Add" mark: fine
        step(2, act.Click(x=900, y=700)),  # nowhere near a mark
        step(
            3, act.TypeText(text="9:15"), front_app="text_editor"
        ),  # clock's subtask, editor in front
        step(4, act.Press(key="enter"), reflection=ReflectionRecord(verdict="no_change")),
        step(5, act.Done(), error="the Decision agent gave no valid action: bad json"),
        step(6, act.Wait(seconds=1), result=StepResult(ok=False, error="AccessibilityError")),
    ]
    events = [RunEvent(run_id="r", step=4, event=LoopEvent(action="press enter"))]
    facts = RunFacts(
        steps=steps,
        events=events,
        nodes=FAILED,
        status="finished",
        summary="all 2 subtasks done",
        planned_apps=("clock", "text_editor"),  # the wrong order
        completion=((3, 0.0), (4, 0.5)),  # the evaluator saw step 4 succeed
    )
    causes = failure_causes(TASK, facts)
    assert causes == [
        "plan_wrong",
        "wrong_app",
        "action_on_nothing",
        "false_done",
        "loop",
        "malformed_reply",
        "reflection_contradicted",
        "environment_error",
    ]
    assert set(causes) <= set(CAUSES)


def test_a_clean_failure_is_only_what_it_is() -> None:
    steps = [step(1, act.Click(x=100, y=100)), step(2, act.TypeText(text="9:15"))]
    facts = RunFacts(
        steps=steps,
        events=[],
        nodes=FAILED,
        status="failed",
        summary="step cap (2) reached",
        planned_apps=("text_editor", "clock", "clock"),  # a split subtask is still the order
    )
    assert failure_causes(TASK, facts) == ["step_cap"]


def test_a_run_past_its_time_limit_is_a_time_limit() -> None:
    facts = RunFacts(
        steps=[step(1, act.Click(x=100, y=100))],
        events=[],
        nodes=FAILED,
        status="failed",
        summary="ran past the time limit (1802 s of 1800 s)",
        planned_apps=("text_editor", "clock", "clock"),
    )
    assert failure_causes(TASK, facts) == ["time_limit"]


def test_a_fault_of_pcagent_s_own_is_an_internal_error_not_the_desktop_s() -> None:
    facts = RunFacts(
        steps=[],
        events=[],
        nodes=FAILED,
        status="failed",
        summary="",
        error=f"{INTERNAL_ERROR}ValidationError: 1 validation error for Program",
    )
    assert failure_causes(TASK, facts) == ["internal_error"]


def test_the_report_counts_and_shows_the_causes(tmp_path: Path) -> None:
    outcome = TaskOutcome(
        task_id="pc01", success=False, completion_ratio=0.5, subtasks_passed=1,
        subtasks_total=2, actions=6, tokens=900, seconds=40.0, reset_seconds=0.3,
        failure_causes=("false_done", "loop"), model_decisions=4, code_decisions=2,
    )  # fmt: skip
    with BenchStore(tmp_path) as store:
        bench = store.create("pcagent", ["pc01"])
        store.add(bench.bench_id, TaskRun(TASK, "pcagent", outcome, FAILED, [], "r", None))
        data = summary(store, bench)
        assert data["failure_causes"] == {"false_done": 1, "loop": 1}
        # which tasks code decided in, beside the run's share
        assert data["tasks"][0]["code_decisions"] == 2
        assert data["metrics"]["model_decision_share"] == 4 / 6
        assert data["tasks"][0]["failure_causes"] == ["false_done", "loop"]
        assert store.results(bench.bench_id)[0].task_outcome().failure_causes == (
            "false_done",
            "loop",
        )
        page = render_html(store, bench)
    assert "failure causes:" in page and CAUSES["loop"] in page


def test_an_error_of_the_agents_is_not_blamed_on_the_desktop() -> None:
    stopped = RunFacts(
        steps=[step(1, act.Click(x=100, y=100))],
        events=[],
        nodes=FAILED,
        status="failed",
        error="MissingInputError: subtask s2 needs time, which no subtask reported",
    )
    assert failure_causes(TASK, stopped) == ["agent_error"]
    crashed = RunFacts(
        steps=[], events=[], nodes=FAILED, status="failed", error="SandboxError: Xvfb died"
    )
    assert failure_causes(TASK, crashed) == ["environment_error"]
