"""A program of skill calls runs without a Decision model: each call is carried out, its effect
checked, its value passed on by reference, and the run ends finished only when every check
passed (the in-memory desktop; real applications in tests/skills/test_desktop_skills.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import MemoryDesktop
from typer.testing import CliRunner

from pcagent.agents.focused_steps import MOST_REPAIRS
from pcagent.agents.manager import PROGRAM_ATTEMPTS
from pcagent.cli import app
from pcagent.code_version import code_version
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.run_ending import RunOutcome
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore


def _start(
    tmp_path: Path,
    models: scripts.Models,
    instruction: str,
    note: str = "meet at 10:15",
    **run: Any,
) -> tuple[RunStore, RunOutcome, Path]:
    """A run of ``instruction`` on the in-memory desktop, whose HOME holds notes.txt with
    ``note``; ``run`` overrides the run settings (six steps at most, every mark listed)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text(note)
    settings = RunConfig(screen_steps_doubted=False, **{"max_steps": 6, "listing_limit": 0, **run})
    config = PcAgentConfig(data_dir=tmp_path, run=settings)
    store = RunStore(tmp_path / "runs")
    outcome = RunSession(MemoryDesktop(home), models, store, config).start(instruction)
    return store, outcome, home


def _run(tmp_path: Path, *steps: dict[str, object]) -> tuple[RunStore, RunOutcome, Path]:
    decisions = ScriptedBackend([])  # a Decision call would fail the test: none is expected
    models = scripts.usual_models(decisions, json.dumps({"steps": list(steps)}))
    return _start(tmp_path, models, "whatever the words, notes.txt")


def test_skill_steps_pass_values_by_reference_and_finish_checked(tmp_path: Path) -> None:
    store, outcome, _home = _run(
        tmp_path,
        {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}},
        {
            "id": "s2",
            "skill": "shift_time",
            "args": {"time": "10:15", "direction": "before", "minutes": 60},
        },
        # a read no later step uses would be a doubt (unused_values): the last step tells both
        {"id": "s3", "skill": "tell_user", "args": {"text": "{s2}, for: {s1}"}},
    )
    assert outcome.status == "finished", outcome.summary
    steps = store.steps(outcome.run_id)
    assert [s.action.kind for s in steps] == ["use_skill"] * 3
    assert steps[0].action.args == {"path": "notes.txt"}
    assert steps[-1].action.args == {"text": "09:15, for: meet at 10:15"}
    values = steps[-1].state.values
    assert (values["s1"], values["s2"]) == ("meet at 10:15", "09:15")
    assert steps[-1].state.verified == {"s1": True, "s2": True, "s3": True}


def test_a_reference_to_a_value_is_filled_in_before_the_call(tmp_path: Path) -> None:
    store, outcome, _home = _run(
        tmp_path,
        {
            "id": "s1",
            "skill": "shift_time",
            "args": {"time": "23:50", "direction": "after", "minutes": 12},
        },
        # A time moved again would be a doubt (moved_twice): the second step tells it.
        {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1"}}},
    )
    assert outcome.status == "finished", outcome.summary
    second = store.steps(outcome.run_id)[-1]
    assert second.action.args == {"text": "00:02"}
    assert second.result.answer == "00:02"


def test_what_a_skill_tells_the_person_is_the_run_s_answer(tmp_path: Path) -> None:
    program = [
        {"id": "s1", "skill": "days_between", "args": {"start": "2025-03-01", "end": "2025-03-11"}},
        {"id": "s2", "skill": "tell_user", "args": {"text": "{s1} days"}},
    ]
    models = scripts.usual_models(ScriptedBackend([]), json.dumps({"steps": program}))
    # The dates stand in the instruction (a date nobody wrote would be a doubt).
    store, outcome, _home = _start(tmp_path, models, "Days from 1 March 2025 to 11 March 2025?")
    assert outcome.status == "finished", outcome.summary
    told = store.steps(outcome.run_id)[-1].result
    assert told.answer == "10 days" and told.verified


def test_sorted_rows_passed_whole_to_a_text_are_its_lines(tmp_path: Path) -> None:
    decisions = ScriptedBackend([])
    items = [{"label": "Bergen", "value": "291,940"}, {"label": "Oslo", "value": "709,037"}]
    program = [
        {"id": "s1", "skill": "sort_items", "args": {"items": items, "first": "highest"}},
        {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1"}}},
    ]
    models = scripts.usual_models(decisions, json.dumps({"steps": program}))
    store, outcome, _home = _start(
        tmp_path, models, "Bergen has 291,940 people and Oslo 709,037: list them, largest first"
    )
    assert outcome.status == "finished", outcome.summary
    told = store.steps(outcome.run_id)[-1].result
    assert told.answer == "Oslo, 709037\nBergen, 291940"


def test_extracted_words_passed_as_minutes_are_read_from_their_line(tmp_path: Path) -> None:
    """The language step named the route where the next step needs its minutes: the call goes
    on with the line the value was found on, and the skill takes the minutes from it. (A time
    of day is answered under its pattern, so a title never stands for it.)"""
    program = [
        {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}},
        {
            "id": "s2",
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": ["trip"], "what": "the way there"},
        },
        {
            "id": "s3",
            "skill": "shift_time",
            "args": {
                "time": "10:00",
                "direction": "before",
                "minutes": {"from": "s2", "key": "trip"},
            },
        },
        {"id": "s4", "skill": "tell_user", "args": {"text": "{s3}"}},
    ]
    models = scripts.usual_models(ScriptedBackend([]), json.dumps({"steps": program}))
    models.backends["composer"] = ScriptedBackend([json.dumps({"trip": "by tram"})])
    route = "Route to the museum\n24 min by tram\n"
    store, outcome, _home = _start(tmp_path, models, "whatever is in notes.txt", route)
    assert outcome.status == "finished", outcome.summary
    last = next(s for s in store.steps(outcome.run_id) if s.subtask_id == "s3")
    assert last.action.args["minutes"] == "24 min by tram"
    assert last.result.output == "09:36"
    assert "read as its line" in last.thought
    # the language skill's call is in the record, under the step that made it, as an agent's
    (extraction,) = [call for call in store.calls(outcome.run_id) if call.agent == "composer"]
    extracted = next(s for s in store.steps(outcome.run_id) if s.subtask_id == "s2")
    assert (
        extraction.step == extracted.step and '"trip"' in extraction.attempts[0].completion["text"]
    )


def test_a_failed_extraction_with_no_usable_replan_ends_the_run_without_screen_steps(
    tmp_path: Path,
) -> None:
    """The value is not in the text and every re-plan repeats the extraction: the run ends
    failed there, and no Decision step (the script holds none) clicks at a screen that cannot
    show a value the text lacks."""
    extract = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the dinner's time"},
    }
    program = [
        {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}},
        extract,
        {"id": "s3", "skill": "tell_user", "args": {"text": {"from": "s2", "key": "time"}}},
    ]
    again = json.dumps({"steps": [{**extract, "id": "s3"}]})
    models = scripts.usual_models(ScriptedBackend([]), json.dumps({"steps": program}))
    replies = [json.dumps({"steps": program}), *[again] * (PROGRAM_ATTEMPTS + MOST_REPAIRS)]
    models.backends["manager"] = ScriptedBackend(replies)
    models.backends["composer"] = ScriptedBackend([json.dumps({"time": "19:30"})])
    store, outcome, _home = _start(tmp_path, models, "When is dinner? notes.txt")
    assert outcome.status == "failed", outcome.summary
    assert "extract_values works in no application" in outcome.summary
    assert [s.action.kind for s in store.steps(outcome.run_id)] == ["use_skill"] * 2


def test_an_unusable_program_is_recorded_with_its_problem(tmp_path: Path) -> None:
    """Every time a step of a skill that does not exist: the run goes on as one GUI subtask, and the
    plan event says why, for `runs show` and the viewer."""
    unusable = json.dumps({"steps": [{"id": "s1", "skill": "teleport", "args": {}}]})
    give_up = scripts.decision({"kind": "fail", "reason": "nothing to do"})
    models = scripts.usual_models(ScriptedBackend([give_up]), unusable)
    # Asked for the faulty step alone, the model writes it again as it was.
    again = [unusable] * (PROGRAM_ATTEMPTS + MOST_REPAIRS)
    models.backends["manager"] = ScriptedBackend(again)
    store, outcome, _home = _start(tmp_path, models, "whatever", max_steps=1)
    (plan,) = [r.event for r in store.events(outcome.run_id) if r.event.kind == "plan"]
    assert plan.fallback and "teleport" in plan.problem
    shown = CliRunner().invoke(
        app,
        ["runs", "show", outcome.run_id],
        env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": "", "COLUMNS": "200"},
    )
    assert shown.exit_code == 0, shown.output
    assert "programs were unusable" in shown.output and "teleport" in shown.output


def test_program_attempts_bounds_the_manager_s_asks(tmp_path: Path) -> None:
    """``[run] program_attempts = 1``: an unusable program is not asked again (the Manager's
    script holds one reply; a second ask would find it empty and fail the run's plan)."""
    unusable = json.dumps({"steps": [{"id": "s1", "skill": "teleport", "args": {}}]})
    give_up = scripts.decision({"kind": "fail", "reason": "nothing to do"})
    models = scripts.usual_models(ScriptedBackend([give_up]), unusable)
    models.backends["manager"] = ScriptedBackend([unusable])
    store, outcome, _home = _start(
        tmp_path, models, "whatever", max_steps=1, program_attempts=1, single_step_asks=False
    )
    (plan,) = [r.event for r in store.events(outcome.run_id) if r.event.kind == "plan"]
    assert plan.fallback and "teleport" in plan.problem
    assert [c.agent for c in store.calls(outcome.run_id)].count("manager") == 1


def test_a_program_kept_with_a_doubt_ends_unverified_though_each_step_checked(
    tmp_path: Path,
) -> None:
    """Asked three times, the Manager reads a file nobody named each time (a guess, or copied
    from a shown example): the last program runs (rather than the whole instruction lost to one
    GUI task), its step checks its own effect, and still the run is not "finished": the file
    read is not shown to be the one meant."""
    guessed = json.dumps(
        {"steps": [{"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}}]}
    )
    models = scripts.usual_models(ScriptedBackend([]), guessed)
    # Asked for the doubted step alone, the model writes it again as it was.
    models.backends["manager"] = ScriptedBackend([guessed] * (PROGRAM_ATTEMPTS + 1))
    store, outcome, _home = _start(tmp_path, models, "What time is the meeting?", max_steps=4)
    assert outcome.status == "unverified", outcome.summary
    assert "s1: path='notes.txt': neither the instruction" in outcome.summary
    last = store.steps(outcome.run_id)[-1]
    assert last.result.verified and last.state.verified == {"s1": True}
    assert last.state.values == {"s1": "meet at 10:15"}
    shown = CliRunner().invoke(
        app,
        ["runs", "show", outcome.run_id],
        env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": "", "COLUMNS": "200"},
    )
    assert "kept with a doubt: path='notes.txt'" in shown.output, shown.output


#: A program that works out the time an hour before 10:15 and neither uses an application nor
#: tells anybody.
SHIFTED = json.dumps(
    {
        "steps": [
            {
                "id": "s1",
                "skill": "shift_time",
                "args": {"time": "10:15", "direction": "before", "hours": 1},
            }
        ]
    }
)


def _kept_with_a_doubt(
    tmp_path: Path, said: str, role: str, reading: dict[str, Any], **run: Any
) -> tuple[RunOutcome, str]:
    """A run of ``said`` whose ``role`` reading of the instruction answers ``reading`` and
    whose Manager writes :data:`SHIFTED` every time: the kept program runs and checks its step,
    the run is not "finished", and the reading is made once. The outcome and the re-ask."""
    models = scripts.usual_models(ScriptedBackend([]), SHIFTED)
    # Asked alone for a missing application's step, or for the step after the time worked
    # out last, the model gives no usable reply.
    alone = ["no program"] * 4
    models.backends["manager"] = ScriptedBackend([SHIFTED] * PROGRAM_ATTEMPTS + alone)
    models.backends[role] = scripts.Repeating(lambda _request: json.dumps(reading))
    store, outcome, _home = _start(tmp_path, models, said, max_steps=3, **run)
    assert outcome.status == "unverified", outcome.summary
    assert store.steps(outcome.run_id)[-1].state.values == {"s1": "09:15"}
    assert [c.agent for c in store.calls(outcome.run_id)].count(role) == 1
    return outcome, models.backends["manager"].requests[1].messages[-1].text


def test_an_application_asked_for_and_never_used_leaves_the_run_unverified(
    tmp_path: Path,
) -> None:
    """The reading of the instruction says it asks for the text editor; each program the
    Manager writes works the time out without it: the Manager is asked again with why."""
    said = "With the text editor, tell me the time an hour before 10:15"
    picked = {"apps": [{"app": "text_editor", "words": "With the text editor"}]}
    outcome, again = _kept_with_a_doubt(tmp_path, said, "named_apps", picked)
    assert 'asks for the text_editor ("With the text editor")' in outcome.summary
    assert "no step uses it" in again


def test_a_question_no_step_answers_leaves_the_run_unverified(tmp_path: Path) -> None:
    """The reading of the instruction says it asks to be told a value; each program works the
    time out and tells nobody: the Manager is asked again with why."""
    said = "What time is it an hour before 10:15?"
    asks = {"result": "a value to tell the user"}
    outcome, again = _kept_with_a_doubt(
        tmp_path, said, "asked_answer", asks, check_asked_answer=True
    )
    assert "asks to be told a value, and no step tells" in outcome.summary
    assert "no step tells the person" in again


def test_the_whole_instruction_as_one_gui_step_ends_unverified_at_best(tmp_path: Path) -> None:
    """No usable program: the one GUI step's ``done`` follows a checked save, which shows that
    save, not that the instruction was done."""
    unusable = json.dumps({"steps": [{"id": "s1", "skill": "teleport", "args": {}}]})
    decisions = ScriptedBackend(
        [
            scripts.decision({"kind": "editor_open", "path": "notes.txt"}),
            scripts.decision({"kind": "editor_save_as", "path": "copy.txt"}),
            scripts.decision({"kind": "done", "summary": "copied"}),
        ]
    )
    models = scripts.usual_models(decisions, unusable)
    models.backends["manager"] = ScriptedBackend([unusable] * (PROGRAM_ATTEMPTS + MOST_REPAIRS))
    instruction = "Keep a copy of notes.txt as copy.txt"
    store, outcome, home = _start(tmp_path, models, instruction, max_steps=5)
    assert (home / "copy.txt").read_text() == "meet at 10:15"
    assert outcome.status == "unverified", outcome.summary
    assert "no usable program" in outcome.summary
    assert store.steps(outcome.run_id)[-1].state.verified == {"s1": True}


def test_a_run_the_judge_finds_short_of_the_instruction_ends_unverified(tmp_path: Path) -> None:
    """Each step checked its own effect, but the Judge, reading the instruction against the steps
    done, names a request no step did: the run is not "finished"."""
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}}
    # A read left last would be a doubt of its own (ends_on_reading): the note is told.
    told = {"id": "s2", "skill": "tell_user", "args": {"text": "{s1}"}}
    program = json.dumps({"steps": [read, told]})
    models = scripts.usual_models(ScriptedBackend([]), program)
    undone = {"asked": "set an alarm before the meeting", "done_by": "none", "as_asked": False}
    read = {"asked": "read notes.txt", "done_by": "s1", "as_asked": True}
    models.backends["judge"] = ScriptedBackend([json.dumps({"requests": [read, undone]})])
    instruction = "Read notes.txt and set an alarm before the meeting"
    store, outcome, _home = _start(tmp_path, models, instruction, judge_outcome=True)
    assert outcome.status == "unverified", outcome.summary
    assert "not done as asked: set an alarm before the meeting" in outcome.summary
    judged = models.backends["judge"].requests[0].messages[-1].text
    assert '- s1: read_text_file(path="notes.txt") -> meet at 10:15' in judged
    assert store.steps(outcome.run_id)[-1].state.verified == {"s1": True, "s2": True}


def test_a_decision_s_skill_call_may_name_an_earlier_value_instead_of_copying_it(
    tmp_path: Path,
) -> None:
    program = json.dumps(
        {
            "steps": [
                {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}},
                {
                    "id": "s2",
                    "skill": "gui",
                    "app": "text_editor",
                    "task": "Work out the time an hour before it",
                    "uses": ["s1"],
                },
            ]
        }
    )
    call = {
        "skill": "shift_time",
        "args": {"time": {"from": "s1"}, "direction": "before", "minutes": 60},
    }
    decisions = ScriptedBackend(
        [
            scripts.decision({"kind": "use_skill", **call}),
            scripts.decision({"kind": "done", "summary": "worked out"}),
        ]
    )
    models = scripts.usual_models(decisions, program)
    instruction = "What time is an hour before the one in notes.txt?"
    store, outcome, _home = _start(tmp_path, models, instruction, "10:15")
    called = store.steps(outcome.run_id)[1]
    assert called.action.args == {"time": "10:15", "direction": "before", "minutes": 60}, (
        outcome.summary
    )
    assert called.result.output == "09:15"
    assert "[values of s1 filled in]" in called.thought
    assert '{"from": "NAME"}' in decisions.requests[0].messages[0].text


def test_a_gui_step_s_words_show_a_named_value_as_found(tmp_path: Path) -> None:
    items = [{"label": "Tokyo", "value": 14}, {"label": "Lima", "value": 9}]
    program = {
        "steps": [
            {"id": "s1", "skill": "pick_extreme", "args": {"items": items, "which": "largest"}},
            {
                "id": "s2",
                "skill": "gui",
                "app": "text_editor",
                "task": "Type {s1.label} ({s1.value}) and {s1.missing} in the editor",
                "uses": ["s1"],
            },
        ]
    }
    decisions = ScriptedBackend([scripts.decision({"kind": "fail", "reason": "seen enough"})])
    models = scripts.usual_models(decisions, json.dumps(program))
    _start(tmp_path, models, "Type the larger city in the editor", max_replans=0)
    shown = decisions.requests[0].messages[-1].text
    assert "Type Tokyo (14) and {s1.missing} in the editor" in shown


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "use_skill", "skill": "read_text_file", "args": {"path": "notes.txt"}},
        {"kind": "type", "text": "Attention Is All You Need"},
    ],
)
def test_the_same_skill_call_again_and_again_is_a_loop_though_each_call_succeeded(
    tmp_path: Path, action: dict[str, object]
) -> None:
    """A skill does its whole effect at once, like an application action: reading the same file
    a third time in a row is no progress (the Decision agent read a travel plan nine times in a
    row, each read a success, to the step cap). So does a text typed: the same text typed a
    third time is typed three times (a paper's title five times, a rewording of pc10)."""
    program = {"id": "s1", "skill": "gui", "app": "text_editor", "task": "Find the destination"}
    decisions = ScriptedBackend([scripts.decision(action)] * 6)
    models = scripts.usual_models(decisions, json.dumps({"steps": [program]}))
    store, outcome, _home = _start(tmp_path, models, "Where am I going?", max_replans=0)
    assert outcome.status == "failed"
    assert "repeats the same action" in outcome.summary
    kinds = [s.action.kind if s.action else s.error for s in store.steps(outcome.run_id)]
    assert kinds[-3:] == [action["kind"]] * 3 and action["kind"] not in kinds[:-3], kinds


@pytest.mark.parametrize(("complete", "verified"), [(True, True), (False, False)])
def test_a_checked_effect_before_done_verifies_a_screen_step_only_with_its_account(
    tmp_path: Path, complete: bool, verified: bool
) -> None:
    """A checked save just before ``done`` ends the screen step; it verifies it only when the
    Progress account does not say the step is incomplete (the save is one effect, not
    necessarily everything the step asked for)."""
    step = {"id": "s1", "skill": "gui", "app": "text_editor", "task": "Keep a copy of the notes"}
    decisions = ScriptedBackend(
        [
            scripts.decision({"kind": "editor_open", "path": "notes.txt"}),
            scripts.decision({"kind": "editor_save_as", "path": "copy.txt"}),
            scripts.decision({"kind": "done", "summary": "copied"}),
        ]
    )
    models = scripts.usual_models(decisions, json.dumps({"steps": [step]}))
    account = json.dumps({"progress": "p", "completed": complete, "outputs": {}})
    models.backends["progress"] = scripts.Repeating(lambda request: account)
    store, outcome, home = _start(tmp_path, models, "Keep a copy of notes.txt", max_replans=0)
    assert (home / "copy.txt").read_text() == "meet at 10:15"
    assert store.steps(outcome.run_id)[-1].state.verified == {"s1": verified}, outcome.summary
    assert (outcome.status == "finished") is verified


def test_a_call_code_changed_from_what_the_model_wrote_counts_as_code_s_decision(
    tmp_path: Path,
) -> None:
    """The model wrote a screen step whose task is a skill's name on one file; a mend made it
    that skill's call. The plan marks the call ``mended`` and the decisions count it as the
    code's; the step the model wrote as it runs stays the model's."""
    from pcagent.bench.pcagent_run import decision_counts
    from pcagent.runtime.record.events import PlanEvent

    store, outcome, _home = _run(
        tmp_path,
        {"id": "s1", "skill": "gui", "app": "text_editor", "task": "read_text_file",
         "files": ["notes.txt"]},
        {"id": "s2", "skill": "tell_user", "args": {"text": "{s1}"}},
    )  # fmt: skip
    assert outcome.status == "finished", outcome.summary
    events = store.events(outcome.run_id)
    (plan,) = [record.event for record in events if isinstance(record.event, PlanEvent)]
    assert [(s.id, s.skill, s.mended) for s in plan.subtasks] == [
        ("s1", "read_text_file", True),
        ("s2", "tell_user", False),
    ]
    counts = decision_counts(store.steps(outcome.run_id), events)
    assert counts == {"model_decisions": 1, "code_decisions": 1}
    assert decision_counts(store.steps(outcome.run_id)) == {  # without the plan: the model's
        "model_decisions": 2,
        "code_decisions": 0,
    }
    shown = CliRunner().invoke(
        app,
        ["runs", "show", outcome.run_id],
        env={"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": "", "COLUMNS": "200"},
    )
    plan_lines = [line for line in shown.output.splitlines() if line.startswith("  plan ")]
    assert "as code changed it" in plan_lines[0] and "as code changed it" not in plan_lines[1]
    assert f"code: {code_version()}" in shown.output


def test_a_re_plan_is_told_the_calls_that_failed_earlier_in_the_run(tmp_path: Path) -> None:
    """A rewording of pc23 (twice, 2026-12-07): the calculator refused a date minus a city,
    the next attempt failed too, and the re-plan after it wrote the first refused call again.
    The run gives the re-plan every call that failed so far, and the repeat is re-asked (here
    an extraction of what the note does not hold)."""

    def extract(sid: str, what: str) -> dict[str, object]:
        args = {"text": {"from": "s1"}, "names": ["time"], "what": what}
        return {"id": sid, "skill": "extract_values", "args": args}

    def tell(sid: str, source: str) -> dict[str, object]:
        return {"id": sid, "skill": "tell_user", "args": {"text": {"from": source, "key": "time"}}}

    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "notes.txt"}}
    first = [read, extract("s2", "the dinner's time"), tell("s3", "s2")]
    second = [extract("s4", "when dinner is"), tell("s5", "s4")]
    third = [extract("s6", "the dinner's time"), tell("s7", "s6")]
    replies = [json.dumps({"steps": steps}) for steps in (first, second, *[third] * 9)]
    models = scripts.usual_models(ScriptedBackend([]), replies[0])
    models.backends["manager"] = ScriptedBackend(replies)
    models.backends["composer"] = ScriptedBackend([json.dumps({"time": "19:30"})] * 9)
    _store, outcome, _home = _start(tmp_path, models, "When is dinner? notes.txt")
    asked = [r.messages[-1].text for r in models.backends["manager"].requests]
    assert any("s6 repeats the call of s2 that failed earlier" in a for a in asked), asked[2:]
    assert outcome.status == "failed", outcome.summary
