"""Each agent's orchestration logic with scripted models: prompts carry what they must, bad
replies are re-asked or degrade safely. (The real-model path is tested in tests/runtime.)"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from tests.agents.scripted import ScriptedModels, decision, reply

from pcagent import actions as act
from pcagent import app_actions as app
from pcagent.agents import (
    DecisionAgent,
    DecisionInput,
    ProgressAgent,
    ProgressInput,
    Reflection,
    ReflectionAgent,
    ReflectionInput,
    Scheduler,
    ScreenDiff,
    SubtaskSpec,
    default_pool,
)
from pcagent.agents.prompting import role_notes
from pcagent.env.apps import app_infos
from pcagent.errors import PromptTooLongError
from pcagent.skills.lists import counted_items
from pcagent.step_context import StepLine

#: The sandbox's applications as the run layer hands them over: names, and name -> description.
SANDBOX_APPS = {info.name: info.description for info in app_infos()}
SCREEN = (1280, 800)

TWO_STEP_PLAN = reply(
    subtasks=[
        {
            "id": "s1",
            "description": "Read the time in notes.txt",
            "app": "text_editor",
            "outputs": ["time"],
        },
        {
            "id": "s2",
            "description": "Compute {time} in the calculator",
            "app": "calculator",
            "inputs": ["time"],
            "depends_on": ["s1"],
        },
    ]
)


def test_decision_re_asks_malformed_output_and_returns_a_typed_action() -> None:
    role = default_pool(SANDBOX_APPS).get("calculator_clock")
    models = ScriptedModels(
        decision=["I would click 7", decision({"kind": "click", "x": 10, "y": 20})]
    )
    agent = DecisionAgent(models.for_role("decision"), role=role)
    result = agent.decide(
        DecisionInput(
            subtask="press 7",
            listing='1 button "7" @10,20',
            screen=SCREEN,
            progress="started",
            hub={"time": "9:30"},
            reflection="no_change: nothing happened",
        )
    )
    assert result.action == act.Click(x=10, y=20)
    first, second = models.backends["decision"].requests
    assert "time = 9:30" in first.messages[-1].text
    assert "no_change: nothing happened" in first.messages[-1].text
    assert "rejected" in second.messages[-1].text  # the re-ask carries the error


def test_decision_shows_a_long_value_handed_on_under_three_names_once() -> None:
    role = default_pool(SANDBOX_APPS).get("calculator_clock")
    mail = "Hi Alex, the meeting with the partners moved; it now begins at 10:15 in room 4. Howie"
    models = ScriptedModels(decision=[decision({"kind": "click", "x": 10, "y": 20})])
    DecisionAgent(models.for_role("decision"), role=role).decide(
        DecisionInput(
            subtask="set an alarm before the meeting",
            listing='1 button "7" @10,20',
            screen=SCREEN,
            hub={"s1": mail, "s2_read": mail, "s2": mail},
        )
    )
    prompt = models.backends["decision"].requests[0].messages[-1].text
    assert prompt.count("room 4") == 1
    assert "s2_read = (the same as s1)" in prompt


def test_a_skill_call_naming_the_roles_action_is_that_action() -> None:
    # The 1.5B model named the editor's action as a skill; the action meant is taken.
    role = default_pool(SANDBOX_APPS, act.APP_ACTION_KINDS).get("text_notes")
    assert "editor_open" in role.allowed_kinds(False)
    called = {"kind": "use_skill", "skill": "editor_open", "args": {"path": "Documents/memo.txt"}}
    models = ScriptedModels(decision=[decision(called)])
    result = DecisionAgent(models.for_role("decision"), role=role).decide(
        DecisionInput(
            subtask="open memo.txt", listing="", screen=SCREEN, skills="- read_text_file(path)"
        )
    )
    assert result.action == app.EditorOpen(path="Documents/memo.txt")


def test_decision_outside_the_domain_is_a_typed_failure_not_an_action() -> None:
    role = default_pool(SANDBOX_APPS).get("app_launcher")
    bad = decision({"kind": "type", "text": "hello"})
    agent = DecisionAgent(ScriptedModels(decision=[bad, bad]).for_role("decision"), role=role)
    result = agent.decide(DecisionInput(subtask="x", listing="", screen=SCREEN))
    assert result.action is None and result.failure is not None


def test_decision_opens_only_the_roles_applications_and_returns_the_plain_action() -> None:
    role = default_pool(SANDBOX_APPS).get("calculator_clock")
    invented = decision({"kind": "open_app", "app": "gnome-calculator"})
    good = decision({"kind": "open_app", "app": "clock"})
    models = ScriptedModels(decision=[invented, good])
    result = DecisionAgent(models.for_role("decision"), role=role).decide(
        DecisionInput(subtask="set an alarm", listing="", screen=SCREEN)
    )
    assert type(result.action) is act.OpenApp and result.action == act.OpenApp(app="clock")
    assert "rejected" in models.backends["decision"].requests[1].messages[-1].text


def test_decision_sees_the_whole_task_when_its_subtask_is_a_part() -> None:
    role = default_pool(SANDBOX_APPS).get("mail")
    send = decision({"kind": "hotkey", "keys": ["ctrl", "n"]})
    models = ScriptedModels(decision=[send, send])
    agent = DecisionAgent(models.for_role("decision"), role=role)
    task = "Write notes.txt in the editor. Then send this file to ana@example.test."
    agent.decide(DecisionInput(subtask="Then send this file", listing="", screen=SCREEN, task=task))
    agent.decide(DecisionInput(subtask=task, listing="", screen=SCREEN, task=task))
    part, whole = (r.messages[-1].text for r in models.backends["decision"].requests)
    # "this file" is named only in the task; a subtask that is the task is not said twice
    assert f"Part of the task: {task}" in part
    assert "Part of the task" not in whole


def test_a_subtask_is_offered_its_application_s_own_actions_first() -> None:
    from pcagent.agents.decision import app_actions_first

    role = default_pool(SANDBOX_APPS, act.APP_ACTION_KINDS).get("calculator_clock")
    kinds = role.allowed_kinds(False)
    first = app_actions_first(kinds, "clock")
    assert {"clock_add_alarm", "clock_add_world_clock", "done", "answer"} <= set(first)
    assert not {"click", "click_element", "calculator_evaluate"} & set(first)
    assert app_actions_first(kinds, "") == kinds  # no application: everything
    gui_only = default_pool(SANDBOX_APPS).get("calculator_clock").allowed_kinds(False)
    assert app_actions_first(gui_only, "clock") == gui_only  # no actions of its own: the GUI

    click = decision({"kind": "click", "x": 5, "y": 5})
    alarm = decision({"kind": "clock_add_alarm", "time": "09:15"})
    models = ScriptedModels(decision=[click, alarm, click])
    agent = DecisionAgent(models.for_role("decision"), role=role)
    listing = 'marks: header\n1 button "Alarms" @40,60\n2 text "Name" focused @90,60'
    data = DecisionInput(subtask="set an alarm", listing=listing, screen=SCREEN, app="clock")
    chosen = agent.decide(replace(data, app_first=True))
    # the click is no choice while the application's own actions come first: asked again
    assert chosen.action is not None and chosen.action.kind == "clock_add_alarm"
    offered = models.backends["decision"].requests[0].messages[0].text  # the action list
    assert "clock_add_alarm(" in offered and "click(x: int" not in offered
    # nothing offered points or types: only the focused mark is shown
    first_prompt = models.prompts("decision")[0]
    assert '2 text "Name" focused' in first_prompt and '"Alarms" @40,60' not in first_prompt
    assert agent.decide(data).action == act.Click(x=5, y=5)  # after a failure: the GUI too
    assert '1 button "Alarms" @40,60' in models.prompts("decision")[-1]


def test_decision_is_not_offered_open_app_while_its_application_is_in_front() -> None:
    again = decision({"kind": "open_app", "app": "calculator"})
    evaluate = decision({"kind": "calculator_evaluate", "expression": "12 * 7"})
    models = ScriptedModels(decision=[again, evaluate])
    role = default_pool(SANDBOX_APPS, act.APP_ACTION_KINDS).get("calculator_clock")
    result = DecisionAgent(models.for_role("decision"), role=role).decide(
        DecisionInput(subtask="compute 12 * 7", listing="", screen=SCREEN, in_its_app=True)
    )
    assert result.action == app.CalculatorEvaluate(expression="12 * 7")
    assert "rejected" in models.backends["decision"].requests[1].messages[-1].text
    assert "open_app(" not in models.prompts("decision")[0]
    # elsewhere it is offered, with every application of the role
    models = ScriptedModels(decision=[again])
    result = DecisionAgent(models.for_role("decision"), role=role).decide(
        DecisionInput(subtask="compute 12 * 7", listing="", screen=SCREEN)
    )
    assert result.action == act.OpenApp(app="calculator")


def test_click_element_names_a_listed_label_and_becomes_a_click_at_its_centre() -> None:
    targets = {"Save": (114, 68), "Close #3": (10, 10), "Close #7": (1270, 10)}
    models = ScriptedModels(
        decision=[
            decision({"kind": "click_element", "label": "Open"}),  # not on screen: re-asked
            decision({"kind": "click_element", "label": "Close #7"}, reasoning="close it"),
        ]
    )
    agent = DecisionAgent(models.for_role("decision"), role=default_pool(SANDBOX_APPS).get("mail"))
    result = agent.decide(
        DecisionInput(subtask="close the window", listing="", screen=SCREEN, targets=targets)
    )
    assert result.action == act.Click(x=1270, y=10)
    assert "click_element 'Close #7' -> (1270, 10)" in result.reasoning
    first = models.backends["decision"].requests[0]
    assert "click_element(label: str)" in first.messages[0].text
    assert sorted(_enum_of(first.schema, "label")) == sorted(targets)
    reask = models.backends["decision"].requests[1].messages[-1].text
    assert "Input should be 'Save', 'Close #3' or 'Close #7'" in reask


def test_the_decision_prompt_puts_what_changes_every_step_last() -> None:
    """A local model reuses the cached prompt up to the first changed token: the screen (which
    changes in places) comes before the progress, history and reflection (which change every
    step)."""
    models = ScriptedModels(decision=[decision({"kind": "done"})])
    agent = DecisionAgent(models.for_role("decision"), role=default_pool(SANDBOX_APPS).get("mail"))
    agent.decide(
        DecisionInput(
            subtask="x",
            listing='1 button "Send"',
            screen=SCREEN,
            progress="p",
            history=[StepLine(number=1, action=act.Wait(seconds=1), verdict="success")],
        )
    )
    user = models.backends["decision"].requests[0].messages[-1].text
    assert user.index('1 button "Send"') < user.index("Progress: p") < user.index("Recent steps")
    assert "- 1: wait(seconds=1.0) -> success" in user  # the typed line, rendered


def test_without_labelled_marks_click_element_is_not_offered() -> None:
    models = ScriptedModels(decision=[decision({"kind": "click", "x": 5, "y": 5})])
    agent = DecisionAgent(models.for_role("decision"), role=default_pool(SANDBOX_APPS).get("mail"))
    agent.decide(DecisionInput(subtask="x", listing="", screen=SCREEN))
    request = models.backends["decision"].requests[0]
    assert "click_element" not in request.messages[0].text
    assert "click_element" not in json.dumps(request.schema)


def _enum_of(schema: dict[str, Any], field: str) -> list[str]:
    """The enum of ``field`` anywhere in a JSON schema."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            prop = node.get("properties", {}).get(field)
            if isinstance(prop, dict) and "enum" in prop:
                found.extend(prop["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


def test_reflection_skips_the_model_when_nothing_changed() -> None:
    models = ScriptedModels()  # any model call would raise: nothing is queued
    agent = ReflectionAgent(models.for_role("reflection"))
    verdict = agent.reflect(
        ReflectionInput(
            subtask="x", thought="", action=act.Click(x=1, y=1), diff=ScreenDiff(), listing_after=""
        )
    )
    assert verdict.verdict == "no_change" and not verdict.asked_model
    answered = agent.reflect(
        ReflectionInput(
            subtask="x",
            thought="",
            action=act.Answer(text="4"),
            diff=ScreenDiff(),
            listing_after="",
        )
    )
    assert answered.verdict == "success"


def test_reflection_asks_with_the_diff_when_something_changed() -> None:
    models = ScriptedModels(reflection=[reply(verdict="unexpected_change", reason="a dialog")])
    diff = ScreenDiff(changed_pixels=5000, marks_added=['7 dialog "Save As"'])
    verdict = ReflectionAgent(models.for_role("reflection")).reflect(
        ReflectionInput(
            subtask="x",
            thought="save",
            action=act.Click(x=10, y=10),
            diff=diff,
            listing_after="",
        )
    )
    assert verdict.verdict == "unexpected_change" and verdict.asked_model
    assert "Save As" in models.prompts("reflection")[0]


def test_progress_reports_only_the_wanted_outputs_and_survives_garbage() -> None:
    models = ScriptedModels(
        progress=[
            reply(progress="read it", completed=True, outputs={"time": "9:30", "junk": "x"}),
            "not json",
            "still not json",
        ]
    )
    agent = ProgressAgent(models.for_role("progress"))
    data = ProgressInput(
        subtask="read",
        outputs_needed=["time"],
        previous="",
        action="a",
        verdict="success",
        answers={},
    )
    report = agent.update(data)
    assert report.outputs == {"time": "9:30"} and report.completed
    kept = agent.update(
        ProgressInput(
            subtask="read",
            outputs_needed=["time"],
            previous="before",
            action="a",
            verdict="success",
            answers={},
        )
    )
    assert kept.progress == "before" and not kept.completed
    # The model is asked for the wanted outputs by name and no others: asked for any, a small
    # model copied whole pages under names nobody needed.
    schema = models.backends["progress"].requests[0].schema
    outputs = schema["$defs"]["Outputs"]
    assert list(outputs["properties"]) == ["time"] and outputs["additionalProperties"] is False


def test_progress_cuts_a_reading_too_long_for_the_model_then_keeps_its_account() -> None:
    """A prompt the model's context cannot hold never ends the run (pc05, 2026-12-03)."""
    page = "\n".join(f"Result {n}: something else entirely" for n in range(300))
    read = f"{page}\nInternational Labour Day falls on 1 May 2025."
    too_long = PromptTooLongError("the prompt is too long (4218 tokens; the context holds 4096)")
    found = reply(progress="found the date", outputs={"date": "1 May 2025"}, completed=True)
    models = ScriptedModels(progress=[too_long, found, too_long, too_long])
    agent = ProgressAgent(models.for_role("progress"))
    data = ProgressInput(
        subtask="find the date of International Labour Day",
        outputs_needed=["date"],
        previous="searched",
        action="web_search",
        verdict="success",
        answers={},
        read=read,
    )
    report = agent.update(data)
    assert report.completed and report.outputs == {"date": "1 May 2025"}
    shorter = models.backends["progress"].requests[1].messages[-1].text
    assert "1 May 2025" in shorter and "Result 299" not in shorter
    kept = agent.update(data)
    assert kept.progress == "searched" and not kept.completed and not kept.outputs


def test_progress_keeps_only_values_the_read_text_supports() -> None:
    memo = "Memo for Tuesday\nMorning\n08:30  Breakfast with Lisa\n10:15  Team meeting"
    invented = reply(progress="read", outputs={"time": "2023-04-01T10:00:00"})
    copied = reply(progress="read", outputs={"time": "10:15"})
    models = ScriptedModels(progress=[invented, copied, invented])
    agent = ProgressAgent(models.for_role("progress"))

    def update(evidence: str | None) -> dict[str, str]:
        data = ProgressInput(
            subtask="read the second morning event",
            outputs_needed=["time"],
            previous="",
            action="editor_open(path='memo.txt')",
            verdict="success",
            answers={},
            read=memo,
            evidence=evidence,
        )
        return agent.update(data).outputs

    assert update(memo) == {}  # invented: nothing it saw says 2023
    assert update(memo) == {"time": "10:15"}
    assert update(None) == {"time": "2023-04-01T10:00:00"}  # no evidence given: no check
    # what was read is in the prompt, so that the value can be copied from it (its list
    # items counted: the subtask picks one by its place)
    assert (
        "What the last reading action read:\n" + counted_items(memo)
        in models.prompts("progress")[0]
    )


def test_progress_drops_a_value_that_gives_the_question_back() -> None:
    memo = "Morning\n08:30  Breakfast with Lisa\n10:15  Team meeting"
    restated = reply(progress="read", outputs={"event": "The second event of the morning"})
    read = reply(progress="read", outputs={"event": "10:15 Team meeting"})
    models = ScriptedModels(progress=[restated, read])
    agent = ProgressAgent(models.for_role("progress"))
    action = "done(summary='The second event of the morning is read')"

    def update() -> dict[str, str]:
        data = ProgressInput(
            subtask="find the second event of the morning",
            outputs_needed=["event"],
            previous="",
            action=action,
            verdict="success",
            answers={},
            evidence=f"{memo}\n{action}",
            asked="Open memo.txt and find the second event of the morning.",
            shown=memo,
        )
        return agent.update(data).outputs

    assert update() == {}  # every word is the task's or the step's own: nothing was found
    assert update() == {"event": "10:15 Team meeting"}


def test_scheduler_lets_the_model_choose_among_candidates_only() -> None:
    pool = default_pool(SANDBOX_APPS)
    subtask = SubtaskSpec(id="s1", description="compute 9*60")  # no application named
    models = ScriptedModels(scheduler=[reply(role="calculator_clock", reason="maths")])
    scheduler = Scheduler(models.for_role("scheduler"), pool=pool)
    choice = scheduler.assign(subtask)
    assert (choice.role, choice.asked_model) == ("calculator_clock", True)
    # a declined role cannot be chosen again: the schema excludes it, so the model's pick of it
    # is invalid and the first role left is taken
    models.push("scheduler", reply(role="calculator_clock"), reply(role="calculator_clock"))
    choice = scheduler.assign(subtask, exclude=["calculator_clock"])
    assert choice.role != "calculator_clock"


def test_the_subtask_s_application_decides_its_role_without_the_model() -> None:
    pool = default_pool(SANDBOX_APPS)
    models = ScriptedModels(scheduler=[])  # a model call would find no reply
    scheduler = Scheduler(models.for_role("scheduler"), pool=pool)
    writing = SubtaskSpec(id="s2", description="Write them into a new text file", app="text_editor")
    choice = scheduler.assign(writing)
    assert (choice.role, choice.asked_model) == ("text_notes", False)
    # its specialist declined: the launcher, which holds every application, is left
    assert scheduler.assign(writing, exclude=["text_notes"]).role == "app_launcher"


def test_reflection_reads_checkable_effects_off_the_screen_without_a_model() -> None:
    models = ScriptedModels(reflection=[reply(verdict="unexpected_change", reason="confused")])
    agent = ReflectionAgent(models.for_role("reflection"))
    changed = ScreenDiff(changed_pixels=90_000, windows_opened=["galculator"])

    def reflect(action: act.Action, listing: str = "", app_after: str = "") -> Reflection:
        return agent.reflect(
            ReflectionInput(
                subtask="x", thought="", action=action, diff=changed, listing_after=listing,
                app_after=app_after,
            )
        )  # fmt: skip

    opened = reflect(act.OpenApp(app="calculator"), app_after="calculator")
    assert (opened.verdict, opened.asked_model) == ("success", False)
    typed = reflect(
        act.TypeText(text="Dear team,\nthe report is ready"), '3 text "the report is ready"'
    )
    assert (typed.verdict, typed.asked_model) == ("success", False)
    assert models.prompts("reflection") == []
    shortcut = reflect(act.Hotkey(keys=("ctrl", "o")))  # a dialog ("galculator") opened
    assert (shortcut.verdict, shortcut.asked_model) == ("success", False)
    assert models.prompts("reflection") == []
    # another application in front, or text that is not on screen: the model judges
    assert reflect(act.OpenApp(app="calculator"), app_after="text_editor").asked_model
    assert len(models.prompts("reflection")) == 1


def test_a_second_opinion_is_recorded_beside_the_check_which_stands() -> None:
    models = ScriptedModels(reflection=[reply(verdict="unexpected_change", reason="a new window")])
    agent = ReflectionAgent(models.for_role("reflection"), second_opinion=True)
    opened = agent.reflect(
        ReflectionInput(
            subtask="x", thought="", action=act.OpenApp(app="calculator"),
            diff=ScreenDiff(changed_pixels=90_000, windows_opened=["galculator"]),
            listing_after="", app_after="calculator",
        )
    )  # fmt: skip
    assert (opened.verdict, opened.asked_model) == ("success", False)
    assert (opened.model_verdict, opened.model_reason) == ("unexpected_change", "a new window")
    assert len(models.prompts("reflection")) == 1
    # where no check decides, the model's verdict is the verdict and there is no second one
    models.push("reflection", reply(verdict="no_change", reason="nothing"))
    asked = agent.reflect(
        ReflectionInput(
            subtask="x", thought="", action=act.Click(x=3, y=3),
            diff=ScreenDiff(changed_pixels=40), listing_after="",
        )
    )  # fmt: skip
    assert (asked.verdict, asked.asked_model, asked.model_verdict) == ("no_change", True, None)


def test_an_application_actions_own_check_is_the_verdict() -> None:
    models = ScriptedModels(reflection=[reply(verdict="success", reason="looks fine")])
    agent = ReflectionAgent(models.for_role("reflection"))
    unchanged = ScreenDiff()  # a read changes nothing on screen, and is still a success

    def reflect(ok: bool, verified: bool) -> Reflection:
        return agent.reflect(
            ReflectionInput(
                subtask="x", thought="", action=act.parse_action({"kind": "writer_read"}),
                diff=unchanged, listing_after="", result_ok=ok, result_verified=verified,
                result_message="read 4 paragraphs" if ok else "no document is open",
            )
        )  # fmt: skip

    assert (reflect(True, True).verdict, reflect(True, True).asked_model) == ("success", False)
    failed = reflect(False, False)
    assert (failed.verdict, failed.reason) == ("no_change", "no document is open")
    # a skill's own check is its verdict too
    skill = act.UseSkill(skill="type_in_editor", args={"text": "hello"})
    typed = agent.reflect(
        ReflectionInput(
            subtask="x", thought="", action=skill, diff=ScreenDiff(changed_fraction=0.3),
            listing_after="", result_ok=True, result_verified=True, result_message="shown",
        )
    )  # fmt: skip
    assert (typed.verdict, typed.asked_model) == ("success", False)
    assert models.prompts("reflection") == []


def test_each_role_gets_its_own_know_how_in_the_decision_prompt() -> None:
    pool = default_pool(SANDBOX_APPS)
    for role_name, words in (("calculator_clock", "press = (or Enter)"), ("mail", "ctrl+enter")):
        models = ScriptedModels(decision=[decision({"kind": "done"})])
        DecisionAgent(models.for_role("decision"), role=pool.get(role_name)).decide(
            DecisionInput(subtask="x", listing="", screen=SCREEN)
        )
        system = models.backends["decision"].requests[0].messages[0].text
        assert "Know-how for your applications:" in system and words in system
    # every built-in role has notes, and none of them names a benchmark file or value
    for role in pool:
        assert role_notes(role.name), role.name
        for notes in (role_notes(role.name), role_notes(role.name, app_actions=True)):
            assert not re.search(r"\.(txt|docx|xlsx|py)\b|pc\d\d", notes)
    # the notes on application actions come only with them (not with gui_only)
    assert "writer_read" in role_notes("office_editor", app_actions=True)
    assert "writer_read" not in role_notes("office_editor")
