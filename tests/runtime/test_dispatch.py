"""Where actions run, from their own definitions: the dispatcher sends each kind to its site
(desktop, perception, run loop, person) and turns the errors a live desktop can raise into
results. Orchestration only: the same dispatcher on the real sandbox is exercised by
test_session_desktop.py (runs and replay)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime.memory_desktop import SAVE, MemoryDesktop

from pcagent import actions as act
from pcagent.env.executor import ActionExecutor
from pcagent.runtime.loop.dispatch import ActionDispatcher, acts_on_desktop
from pcagent.runtime.loop.human import ScriptedHuman


@pytest.fixture
def desktop(tmp_path: Path) -> MemoryDesktop:
    (tmp_path / "a.txt").write_text("x")
    screen = MemoryDesktop(tmp_path)
    screen.open_app("text_editor", [tmp_path / "a.txt"])
    return screen


def test_every_action_kind_declares_a_known_site() -> None:
    sites = {kind: cls.runs_on for kind, cls in act.ACTION_TYPES.items()}
    assert sites["select_text"] == "perception"
    assert sites["ask_human"] == "human"
    assert {sites[k] for k in ("answer", "done", "fail")} == {"run"}
    assert {k for k, site in sites.items() if site == "desktop"} == {
        "open_app", "click", "double_click", "right_click", "type", "drag", "scroll", "hotkey",
        "press", "wait",
    }  # fmt: skip


def test_the_desktop_executor_has_a_handler_for_every_desktop_action() -> None:
    desktop_kinds = {cls for cls in act.ACTION_TYPES.values() if cls.runs_on == "desktop"}
    assert desktop_kinds <= set(ActionExecutor.handlers)
    assert act.SelectText not in ActionExecutor.handlers
    assert act.AskHuman not in ActionExecutor.handlers


def test_desktop_actions_reach_the_environment(desktop: MemoryDesktop) -> None:
    result = ActionDispatcher(desktop).carry_out(act.TypeText(text="yz"))
    assert result.ok and result.message == "did type"
    assert desktop.executed == [act.TypeText(text="yz")] and desktop.text == "xyz"


def test_run_actions_stay_in_the_loop(desktop: MemoryDesktop) -> None:
    dispatcher = ActionDispatcher(desktop)
    answered = dispatcher.carry_out(act.Answer(text="42"))
    done = dispatcher.carry_out(act.Done(summary="saved"))
    failed = dispatcher.carry_out(act.Fail(reason="no file"))
    assert (answered.ok, answered.answer) == (True, "42")
    assert (done.ok, done.finished, done.message) == (True, True, "saved")
    assert (failed.ok, failed.finished, failed.message) == (False, True, "no file")
    assert desktop.executed == []


def test_ask_human_goes_to_the_person_and_nobody_means_no_reply(desktop: MemoryDesktop) -> None:
    human = ScriptedHuman(answers=["use the blue one"])
    result = ActionDispatcher(desktop, human).carry_out(act.AskHuman(question="Which one?"))
    assert (result.ok, result.reply) == (True, "use the blue one")
    assert human.questions == ["Which one?"]
    alone = ActionDispatcher(desktop).carry_out(act.AskHuman(question="Which one?"))
    assert (alone.ok, alone.reply) == (False, "")
    assert desktop.executed == []


def test_errors_of_a_live_desktop_are_results_not_exceptions(desktop: MemoryDesktop) -> None:
    off_screen = ActionDispatcher(desktop).carry_out(act.Click(x=5000, y=10))
    assert not off_screen.ok and off_screen.error == "InvalidActionError"
    unknown = ActionDispatcher(desktop).carry_out(act.OpenApp(app="spreadsheet"))
    assert not unknown.ok and unknown.error == "UnknownAppError"
    # text selection on a screen without text access and no matching text fails as a result
    selection = ActionDispatcher(desktop).carry_out(act.SelectText(target="the last paragraph"))
    assert not selection.ok and selection.error


def test_replay_re_executes_only_what_changes_the_desktop() -> None:
    assert acts_on_desktop(act.Click(x=SAVE.x, y=SAVE.y))
    assert acts_on_desktop(act.SelectText(target="the title"))
    for action in (
        act.Answer(text="1"),
        act.Done(),
        act.Fail(reason="x"),
        act.AskHuman(question="?"),
    ):
        assert not acts_on_desktop(action)


def test_application_actions_go_through_the_environments_interfaces(
    desktop: MemoryDesktop,
) -> None:
    saved = ActionDispatcher(desktop).carry_out(
        act.parse_action({"kind": "editor_save_as", "path": "b.txt"})
    )
    assert saved.ok and saved.verified
    assert (desktop.home / "b.txt").read_text() == "x"
    # one the environment does not offer: a failed result naming the GUI route, nothing run
    before = list(desktop.executed)
    missing = ActionDispatcher(desktop).carry_out(act.parse_action({"kind": "writer_read"}))
    assert not missing.ok and "through the application's window" in missing.message
    assert desktop.executed == before
    assert acts_on_desktop(act.parse_action({"kind": "files_list"}))


def test_an_unresolved_click_element_is_refused_not_clicked(desktop: MemoryDesktop) -> None:
    result = ActionDispatcher(desktop).carry_out(act.ClickElement(label="Save"))
    assert not result.ok and result.error == "UnsupportedActionError"
    assert "not resolved" in result.message
    assert desktop.executed == []
