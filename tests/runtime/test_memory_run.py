"""The whole run layer — start, step cap, resume, rewind, replay — over an in-memory desktop that
implements only the environment contract (tests/runtime/memory_desktop.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runtime import scripts
from tests.runtime.memory_desktop import SAVE, MemoryDesktop

from pcagent import actions as act
from pcagent.code_version import code_version
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env.protocol import (
    ApplicationCatalog,
    ApplicationControl,
    Describable,
    Environment,
    LocalHome,
)
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.replay import replay_run
from pcagent.runtime.record.store import RunStore

PLAN = scripts.plan(
    {"id": "s1", "description": "Add a word to notes.txt and save it", "app": "text_editor"}
)
SAVE_CLICK = {"kind": "click", "x": SAVE.center[0], "y": SAVE.center[1]}


def moves(*actions: dict[str, object]) -> ScriptedBackend:
    return ScriptedBackend([scripts.decision(action) for action in actions])


def setup(tmp_path: Path) -> tuple[MemoryDesktop, RunStore, PcAgentConfig]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = MemoryDesktop(home)
    desktop.open_app("text_editor", [home / "notes.txt"])
    config = PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(
            screen_steps_doubted=False, max_steps=3, listing_limit=0, app_actions_first=False
        ),
    )
    return desktop, RunStore(tmp_path / "runs"), config


def test_the_memory_desktop_offers_exactly_the_contract(tmp_path: Path) -> None:
    desktop = MemoryDesktop(tmp_path)
    for capability in (Environment, ApplicationCatalog, ApplicationControl, LocalHome, Describable):
        assert isinstance(desktop, capability)


def test_a_run_past_its_time_budget_stops_before_its_next_step(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    timed = config.run.model_copy(update={"time_budget": 0.001})  # spent by the first step
    config = config.model_copy(update={"run": timed})
    first = moves({"kind": "type", "text": " one"}, SAVE_CLICK)
    outcome = RunSession(desktop, scripts.usual_models(first, PLAN), store, config).start("write")
    assert outcome.status == "failed" and "ran past the time limit" in outcome.summary
    assert outcome.steps == 1
    assert store.get_run(outcome.run_id).settings["time_budget"] == 0.001
    # the record names the code that made it, as the benchmark's results do
    assert store.get_run(outcome.run_id).settings["code"] == code_version() != ""


def test_start_stop_at_the_cap_resume_and_rewind(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    notes = desktop.home / "notes.txt"
    first = moves(
        {"kind": "type", "text": " one"},
        SAVE_CLICK,
        {"kind": "type", "text": " two"},
    )
    outcome = RunSession(desktop, scripts.usual_models(first, PLAN), store, config).start("write")
    assert outcome.status == "failed" and "step cap (3)" in outcome.summary
    assert notes.read_text() == "draft one"  # " two" typed, not saved
    steps = store.steps(outcome.run_id)
    assert [s.apps[0].document for s in steps] == ["notes.txt"] * 3
    assert all(s.home_snapshot for s in steps)
    settings = store.get_run(outcome.run_id).settings
    assert settings["environment"] == {"kind": "memory", "home": str(desktop.home)}

    # resume: the desktop of step 3 comes back (the file as saved, the editor on it), then on
    more = moves(SAVE_CLICK, {"kind": "done"})
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=10, listing_limit=0, app_actions_first=False
            )
        }
    )
    desktop.close_apps()
    notes.write_text("changed behind the run's back")
    resumed = RunSession(desktop, scripts.usual_models(more), store, config).resume(outcome.run_id)
    assert resumed.status == "unverified", resumed.summary
    assert desktop.opened[-1] == ("text_editor", (str(notes),))
    # the restored editor held the saved text, so the unsaved " two" is gone
    assert notes.read_text() == "draft one"

    # rewind to step 1: " one" typed, not yet saved; the file is "draft" again
    again = moves({"kind": "type", "text": " three"}, SAVE_CLICK, {"kind": "done"})
    rewound = RunSession(desktop, scripts.usual_models(again), store, config).rewind(
        outcome.run_id, 1, guidance="write three"
    )
    assert rewound.status == "unverified"
    assert notes.read_text() == "draft three"
    child = store.get_run(rewound.run_id)
    assert (child.parent_run, child.parent_step) == (outcome.run_id, 1)
    kinds = [e.kind for e in store.events(rewound.run_id)]
    assert kinds[:2] == ["restore", "rewind"]
    assert "Guidance from the user: write three" in scripts.prompt_texts(again)[0]
    # step 1 had typed " one" without saving: it comes back as a file, and the agents are told
    assert (desktop.home / "notes (unsaved at step 1).txt").read_text() == "draft one"
    assert "notes (unsaved at step 1).txt" in scripts.prompt_texts(again)[0]


def test_replay_re_executes_through_the_same_dispatcher(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=10, listing_limit=0, app_actions_first=False
            )
        }
    )
    script = moves({"kind": "type", "text": " one"}, SAVE_CLICK, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, PLAN), store, config).start("write")
    assert outcome.status == "unverified"
    (desktop.home / "notes.txt").write_text("draft")
    desktop.close_apps()
    replayed = replay_run(store, desktop, outcome.run_id)
    assert [(s.action, s.executed) for s in replayed] == [
        ("type", True),
        ("click", True),
        ("done", False),
    ]
    assert all(s.agrees for s in replayed)
    assert (desktop.home / "notes.txt").read_text() == "draft one"


def test_application_actions_run_are_checked_by_their_own_result_and_replayed(
    tmp_path: Path,
) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=10, listing_limit=0, app_actions_first=False
            )
        }
    )
    script = moves(
        {"kind": "editor_open", "path": "notes.txt"},
        {"kind": "type", "text": " more"},
        {"kind": "editor_save_as", "path": "copy.txt"},
        {"kind": "done"},
    )
    models = scripts.usual_models(script, PLAN)
    outcome = RunSession(desktop, models, store, config).start("copy the notes")
    assert outcome.status == "finished", outcome.summary
    assert (desktop.home / "copy.txt").read_text() == "draft more"
    steps = store.steps(outcome.run_id)
    save = steps[2]
    assert save.action.kind == "editor_save_as" and save.result.verified
    # the action's own read-back is the verdict: no reflection model was asked
    assert save.reflection.verdict == "success" and not save.reflection.asked_model
    # what editor_open read is shown to the next decision
    prompts = scripts.prompt_texts(script)
    assert "Last read: step 1, editor_open: draft" in prompts[1]
    assert "editor_save_as(path: str)" in script.requests[0].messages[0].text  # the system part

    (desktop.home / "copy.txt").unlink()
    desktop.close_apps()
    replayed = replay_run(store, desktop, outcome.run_id)
    # the three actions are carried out again; the done is not (it changes no desktop)
    assert [s.executed for s in replayed] == [True, True, True, False]
    assert (desktop.home / "copy.txt").read_text() == "draft more"


def test_a_done_after_a_file_opened_is_no_checked_effect_and_the_run_is_unverified(
    tmp_path: Path,
) -> None:
    """Opening a file checks that it opened, not that anything the subtask asked for changed: a
    screen step that only opened a page and said done made a run that answered nothing say
    "finished". A save before the done is a checked effect (the test above)."""
    desktop, store, config = setup(tmp_path)
    script = moves({"kind": "editor_open", "path": "notes.txt"}, {"kind": "done"})
    models = scripts.usual_models(script, PLAN)
    outcome = RunSession(desktop, models, store, config).start("copy the notes")
    assert outcome.status == "unverified", outcome.summary
    assert "no check of the effect" in outcome.summary
    opened = store.steps(outcome.run_id)[0]
    assert opened.action.kind == "editor_open" and opened.result.verified


def test_gui_only_offers_no_application_action_and_refuses_one(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    script = moves({"kind": "editor_save_as", "path": "copy.txt"}, {"kind": "done"})
    models = scripts.usual_models(script, PLAN)
    session = RunSession(desktop, models, store, config, ablation="gui_only")
    outcome = session.start("copy the notes")
    assert "editor_save_as" not in script.requests[0].messages[0].text
    # the reply schema has no such action: the model is asked again, and the action never runs
    assert len(script.requests) == 2 and "editor_save_as" in script.requests[1].messages[-1].text
    assert outcome.status == "unverified"
    assert [step.action.kind for step in store.steps(outcome.run_id)] == ["done"]
    assert not (desktop.home / "copy.txt").exists()


def test_repeating_a_successful_action_is_pointed_out(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=10, listing_limit=0, app_actions_first=False
            )
        }
    )
    again = {"kind": "type", "text": " one"}
    script = moves(again, again, SAVE_CLICK, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, PLAN), store, config).start("add")
    assert outcome.status == "unverified", outcome.summary
    prompts = scripts.prompt_texts(script)
    assert "repeated step" not in prompts[1]
    assert "this repeated step 1 exactly, which had already succeeded" in prompts[2]


def test_repeating_a_checked_application_action_ends_the_subtask(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={"run": RunConfig(screen_steps_doubted=False, max_steps=10, listing_limit=0)}
    )
    plan = scripts.plan(
        {"id": "s1", "description": "Keep a copy as copy.txt", "app": "text_editor"}
    )
    save = {"kind": "editor_save_as", "path": "copy.txt"}
    script = moves(save, save, {"kind": "done"})
    models = scripts.usual_models(script, plan)
    # the account of the step after the save says the copy is kept; against it the subtask
    # would end all the same, unverified (test_program_run.py)
    account = json.dumps({"progress": "kept", "completed": True, "outputs": {}})
    models.backends["progress"] = scripts.Repeating(lambda request: account)
    outcome = RunSession(desktop, models, store, config).start("copy")
    assert (outcome.status, outcome.steps) == ("finished", 2), outcome.summary
    (ended,) = [e.event for e in store.events(outcome.run_id) if e.kind == "auto_done"]
    assert "step 1's checked effect repeated" in ended.reason  # type: ignore[union-attr]


def test_a_second_opinion_is_kept_in_the_step_record_beside_the_check(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False,
                max_steps=5,
                listing_limit=0,
                app_actions_first=False,
                reflection_second_opinion=True,
            )
        }
    )
    script = moves({"kind": "editor_save_as", "path": "copy.txt"}, {"kind": "done"})
    models = scripts.usual_models(script, PLAN, judge=lambda prompt: ("unexpected_change", "odd"))
    outcome = RunSession(desktop, models, store, config).start("keep a copy of the notes")
    saved = store.steps(outcome.run_id)[0].reflection
    # the action's own read-back decides; the model's contrary verdict is kept beside it
    assert (saved.verdict, saved.asked_model) == ("success", False)
    assert (saved.model_verdict, saved.model_reason) == ("unexpected_change", "odd")


def test_click_element_is_recorded_as_a_click_at_the_labelled_mark(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    (desktop.home / "notes.txt").write_text("")
    desktop.text = "kept"
    script = moves({"kind": "click_element", "label": "Save"}, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, PLAN), store, config).start(
        "save the notes"
    )
    first = store.steps(outcome.run_id)[0]
    assert first.action == act.Click(x=SAVE.center[0], y=SAVE.center[1])
    assert "click_element 'Save'" in first.thought
    assert (desktop.home / "notes.txt").read_text() == "kept"
    # the label the model may name is held to the listed ones by the schema
    assert '"Save"' in json.dumps(script.requests[0].schema)


def test_what_a_subtask_without_outputs_read_is_kept_in_the_hub(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    plan = scripts.plan({"id": "s1", "description": "Read notes.txt", "app": "text_editor"})
    script = moves({"kind": "editor_open", "path": "notes.txt"}, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, plan), store, config).start(
        "read the notes"
    )
    assert outcome.status == "unverified", outcome.summary
    # the later subtasks' prompts show the hub (as for s1_answer in test_session_logic)
    assert store.steps(outcome.run_id)[-1].hub == {"s1_read": "draft", "s1": "draft"}


def test_what_a_subtask_with_outputs_read_is_kept_beside_its_values(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=5, listing_limit=0, app_actions_first=False
            )
        }
    )
    plan = scripts.plan(
        {"id": "s1", "description": "Read notes.txt", "app": "text_editor", "outputs": ["word"]}
    )
    script = moves(
        {"kind": "editor_open", "path": "notes.txt"},
        {"kind": "answer", "text": "draft"},
        {"kind": "done"},
    )
    outcome = RunSession(desktop, scripts.usual_models(script, plan), store, config).start(
        "read the notes"
    )
    assert outcome.status == "unverified", outcome.summary
    # the named value, and the reading it came from, for what a value leaves out
    assert store.steps(outcome.run_id)[-1].hub == {
        "word": "draft",
        "s1_read": "draft",
        "s1": "draft",
    }


def test_an_answer_that_names_the_value_instead_of_giving_it_is_not_kept(
    tmp_path: Path,
) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=6, listing_limit=0, app_actions_first=False
            )
        }
    )
    plan = scripts.plan(
        {"id": "s1", "description": "Read notes.txt", "app": "text_editor", "outputs": ["word"]}
    )
    script = moves(
        {"kind": "answer", "text": "word"},
        {"kind": "answer", "text": "draft"},
        {"kind": "done"},
    )
    outcome = RunSession(desktop, scripts.usual_models(script, plan), store, config).start(
        "read the notes"
    )
    assert outcome.status == "unverified", outcome.summary
    steps = store.steps(outcome.run_id)
    assert steps[0].hub == {} and steps[-1].hub["word"] == "draft"
    told = scripts.prompt_texts(script)[1]
    assert "not an answer: it gives the name of the value, not the value" in told


def test_opening_again_does_not_end_the_subtask(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    config = config.model_copy(
        update={"run": RunConfig(screen_steps_doubted=False, max_steps=10, listing_limit=0)}
    )
    plan = scripts.plan({"id": "s1", "description": "Look at notes.txt", "app": "text_editor"})
    again = {"kind": "editor_open", "path": "notes.txt"}
    script = moves(again, again, {"kind": "done"})
    outcome = RunSession(desktop, scripts.usual_models(script, plan), store, config).start("look")
    assert (outcome.status, outcome.steps) == ("unverified", 3), outcome.summary
    assert not [e for e in store.events(outcome.run_id) if e.kind == "auto_done"]


def test_the_hub_keeps_a_subtask_s_longest_reading(tmp_path: Path) -> None:
    desktop, store, config = setup(tmp_path)
    (desktop.home / "notes.txt").write_text("a long page of notes that the next subtask needs")
    (desktop.home / "short.txt").write_text("ok")
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=5, listing_limit=0, app_actions_first=False
            )
        }
    )
    plan = scripts.plan({"id": "s1", "description": "Look at the notes", "app": "text_editor"})
    script = moves(
        {"kind": "editor_open", "path": "notes.txt"},
        {"kind": "editor_open", "path": "short.txt"},
        {"kind": "done"},
    )
    outcome = RunSession(desktop, scripts.usual_models(script, plan), store, config).start("look")
    assert outcome.status == "unverified", outcome.summary
    # the page, not the two-letter reading after it
    page = "a long page of notes that the next subtask needs"
    assert store.steps(outcome.run_id)[-1].hub == {"s1_read": page, "s1": page}


def test_a_resumed_run_keeps_its_typed_history_and_readings(tmp_path: Path) -> None:
    """Everything the next step knows is in the checkpoint: the subtask's typed history lines
    and its latest reading come back on resume, and the first prompt after it shows them."""
    desktop, store, config = setup(tmp_path)
    first = moves({"kind": "editor_open", "path": "notes.txt"}, {"kind": "type", "text": " one"})
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=2, listing_limit=0, app_actions_first=False
            )
        }
    )
    outcome = RunSession(desktop, scripts.usual_models(first, PLAN), store, config).start("write")
    assert "step cap (2)" in outcome.summary
    state = store.steps(outcome.run_id)[-1].state
    assert state is not None
    assert [(line.number, line.action and line.action.kind) for line in state.history] == [
        (1, "editor_open"),
        (2, "type"),
    ]
    assert state.last_reading is not None and state.last_reading.text == "draft"

    more = moves({"kind": "done"})
    config = config.model_copy(
        update={
            "run": RunConfig(
                screen_steps_doubted=False, max_steps=5, listing_limit=0, app_actions_first=False
            )
        }
    )
    RunSession(desktop, scripts.usual_models(more), store, config).resume(outcome.run_id)
    prompt = scripts.prompt_texts(more)[0]
    verdicts = [line.verdict for line in state.history]
    assert f"- 1: editor_open(path='notes.txt') -> {verdicts[0]}" in prompt
    assert f"- 2: type(text=' one') -> {verdicts[1]}" in prompt
    assert "Last read: step 1, editor_open: draft" in prompt
