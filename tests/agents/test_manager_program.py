"""The Manager writes a typed program (orchestration with scripted replies; the real model's
programs are measured in docs/results.md)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.manager import PROGRAM_ATTEMPTS, REASK_TEMPERATURE, Manager, Replanning
from pcagent.agents.manager_memory import Example
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import program_plan
from pcagent.errors import PromptTooLongError
from pcagent.models.backend import BackendInfo
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.structured import StructuredChatModel
from pcagent.skills import SkillCatalog, default_catalog

APPS = {"text_editor": "plain text files", "clock": "alarms and world clocks"}


def _manager(models: ScriptedModels, skills: SkillCatalog | None = None) -> Manager:
    """A Manager whose asks are whole programs only (the single-step asks after them:
    tests/agents/test_focused_steps.py)."""
    catalog = default_catalog().for_apps(APPS) if skills is None else skills
    return Manager(models.for_role("manager"), apps=APPS, skills=catalog, asks_single_steps=False)


def _reply(*steps: dict[str, object]) -> str:
    return json.dumps({"steps": list(steps)})


READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}


def test_a_program_becomes_the_plan_with_its_calls_and_the_skills_in_the_prompt() -> None:
    find = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the meeting's time"},
    }
    alarm = {"id": "s3", "skill": "set_alarm", "args": {"time": "{s2.time}", "minutes_before": 60}}
    models = ScriptedModels(manager=[_reply(READ, find, alarm)])
    outcome = _manager(models).plan("whatever the words, memo.txt")
    assert not outcome.fallback
    first, second, third = outcome.plan.subtasks
    assert (first.skill, first.app, first.args) == ("read_text_file", "text_editor", READ["args"])
    assert (second.skill, second.depends_on) == ("extract_values", ["s1"])
    assert (third.skill, third.depends_on) == ("set_alarm", ["s2"])
    prompt = models.backends["manager"].requests[0].messages[0].text
    assert "set_alarm(" in prompt and "send_mail" not in prompt


def test_an_invalid_program_is_re_asked_with_its_problems_then_falls_back() -> None:
    wrong = {"id": "s1", "skill": "set_alarm", "args": {"time": {"from": "s9"}}}
    models = ScriptedModels(manager=[_reply(wrong)] * PROGRAM_ATTEMPTS)
    outcome = _manager(models).plan("set it")
    requests = models.backends["manager"].requests
    assert len(requests) == PROGRAM_ATTEMPTS == 3
    second_request = requests[1].messages[-1].text
    assert "unusable" in second_request and "s9" in second_request
    # Each re-ask carries the latest program and its problems only, so the prompt stays short.
    assert len(requests[2].messages) == len(requests[1].messages)
    assert outcome.fallback and "s9" in outcome.problem
    (only,) = outcome.plan.subtasks
    assert (only.skill, only.description) == ("", "set it")
    assert only.doubt.startswith("no usable program: the whole instruction ran as one GUI step")


def test_a_greedy_model_s_re_asks_may_be_sampled_and_then_go_on_after_a_repeated_reply() -> None:
    wrong = {"id": "s1", "skill": "set_alarm", "args": {"time": {"from": "s9"}}}
    greedy = ScriptedBackend([_reply(wrong)] * 3, info=BackendInfo(name="local:x", greedy=True))
    manager = Manager(
        StructuredChatModel(greedy),
        apps=APPS,
        skills=default_catalog(),
        reask_temperature=REASK_TEMPERATURE,
        asks_single_steps=False,
    )
    assert manager.plan("set it").fallback
    assert [r.temperature for r in greedy.requests] == [0.0, REASK_TEMPERATURE, REASK_TEMPERATURE]
    # A model sampled of its own is re-asked at its own temperature.
    warm = ScriptedBackend([_reply(wrong)] * 3, info=BackendInfo(name="hosted:x"))
    model = StructuredChatModel(warm, temperature=0.4)
    options = {"reask_temperature": 0.7, "asks_single_steps": False}
    Manager(model, apps=APPS, skills=default_catalog(), **options).plan("set it")
    assert [r.temperature for r in warm.requests] == [0.4, 0.4, 0.4]


def test_a_greedy_model_that_writes_its_program_again_is_not_asked_a_third_time() -> None:
    # Re-asked greedily (the default), a greedy model asked the same again answers the same: a
    # repeated reply is the last one.
    def greedy_manager(backend: ScriptedBackend) -> Manager:
        return Manager(
            StructuredChatModel(backend),
            apps=APPS,
            skills=default_catalog(),
            asks_single_steps=False,
        )

    wrong = {"id": "s1", "skill": "set_alarm", "args": {"time": {"from": "s9"}}}
    greedy = ScriptedBackend([_reply(wrong)] * 3, info=BackendInfo(name="local:x", greedy=True))
    assert greedy_manager(greedy).plan("set it").fallback
    assert len(greedy.requests) == 2
    # Kept with a doubt: the repeated program is the one taken, after two asks.
    moved = {
        "id": "s1",
        "skill": "shift_time",
        "args": {"time": "11:15", "direction": "before", "hours": 1},
    }
    alarm = {"id": "s2", "skill": "set_alarm", "args": {"time": {"from": "s1"}, "hours_before": 1}}
    twice = ScriptedBackend([_reply(moved, alarm)] * 3, info=BackendInfo("local:x", greedy=True))
    outcome = greedy_manager(twice).plan("x")
    assert len(twice.requests) == 2 and not outcome.fallback
    assert "already moved" in outcome.plan.subtasks[1].doubt


def test_the_usable_program_with_the_fewest_doubts_is_kept_when_the_asks_run_out() -> None:
    moved = {
        "id": "s1",
        "skill": "shift_time",
        "args": {"time": "11:15", "direction": "before", "hours": 1},
    }
    alarm = {"id": "s2", "skill": "set_alarm", "args": {"time": {"from": "s1"}, "hours_before": 1}}
    wrong = {"id": "s1", "skill": "set_alarm", "args": {"time": {"from": "s9"}}}
    # Re-asked for its doubt, the model wrote programs the checks refuse: the doubted one stays.
    models = ScriptedModels(manager=[_reply(moved, alarm), _reply(wrong), _reply(wrong)])
    outcome = _manager(models).plan("x")
    assert len(models.backends["manager"].requests) == PROGRAM_ATTEMPTS
    assert not outcome.fallback
    assert [s.skill for s in outcome.plan.subtasks] == ["shift_time", "set_alarm"]
    assert "already moved" in outcome.plan.subtasks[1].doubt
    # Of two usable programs, the one with fewer doubts: two reads of files nobody named, the
    # first never used, against one time moved twice.
    other = {"id": "s2", "skill": "read_text_file", "args": {"path": "Documents/other.txt"}}
    models = ScriptedModels(manager=[_reply(READ, other), _reply(moved, alarm), _reply(wrong)])
    kept = _manager(models).plan("x").plan.subtasks
    assert [s.skill for s in kept] == ["shift_time", "set_alarm"]


def test_a_program_re_asked_once_and_corrected_is_taken() -> None:
    wrong = {"id": "s1", "skill": "calculate", "args": {"expression": "1+1"}}  # no calculator
    models = ScriptedModels(manager=[_reply(wrong), _reply(READ)])
    outcome = _manager(models).plan("read memo.txt")
    assert not outcome.fallback and outcome.plan.subtasks[0].skill == "read_text_file"


def test_without_skills_the_grammar_offers_gui_steps_only() -> None:
    gui = {"id": "s1", "skill": "gui", "app": "clock", "task": "Add an alarm at 9"}
    models = ScriptedModels(manager=[_reply(gui)])
    outcome = _manager(models, SkillCatalog(())).plan("alarm at 9")
    schema = json.dumps(models.backends["manager"].requests[0].schema)
    assert '"const": "gui"' in schema and "set_alarm" not in schema
    assert outcome.plan.subtasks[0].description == "Add an alarm at 9"


def test_a_replan_numbers_new_steps_after_the_old_and_may_use_their_values() -> None:
    done = SubtaskSpec(id="s1", description="read_text_file(path='a.txt')", skill="read_text_file")
    failed = SubtaskSpec(id="s2", description="set_alarm(...)", skill="set_alarm")
    retry = {"id": "s3", "skill": "gui", "app": "clock", "task": "Add the alarm", "uses": ["s1"]}
    # a screen step beside the clock's skills is doubted and asked again (:mod:`screen_steps`)
    models = ScriptedModels(manager=[_reply(retry)] * PROGRAM_ATTEMPTS)
    outcome = _manager(models).replan(
        Replanning("x", [done], {"s1": "9:00"}, failed, "no alarm seen")
    )
    assert [s.id for s in outcome.plan.subtasks] == ["s3"]
    assert "from s3 on" in models.backends["manager"].requests[0].messages[-1].text


def test_a_replan_naming_a_key_the_finished_step_did_not_find_is_re_asked() -> None:
    args = {"text": "14:00 John", "names": ["time"], "what": "the meeting's time"}
    done = SubtaskSpec(id="s1", description="extract", skill="extract_values", args=args)
    failed = SubtaskSpec(id="s2", description="set_alarm(...)", skill="set_alarm")
    wrong = {"id": "s3", "skill": "set_alarm", "args": {"time": "{s1.place}"}}
    right = {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s1", "key": "time"}}}
    models = ScriptedModels(manager=[_reply(wrong), _reply(right)])
    replanning = Replanning("x", [done], {"s1": "14:00"}, failed, "no alarm seen")
    outcome = _manager(models).replan(replanning)
    assert outcome.plan.subtasks[0].args == right["args"]
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "s1 gives ['time'], not 'place'" in asked_again


def test_a_replan_is_shown_memorys_programs_unless_switched_off() -> None:
    def memory(instruction: str, k: int = 3, *_: object, **__: object) -> list[Example]:
        return [Example(f"like {instruction}", ({"skill": "set_alarm"},))]

    failed = SubtaskSpec(id="s1", description="set_alarm(...)", skill="set_alarm")
    retry = {"id": "s2", "skill": "gui", "app": "clock", "task": "Add the alarm"}
    replanning = Replanning("wake me at 9", [], {}, failed, "no alarm seen")
    for shown in (True, False):
        models = ScriptedModels(manager=[_reply(retry)] * PROGRAM_ATTEMPTS)
        catalog = default_catalog().for_apps(APPS)
        manager = Manager(
            models.for_role("manager"),
            apps=APPS,
            skills=catalog,
            memory=memory,
            examples_in_replans=shown,
            asks_single_steps=False,
        )
        outcome = manager.replan(replanning)
        assert [s.id for s in outcome.plan.subtasks] == ["s2"]
        prompt = "".join(m.text for m in models.backends["manager"].requests[0].messages)
        assert ("Instruction: like wake me at 9" in prompt) is shown
        assert "This step failed: s1" in prompt


def test_a_replan_that_repeats_the_failed_call_is_re_asked_then_retried_through_the_gui() -> None:
    args = {"time": "09:00", "minutes_before": 30}
    failed = SubtaskSpec(id="s1", description="set_alarm(...)", skill="set_alarm", args=args)
    again = {"id": "s2", "skill": "set_alarm", "args": args}
    other = {"id": "s2", "skill": "set_alarm", "args": {"time": "09:00", "minutes_before": 10}}
    models = ScriptedModels(manager=[_reply(again), _reply(other)])
    outcome = _manager(models).replan(Replanning("x", [], {}, failed, "no alarm seen"))
    assert not outcome.fallback and outcome.plan.subtasks[0].args == other["args"]
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "repeats the call of s1 that just failed" in asked_again
    models = ScriptedModels(manager=[_reply(again)] * PROGRAM_ATTEMPTS)
    outcome = _manager(models).replan(Replanning("x", [], {}, failed, "no alarm seen"))
    (retry,) = outcome.plan.subtasks
    assert outcome.fallback and (retry.id, retry.skill, retry.args) == ("s2", "", {})
    assert retry.description.startswith("On the screen, do what set_alarm was to do (")


def test_a_failed_step_of_no_application_is_not_retried_on_the_screen() -> None:
    """A value not found in a text, and no usable re-plan: nothing is left to try (a screen
    step has no window to do it in). A failed alarm is still retried on the screen (above)."""
    args = {"text": "Dinner at the harbour", "names": ["time"], "what": "the dinner's time"}
    failed = SubtaskSpec(id="s2", description="extract_values(...)", skill="extract_values")
    again = {"id": "s3", "skill": "extract_values", "args": args}
    failed = failed.model_copy(update={"args": args})
    models = ScriptedModels(manager=[_reply(again)] * PROGRAM_ATTEMPTS)
    outcome = _manager(models).replan(Replanning("x", [], {}, failed, "values not found"))
    assert outcome.fallback and "extract_values works in no application" in outcome.nothing_left
    assert outcome.nothing_left.startswith("s2 (extract_values) failed")
    alarm = SubtaskSpec(id="s1", description="set_alarm(...)", skill="set_alarm")
    repeat = {"id": "s2", "skill": "set_alarm", "args": {}}
    models = ScriptedModels(manager=[_reply(repeat)] * PROGRAM_ATTEMPTS)
    outcome = _manager(models).replan(Replanning("x", [], {}, alarm, "no alarm seen"))
    assert outcome.fallback and outcome.nothing_left == ""


def test_a_replan_that_redoes_a_finished_call_is_seen_to_repeat_the_failed_one() -> None:
    """Finished: s1 read the memo; failed: s2 extracted from it. The re-plan reads the memo again
    as s3 and extracts from s3 as s4: the same calls under new ids. s3 is dropped for s1, so s4
    is s2's call again, and the Manager is re-asked."""
    read = SubtaskSpec(id="s1", description="read", skill="read_text_file", args=READ["args"])
    extract_args = {"text": {"from": "s1"}, "names": ["time"], "what": "the meeting's time"}
    failed = SubtaskSpec(id="s2", description="extract", skill="extract_values", args=extract_args)
    again = _reply(
        {**READ, "id": "s3"},
        {"id": "s4", "skill": "extract_values", "args": {**extract_args, "text": {"from": "s3"}}},
    )
    other = _reply({"id": "s3", "skill": "gui", "app": "text_editor", "task": "find the time"})
    models = ScriptedModels(manager=[again, other, other])  # the screen step is doubted
    replanning = Replanning("find the time in memo.txt", [read], {"s1": "10:15 call"}, failed, "x")
    outcome = _manager(models).replan(replanning)
    assert not outcome.fallback and outcome.plan.subtasks[0].skill == ""
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "s4 repeats the call of s2 that just failed" in asked_again


def test_a_replan_of_finished_calls_only_is_re_asked() -> None:
    """Finished: s1 read the memo, s2 extracted its time; failed: a screen step s3. The re-plan
    writes the reading and the extraction again, nothing else: dropping the repeats would
    leave no step, so the program ran again whole (a rewording of pc03, 2026-12-07)."""
    read = SubtaskSpec(id="s1", description="read", skill="read_text_file", args=READ["args"])
    extract_args = {"text": {"from": "s1"}, "names": ["time"], "what": "the meeting's time"}
    found = SubtaskSpec(id="s2", description="extract", skill="extract_values", args=extract_args)
    failed = SubtaskSpec(id="s3", description="set the alarm", app="clock")
    again = _reply(
        {**READ, "id": "s4"},
        {"id": "s5", "skill": "extract_values", "args": {**extract_args, "text": {"from": "s4"}}},
    )
    other = _reply(
        {"id": "s4", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}
    )
    models = ScriptedModels(manager=[again, other])
    hub = {"s1": "14:00 meeting", "s2": '{"time": "14:00"}'}
    outcome = _manager(models).replan(Replanning("x", [read, found], hub, failed, "gave up"))
    assert not outcome.fallback and [s.skill for s in outcome.plan.subtasks] == ["set_alarm"]
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "every step repeats one already finished (s4 is s1, s5 is s2)" in asked_again


def test_a_prompt_too_long_for_the_model_is_asked_compact_then_falls_back() -> None:
    too_long = PromptTooLongError("the prompt is too long (5000 tokens; the context holds 4096)")
    models = ScriptedModels(manager=[too_long, _reply(READ)])
    outcome = _manager(models).plan("read memo.txt")
    assert not outcome.fallback and outcome.plan.subtasks[0].skill == "read_text_file"
    compact = models.backends["manager"].requests[1].messages[0].text
    assert "- read_text_file(path)" in compact and "Open a text file" not in compact
    models = ScriptedModels(manager=[too_long, too_long])
    outcome = _manager(models).plan("read memo.txt")
    assert outcome.fallback and "too long" in outcome.problem


def test_a_re_ask_too_long_for_the_model_keeps_the_programs_already_written() -> None:
    """A rewording of pc18 (2026-12-07): the third ask was too long, the error threw away the
    programs of the first two, and each plan became the whole instruction as one screen step."""
    find = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["time", "place"], "what": "the meeting"},
    }
    alarm = {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}}
    too_long = PromptTooLongError("the prompt is too long (4300 tokens; the context holds 4096)")
    models = ScriptedModels(manager=[_reply(READ, find, alarm), too_long])
    outcome = _manager(models).plan("set an alarm for the meeting in memo.txt")
    assert not outcome.fallback
    assert [s.skill for s in outcome.plan.subtasks] == [
        "read_text_file",
        "extract_values",
        "set_alarm",
    ]
    assert "finds place, and no later step uses it" in outcome.plan.subtasks[1].doubt
    assert len(models.backends["manager"].requests) == 2  # no compact prompt asked after it


def test_asked_to_list_the_requests_first_the_reply_opens_with_them() -> None:
    """The grammar puts ``requests`` before ``steps`` (the order the model writes them in), the
    prompt says so, and the program is the steps alone; unasked, neither changes."""
    listed = json.dumps({"requests": ["read memo.txt"], "steps": [READ]})
    models = ScriptedModels(manager=[listed, _reply(READ)])
    catalog = default_catalog().for_apps(APPS)
    asked = Manager(models.for_role("manager"), apps=APPS, skills=catalog, lists_requests=True)
    outcome = asked.plan("Read memo.txt")
    assert [s.id for s in outcome.plan.subtasks] == ["s1"] and not outcome.fallback
    _manager(models).plan("Read memo.txt")
    first, second = models.backends["manager"].requests
    schema = first.schema
    assert list(schema["properties"]) == ["requests", "steps"]
    assert schema["required"] == ["requests", "steps"]
    assert 'Open the reply with "requests"' in first.messages[0].text
    assert list(second.schema["properties"]) == ["steps"]
    assert '"requests"' not in second.messages[0].text


def test_memory_s_programs_may_be_shown_nearest_last() -> None:
    """Memory gives its programs nearest first; ``nearest_example_last`` puts the nearest next to
    the instruction, each program kept whole with its instruction."""

    def memory(instruction: str, k: int = 3, *_: object, **__: object) -> list[Example]:
        return [Example(f"near {n}", ({"id": f"s{n}"},)) for n in (1, 2, 3)]

    order = {}
    for last in (False, True):
        models = ScriptedModels(manager=[_reply(READ)])
        manager = Manager(
            models.for_role("manager"),
            apps=APPS,
            skills=default_catalog().for_apps(APPS),
            memory=memory,
            nearest_example_last=last,
        )
        manager.plan("read memo.txt")
        prompt = "".join(m.text for m in models.backends["manager"].requests[0].messages)
        order[last] = sorted((1, 2, 3), key=lambda n: prompt.index(f"Instruction: near {n}"))
        program = 'Program: {{"steps":[{{"id":"s{}"}}]}}'
        assert all(f"Instruction: near {n}\n{program.format(n)}" in prompt for n in (1, 2, 3))
    assert order == {False: [1, 2, 3], True: [3, 2, 1]}


def test_a_replan_that_writes_the_failed_screen_step_again_is_re_asked() -> None:
    """A rewording of pc02 (2026-12-05): the memo opened on the screen "without effect" was
    re-planned as the very same screen step, four times."""
    step = {
        "id": "s7",
        "skill": "gui",
        "app": "text_editor",
        "task": "open the memo.txt file",
    }
    (failed,) = program_plan(as_program(step), default_catalog()).subtasks
    again = {**step, "id": "s8"}
    other = {**again, "task": "read the meeting's place in the open memo"}
    models = ScriptedModels(manager=[_reply(again), _reply(other)])
    replanning = Replanning("x", [], {}, failed, "no effect")
    screen_only = SkillCatalog(())  # beside skills, a screen step is a doubt of its own
    outcome = _manager(models, screen_only).replan(replanning)
    assert not outcome.fallback and outcome.plan.subtasks[0].description.startswith("read the")
    asked_again = models.backends["manager"].requests[1].messages[-1].text
    assert "s8 repeats the screen step s7 that just failed" in asked_again
    # Other words, or another application, are another step.
    for changed in ({"task": "open memo.txt and read the place"}, {"app": "clock"}):
        models = ScriptedModels(manager=[_reply({**again, **changed})])
        outcome = _manager(models, screen_only).replan(replanning)
        assert not outcome.fallback and len(models.backends["manager"].requests) == 1
