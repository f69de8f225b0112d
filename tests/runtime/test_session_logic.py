"""The run loop's decisions (caps, loops, escalation, re-planning, roles declining, modes,
ablations) on an in-memory screen with scripted agents. The same loop on real applications:
test_session_desktop.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.counter_screen import NEXT, CounterScreen

from pcagent.agents.focused_steps import MOST_REPAIRS
from pcagent.agents.manager import PROGRAM_ATTEMPTS
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.models.backend import Completion
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.human import Review, ScriptedHuman
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore

CLICK_NEXT = scripts.decision({"kind": "click", "x": NEXT.center[0], "y": NEXT.center[1]})
CLICK_NOWHERE = scripts.decision({"kind": "click", "x": 600, "y": 400})
DONE = scripts.decision({"kind": "done"})
ONE = scripts.plan({"id": "s1", "description": "Count to two", "app": "calculator"})


def session(
    tmp_path: Path, models: scripts.Models, **run: object
) -> tuple[RunSession, RunStore, CounterScreen]:
    screen = CounterScreen()
    store = RunStore(tmp_path / "runs")
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(**run))  # type: ignore[arg-type]
    return RunSession(screen, models, store, config), store, screen


def decisions(*replies: str) -> ScriptedBackend:
    return ScriptedBackend(list(replies))


def test_a_run_finishes_when_every_subtask_is_done(tmp_path: Path) -> None:
    models = scripts.usual_models(decisions(CLICK_NEXT, CLICK_NEXT, DONE), ONE)
    run, store, screen = session(tmp_path, models)
    outcome = run.start("count to two")
    assert (outcome.status, screen.count, outcome.steps) == ("unverified", 2, 3)
    assert store.get_run(outcome.run_id).status == "unverified"


def test_the_step_cap_ends_the_run(tmp_path: Path) -> None:
    models = scripts.usual_models(scripts.Repeating(lambda request: CLICK_NEXT), ONE)
    run, store, screen = session(tmp_path, models, max_steps=4)
    outcome = run.start("count forever")
    assert outcome.status == "failed" and "step cap (4)" in outcome.summary
    assert screen.count == 4 and len(store.steps(outcome.run_id)) == 4


def test_the_token_budget_ends_the_run(tmp_path: Path) -> None:
    costly = Completion(text=CLICK_NEXT, prompt_tokens=400, completion_tokens=100)
    models = scripts.usual_models(scripts.Repeating(lambda request: costly), ONE)
    run, _, _ = session(tmp_path, models, token_budget=1200)
    outcome = run.start("count")
    assert outcome.status == "failed" and "token budget" in outcome.summary
    assert outcome.steps == 3 and outcome.tokens >= 1200


def test_a_loop_without_effect_is_re_planned_then_the_new_subtask_runs(tmp_path: Path) -> None:
    replan = scripts.plan({"id": "s1", "description": "Count with the button", "app": "calculator"})
    models = scripts.usual_models(
        decisions(CLICK_NOWHERE, CLICK_NOWHERE, CLICK_NOWHERE, CLICK_NEXT, DONE), ONE
    )
    models.backends["manager"].push(replan)
    run, store, _ = session(tmp_path, models, loop_repeats=3)
    outcome = run.start("count")
    assert outcome.status == "unverified"
    kinds = [e.kind for e in store.events(outcome.run_id)]
    assert "loop" in kinds and kinds.count("replan") == 1
    # the identical screens were judged without asking the Reflection model
    steps = store.steps(outcome.run_id)
    assert [s.reflection.asked_model for s in steps[:3]] == [False] * 3  # type: ignore[union-attr]
    # The re-plan's step repeats the id s1: it runs as the next free one.
    assert [s.subtask_id for s in steps] == ["s1", "s1", "s1", "s2", "s2"]
    assert steps[-1].state.status == {"s1": "failed", "s2": "done"}  # type: ignore[union-attr]


def test_failures_escalate_to_progress_then_manager_then_end_the_run(tmp_path: Path) -> None:
    nowhere = [scripts.decision({"kind": "click", "x": 600, "y": 400 + i}) for i in range(10)]
    models = scripts.usual_models(decisions(*nowhere), ONE)
    run, store, _ = session(
        tmp_path,
        models,
        escalate_to_progress_after=2,
        escalate_to_manager_after=3,
        max_replans=0,
        max_consecutive_failures=5,
    )
    outcome = run.start("count")
    assert outcome.status == "failed" and "5 actions in a row failed" in outcome.summary
    assert outcome.steps == 5
    assert [e.kind for e in store.events(outcome.run_id)].count("escalate_progress") == 1
    progress_prompts = scripts.prompt_texts(models.backends["progress"])
    assert "re-assess" in progress_prompts[1] and "re-assess" not in progress_prompts[0]


def test_a_fail_action_without_replans_left_fails_the_run(tmp_path: Path) -> None:
    give_up = scripts.decision({"kind": "fail", "reason": "no such button"})
    models = scripts.usual_models(decisions(give_up), ONE)
    run, _, _ = session(tmp_path, models, max_replans=0)
    outcome = run.start("count")
    assert outcome.status == "failed" and "no such button" in outcome.summary


def test_a_role_that_declines_is_replaced(tmp_path: Path) -> None:
    declined = json.dumps({"reasoning": "x", "action": {"kind": "done"}, "not_mine": True})
    no_app = scripts.plan({"id": "s1", "description": "Count to two", "app": ""})
    models = scripts.usual_models(decisions(declined, CLICK_NEXT, DONE), no_app)
    # A plan naming no application is asked again; asked for its faulty step alone, the model
    # answers the same (not a step: refused, and asked again once).
    for _ in range(PROGRAM_ATTEMPTS - 1 + MOST_REPAIRS):
        models.backends["manager"].push(no_app)
    run, store, _ = session(tmp_path, models)
    outcome = run.start("count")
    assert outcome.status == "unverified"
    roles = [s.role for s in store.steps(outcome.run_id)]
    assert roles[0] != roles[1]
    assert roles[0] not in scripts.prompt_texts(models.backends["scheduler"])[1]


def test_the_role_of_the_subtask_s_application_cannot_decline_it(tmp_path: Path) -> None:
    declined = json.dumps({"reasoning": "x", "action": {"kind": "done"}, "not_mine": True})
    models = scripts.usual_models(decisions(CLICK_NEXT, declined), ONE)
    run, store, _ = session(tmp_path, models)
    outcome = run.start("count")
    assert outcome.status == "unverified"
    steps = store.steps(outcome.run_id)
    assert [s.role for s in steps] == ["calculator_clock", "calculator_clock"]
    assert steps[1].action is not None and steps[1].action.kind == "done"


def test_an_out_of_domain_action_is_never_executed(tmp_path: Path) -> None:
    # A role's reply schema admits neither foreign kinds nor foreign applications: open_app of
    # another role's app is rejected as a reply (and re-asked), so it never reaches the screen.
    # (Role.check stays behind it for actions that arrive another way; tests/agents/test_roles.)
    foreign = scripts.decision({"kind": "open_app", "app": "mail"})
    models = scripts.usual_models(decisions(foreign, CLICK_NEXT, DONE), ONE)
    run, store, screen = session(tmp_path, models)
    outcome = run.start("count")
    assert outcome.status == "unverified"
    first = store.steps(outcome.run_id)[0]
    assert first.action is not None and first.action.kind == "click"
    assert all(a.kind != "open_app" for a in screen.executed)
    assert any("rejected" in text for text in scripts.prompt_texts(models.backends["decision"]))


def test_proactive_mode_takes_guidance_and_stop(tmp_path: Path) -> None:
    human = ScriptedHuman(reviews=[Review(decision="guide", guidance="press it once more"), "stop"])
    models = scripts.usual_models(decisions(CLICK_NEXT, CLICK_NEXT), ONE)
    screen = CounterScreen()
    store = RunStore(tmp_path / "runs")
    config = PcAgentConfig(data_dir=tmp_path, run=RunConfig(mode="proactive"))
    outcome = RunSession(screen, models, store, config, human=human).start("count")
    assert outcome.status == "stopped" and outcome.steps == 2
    assert "press it once more" in scripts.prompt_texts(models.backends["decision"])[1]
    assert store.last_step(outcome.run_id).state.outcome == "stopped"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("ablation", "asked", "not_asked"),
    [
        ("single_agent", {"decision"}, {"manager", "scheduler", "progress", "reflection"}),
        ("no_manager", {"decision", "scheduler", "progress", "reflection"}, {"manager"}),
        ("no_reflection", {"manager", "decision", "progress"}, {"reflection"}),
        ("no_perception", {"manager", "decision", "reflection"}, set()),
    ],
)
def test_ablations_switch_their_agents_off(
    tmp_path: Path, ablation: str, asked: set[str], not_asked: set[str]
) -> None:
    models = scripts.usual_models(decisions(CLICK_NEXT, CLICK_NEXT, DONE), ONE)
    screen = CounterScreen()
    store = RunStore(tmp_path / "runs")
    config = PcAgentConfig(data_dir=tmp_path)
    outcome = RunSession(screen, models, store, config, ablation=ablation).start("count to 2")  # type: ignore[arg-type]
    assert outcome.status == "unverified"
    agents = {call.agent for call in store.calls(outcome.run_id)}
    assert asked <= agents and not (not_asked & agents)
    listing = store.steps(outcome.run_id)[0].listing
    assert listing.startswith("tag\tname") == (ablation == "no_perception")


def test_a_re_plan_keeps_the_pending_subtasks_it_leaves_out(tmp_path: Path) -> None:
    two = scripts.plan(
        {"id": "s1", "description": "Count to one", "app": "calculator"},
        {"id": "s2", "description": "Note the count", "app": "text_editor", "depends_on": ["s1"]},
    )
    # The re-plan names only the failed part again; the editor's subtask must not be lost.
    replan = scripts.plan({"id": "s1", "description": "Count with the button", "app": "calculator"})
    models = scripts.usual_models(
        decisions(CLICK_NOWHERE, CLICK_NOWHERE, CLICK_NOWHERE, CLICK_NEXT, DONE, DONE), two
    )
    models.backends["manager"].push(replan)
    run, store, _ = session(tmp_path, models, loop_repeats=3)
    outcome = run.start("count, then note it")
    assert outcome.status == "unverified"
    steps = store.steps(outcome.run_id)
    # s2 starts by opening its application (a rule, no model), then says done
    assert [s.subtask_id for s in steps] == ["s1", "s1", "s1", "s3", "s3", "s2", "s2"]
    assert steps[5].action is not None and steps[5].action.kind == "open_app"
    replanned = [e for e in store.events(outcome.run_id) if e.kind == "replan"]
    assert [s.id for s in replanned[0].event.subtasks] == ["s3", "s2"]
    assert replanned[0].event.subtasks[1].depends_on == ["s3"]


def test_an_answer_of_a_subtask_without_outputs_reaches_the_later_subtasks(
    tmp_path: Path,
) -> None:
    two = scripts.plan(
        {"id": "s1", "description": "Read the count", "app": "calculator"},
        {"id": "s2", "description": "Note the count", "app": "text_editor", "depends_on": ["s1"]},
    )
    answer = scripts.decision({"kind": "answer", "text": "the count is 7"})
    script = decisions(answer, DONE, DONE)
    run, _, _ = session(tmp_path, scripts.usual_models(script, two))
    outcome = run.start("read the count, then note it")
    assert outcome.status == "unverified"
    prompts = scripts.prompt_texts(script)
    assert "s1_answer = the count is 7" in prompts[2]  # s2 first decision
    assert "s1_answer" not in prompts[0]


def test_a_subtask_with_its_values_in_ends_when_a_success_is_repeated(tmp_path: Path) -> None:
    # "write it down" asks for more than the value: the value alone does not end it
    subtask = {"description": "Read the count and write it down", "outputs": ["count"]}
    plan = scripts.plan({"id": "s1", "app": "calculator", **subtask})
    answer = scripts.decision({"kind": "answer", "text": "0"})
    script = decisions(CLICK_NEXT, CLICK_NEXT, answer, CLICK_NEXT, CLICK_NEXT, DONE)
    run, store, screen = session(tmp_path, scripts.usual_models(script, plan))
    outcome = run.start("read the count")
    # before the value was reported, a repeat went on; after it, the repeat ended the subtask
    assert (outcome.status, outcome.steps, screen.count) == ("unverified", 4, 3)
    events = [e for e in store.events(outcome.run_id) if e.kind == "auto_done"]
    assert len(events) == 1 and "count reported; step 2 repeated" in events[0].event.reason


def test_a_subtask_starts_by_opening_its_application_when_it_is_not_in_front() -> None:
    from pcagent import actions as act
    from pcagent.agents.plan import SubtaskSpec
    from pcagent.agents.roles import Role
    from pcagent.runtime.loop.loop import opening_move
    from pcagent.step_context import StepContext

    clock = SubtaskSpec(id="s2", description="Set an alarm at 9:15", app="clock")
    role = Role(
        "calculator_clock", "clocks", frozenset({"open_app", "click"}), frozenset({"clock"})
    )
    from pcagent.runtime.record.checkpoint import RunCheckpoint
    from pcagent.step_context import StepLine

    def context(subtask: SubtaskSpec, front: str, history: list[StepLine]) -> StepContext:
        checkpoint = RunCheckpoint(instruction="x", history=history)
        return checkpoint.step_context(1, subtask, subtask.description, "r", front, "")

    opened = opening_move(clock, role, context(clock, "text_editor", []))
    assert opened is not None and opened.action == act.OpenApp(app="clock")
    assert opened.reasoning.startswith("[run]")
    assert opening_move(clock, role, context(clock, "clock", [])) is None  # already in front
    clicked = StepLine(number=1, action=act.Click(x=1, y=1), verdict="success")
    assert opening_move(clock, role, context(clock, "text_editor", [clicked])) is None  # not first
    no_app = clock.model_copy(update={"app": ""})
    assert opening_move(no_app, role, context(no_app, "text_editor", [])) is None
    clicks_only = Role("clicker", "x", frozenset({"click"}), frozenset({"clock"}))
    assert opening_move(clock, clicks_only, context(clock, "text_editor", [])) is None


def test_a_value_progress_reports_reaches_the_hub_only_when_the_screen_supports_it(
    tmp_path: Path,
) -> None:
    """Progress sees no screen; a value it invents is dropped, one the listing shows is kept."""
    import json

    from tests.runtime.scripts import Repeating

    plan = scripts.plan(
        {"id": "s1", "description": "Read the count", "app": "calculator", "outputs": ["count"]},
        {"id": "s2", "description": "Note the count", "app": "text_editor", "depends_on": ["s1"]},
    )

    def progress(request: object) -> str:
        action = scripts.line_after(scripts.prompt_of(request), "Latest action")  # type: ignore[arg-type]
        # first an invented value, then the one the screen shows after two clicks
        value = "count 2" if action.startswith("click") and len(reports) >= 1 else "count 41"
        reports.append(value)
        return json.dumps({"progress": "p", "completed": False, "outputs": {"count": value}})

    reports: list[str] = []
    models = scripts.usual_models(decisions(CLICK_NEXT, CLICK_NEXT, DONE, DONE, DONE), plan)
    models.backends["progress"] = Repeating(progress)
    run, store, _ = session(tmp_path, models, max_steps=5)
    outcome = run.start("read the count, then note it")
    steps = store.steps(outcome.run_id)
    answers = [step.state.answers if step.state else {} for step in steps]
    assert reports[:2] == ["count 41", "count 2"]
    assert "count" not in answers[0]  # 41 was never on screen
    assert answers[1] == {"count": "count 2"}  # what the listing showed
    assert any(step.hub.get("count") == "count 2" for step in steps)


def test_values_split_from_an_answer_with_several_are_kept(tmp_path: Path) -> None:
    """The Decision agent answers both values at once (it saw them); Progress splits them."""
    import json

    from tests.runtime.scripts import Repeating

    plan = scripts.plan(
        {"id": "s1", "description": "Read both", "app": "calculator", "outputs": ["low", "high"]}
    )

    def progress(request: object) -> str:
        action = scripts.line_after(scripts.prompt_of(request), "Latest action")  # type: ignore[arg-type]
        outputs = {"low": "17", "high": "93"} if action.startswith("answer") else {}
        done = action.startswith("done")
        return json.dumps({"progress": "p", "completed": done, "outputs": outputs})

    answer = scripts.decision({"kind": "answer", "text": "low 17, high 93"})
    models = scripts.usual_models(decisions(answer, DONE), plan)
    models.backends["progress"] = Repeating(progress)
    run, store, _ = session(tmp_path, models, max_steps=3)
    outcome = run.start("read both values")
    assert outcome.status == "unverified", outcome.summary
    (first, *_) = store.steps(outcome.run_id)
    assert first.state is not None and first.state.answers == {"low": "17", "high": "93"}
