"""The escalation policy on its own: counters and verdicts in, the next move out (no desktop,
no model)."""

from __future__ import annotations

import pytest

from pcagent.config import RunConfig
from pcagent.errors import (
    ActionExecutionError,
    ActionRefusedError,
    InvalidActionError,
    UnknownAppError,
)
from pcagent.runtime.loop.policy import Counters, EscalationPolicy, StepFacts
from pcagent.runtime.record.models import StepResult

RUN = RunConfig(
    escalate_to_progress_after=2,
    escalate_to_manager_after=3,
    max_consecutive_failures=5,
    loop_repeats=3,
    max_replans=1,
    max_steps=10,
    token_budget=1000,
)


def failing(action: str = "click(x=1, y=1)", no_change: bool = False) -> StepFacts:
    return StepFacts(action=action, failed=True, no_change=no_change)


def run_steps(policy: EscalationPolicy, facts: list[StepFacts]) -> Counters:
    counters = Counters()
    for fact in facts:
        counters = policy.count(counters, fact)
    return counters


def test_the_step_cap_and_the_token_budget_stop_before_a_step() -> None:
    policy = EscalationPolicy(RUN)
    assert policy.stop_before_step(9, 999) is None
    assert "step cap (10)" in (policy.stop_before_step(10, 0) or "")
    assert "token budget (1000 of 1000)" in (policy.stop_before_step(3, 1000) or "")
    assert (
        EscalationPolicy(RUN.model_copy(update={"token_budget": 0})).stop_before_step(3, 10**9)
        is None
    )


def test_the_time_budget_stops_before_a_step_once_spent() -> None:
    timed = EscalationPolicy(RUN.model_copy(update={"time_budget": 60.0}))
    assert timed.stop_before_step(3, 0, seconds=59.9) is None
    assert "time limit (61 s of 60 s)" in (timed.stop_before_step(3, 0, seconds=61.0) or "")
    assert EscalationPolicy(RUN).stop_before_step(3, 0, seconds=10**6) is None  # 0: no limit


def test_failures_count_up_and_a_success_resets_them() -> None:
    policy = EscalationPolicy(RUN)
    counters = run_steps(policy, [failing(), failing()])
    assert counters.consecutive_failures == 2
    counters = policy.count(counters, StepFacts("press(key='a')", failed=False, no_change=False))
    assert counters.consecutive_failures == 0
    assert counters.recent_actions == ("click(x=1, y=1)", "click(x=1, y=1)", "press(key='a')")


def test_progress_re_assesses_exactly_at_its_threshold() -> None:
    policy = EscalationPolicy(RUN)
    seen = []
    counters = Counters()
    for number in range(4):
        counters = policy.count(counters, failing(f"click(x={number}, y=0)"))
        seen.append(policy.reassess(counters))
    assert seen == [False, True, False, False]


def test_repeated_failures_go_to_the_manager_then_end_the_run() -> None:
    policy = EscalationPolicy(RUN)
    counters = run_steps(policy, [failing(f"a{n}") for n in range(2)])
    assert policy.decide(counters, failing("a1")).what == "go_on"
    counters = policy.count(counters, failing("a2"))
    decision = policy.decide(counters, failing("a2"))
    assert (decision.what, decision.reason) == ("replan", "3 actions in a row failed")
    # re-plans used up: further failures go on until the hard limit, then fail
    spent = policy.replanned(counters)
    spent = policy.count(spent, failing("a3"))
    assert policy.decide(spent, failing("a3")).what == "go_on"
    spent = policy.count(spent, failing("a4"))
    decision = policy.decide(spent, failing("a4"))
    assert (decision.what, decision.reason) == ("fail", "5 actions in a row failed")


def test_a_loop_without_effect_is_detected_and_re_planned() -> None:
    policy = EscalationPolicy(RUN.model_copy(update={"escalate_to_manager_after": 10}))
    same = failing("click(x=5, y=5)", no_change=True)
    counters = run_steps(policy, [same, same])
    assert policy.decide(counters, same).what == "go_on"
    counters = policy.count(counters, same)
    decision = policy.decide(counters, same)
    assert (decision.what, decision.looping) == ("replan", True)
    assert "repeats the same action" in decision.reason
    # the same repeats with a visible change are no loop while they succeed ...
    changed = StepFacts("click(x=5, y=5)", failed=False, no_change=False)
    assert not policy.decide(run_steps(policy, [changed] * 3), changed).looping
    # ... but failed each time (a menu opened and closed again, judged an unexpected change)
    toggled = failing("click(x=24, y=41)", no_change=False)
    assert policy.decide(run_steps(policy, [toggled] * 3), toggled).looping
    assert not policy.decide(run_steps(policy, [toggled] * 2), toggled).looping
    worked = StepFacts("click(x=24, y=41)", failed=False, no_change=False)
    between = run_steps(policy, [toggled, worked, toggled])  # not failed each time
    assert not policy.decide(between, toggled).looping
    # but the same application action three times is a loop whatever it did
    insert = StepFacts(
        "writer_insert(text='Tea.')", failed=False, no_change=False, whole_effect=True
    )
    assert policy.decide(run_steps(policy, [insert] * 3), insert).looping
    assert not policy.decide(run_steps(policy, [insert] * 2), insert).looping
    # ... and so is the same text typed three times (a rewording of pc10: five times)
    typed = StepFacts("type(text='Attention')", failed=False, no_change=False, whole_effect=True)
    assert policy.decide(run_steps(policy, [typed] * 3), typed).looping
    # with no re-plan left, a loop ends the run instead of repeating to the step cap
    spent = policy.replanned(run_steps(policy, [same] * 3))
    decision = policy.decide(spent, same)
    assert (decision.what, decision.looping) == ("fail", True)
    assert policy.decide(policy.replanned(run_steps(policy, [same] * 2)), same).what == "go_on"


def test_the_same_action_refused_twice_is_a_loop_at_its_second_try() -> None:
    """A refusal before the action ran leaves the desktop as it was: a third try of the same
    action meets the same refusal."""
    policy = EscalationPolicy(RUN.model_copy(update={"escalate_to_manager_after": 10}))
    fill = "browser_fill(label='From', value='Beijing', submit=False)"
    refused = StepFacts(fill, failed=True, no_change=True, untouched=True)
    assert not policy.decide(run_steps(policy, [refused]), refused).looping
    decision = policy.decide(run_steps(policy, [refused] * 2), refused)
    assert (decision.what, decision.looping) == ("replan", True)
    # a failure that ran (the desktop may have changed) still needs its third repeat
    ran = failing(fill, no_change=False)
    assert not policy.decide(run_steps(policy, [ran] * 2), ran).looping
    # and a refusal after another action, or after the same action that worked, is no loop
    other = failing("click(x=5, y=5)", no_change=True)
    assert not policy.decide(run_steps(policy, [other, refused]), refused).looping
    worked = StepFacts(fill, failed=False, no_change=False)
    assert not policy.decide(run_steps(policy, [worked, refused]), refused).looping


def test_a_result_refused_or_invalid_before_it_ran_is_untouched() -> None:
    assert StepResult.failure(InvalidActionError("no field reads 'From'")).untouched
    assert StepResult.failure(UnknownAppError("no application 'vim'")).untouched
    assert StepResult.failure(ActionRefusedError("outside the domain"), refused=True).untouched
    assert not StepResult.failure(ActionExecutionError("the window vanished")).untouched
    assert not StepResult(ok=True, message="done").untouched


def test_a_fail_action_re_plans_or_ends_the_run() -> None:
    gave_up = StepFacts("fail(reason='x')", failed=True, no_change=False, gave_up="no such file")
    policy = EscalationPolicy(RUN)
    counters = policy.count(Counters(), gave_up)
    assert policy.decide(counters, gave_up).what == "replan"
    no_manager = EscalationPolicy(RUN, can_replan=False)
    decision = no_manager.decide(counters, gave_up)
    assert (decision.what, decision.reason) == ("fail", "the role gave up: no such file")


@pytest.mark.parametrize("can_replan", [True, False])
def test_an_unfinished_done_counts_as_a_failure(can_replan: bool) -> None:
    policy = EscalationPolicy(RUN, can_replan=can_replan)
    counters = policy.unfinished(Counters(consecutive_failures=2))
    assert counters.consecutive_failures == 3


def test_a_failed_skill_re_plans_at_once_unless_switched_off() -> None:
    """A program step's skill failing says why (a file not there); the screen steps a small
    model tried after it mostly clicked about."""
    failed = StepFacts(
        "use_skill(send_mail)", failed=True, no_change=False, skill_failed="no such file"
    )
    policy = EscalationPolicy(RUN)
    counters = policy.count(Counters(), failed)
    decision = policy.decide(counters, failed)
    assert (decision.what, decision.reason) == ("replan", "its skill failed: no such file")
    # With the re-plans spent, the Decision agent goes on through the screen.
    spent = Counters(counters.consecutive_failures, RUN.max_replans)
    assert policy.decide(spent, failed).what == "go_on"
    patient = EscalationPolicy(RUN.model_copy(update={"replan_on_skill_failure": False}))
    assert patient.decide(counters, failed).what == "go_on"
