"""The sandbox desktop with real applications: typing, clicking, reading back, reset, isolation."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from pcagent import actions as act
from pcagent.env import SandboxConfig, SandboxDesktop
from pcagent.env.processes import find_marked_processes, is_alive
from pcagent.errors import (
    AppLaunchError,
    InvalidActionError,
    SandboxClosedError,
    UnknownAppError,
    UnsupportedActionError,
)

pytestmark = [pytest.mark.desktop]

UNICODE_TEXT = "Grüße, 世界 — ÄÖÜ ½ € Ωω\nsecond line\ttab 😀\n"


def editor_text(desktop: SandboxDesktop) -> str:
    observation = desktop.observe()
    areas = [e for e in observation.elements if e.role == "text" and e.app == "mousepad"]
    assert areas, observation.element_listing()
    return desktop.accessibility.text_of(areas[0].id)


def test_unicode_text_typed_into_the_editor_reads_back_exactly(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="text_editor"))
    result = desktop.execute(act.TypeText(text=UNICODE_TEXT))
    assert result.ok
    assert editor_text(desktop) == UNICODE_TEXT


def test_type_at_a_position_clicks_there_first_and_adds_no_enter(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="text_editor"))
    desktop.execute(act.TypeText(text="first"))
    area = next(e for e in desktop.observe().elements if e.role == "text")
    # Click at the very start of the text area, then type: the new text goes before "first".
    desktop.execute(act.TypeText(text="0-", x=area.box.x + 2, y=area.box.y + 5))
    desktop.execute(act.Hotkey(keys=["ctrl", "home"]))
    assert editor_text(desktop) == "0-first"


def test_calculator_buttons_found_through_their_boxes_compute(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="calculator"))
    for label in ["7", "*", "6", "="]:
        observation = desktop.observe()
        button = next(e for e in observation.elements if e.name == label and "button" in e.role)
        x, y = button.box.center
        desktop.execute(act.Click(x=x, y=y))
    display = [e.text for e in desktop.observe().elements if e.role == "text"]
    assert display == ["42"]
    # typed keys reach galculator one by one, so repeated digits are not lost
    desktop.execute(act.Press(key="escape"))
    desktop.execute(act.TypeText(text="24.99-21.49="))
    assert [e.text for e in desktop.observe().elements if e.role == "text"] == ["3.5"]
    # open_app on an open application brings it to the front instead of starting another one
    desktop.execute(act.OpenApp(app="text_editor"))
    result = desktop.execute(act.OpenApp(app="calculator"))
    assert "already open" in result.message
    windows = desktop.observe().windows
    assert [w.app_class for w in windows].count("Galculator") == 1
    assert desktop.observe().focused_window.app_class == "Galculator"  # type: ignore[union-attr]


def test_hotkey_and_press_reach_the_application(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="text_editor"))
    desktop.execute(act.TypeText(text="abc"))
    desktop.execute(act.Press(key="backspace", times=2))
    desktop.execute(act.Hotkey(keys=["ctrl", "a"]))
    desktop.execute(act.TypeText(text="z"))
    assert editor_text(desktop) == "z"


def test_invalid_actions_are_rejected_before_anything_runs(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="text_editor"))
    before = desktop.observe()
    width, height = desktop.screen_size
    with pytest.raises(InvalidActionError, match="outside"):
        desktop.execute(act.Click(x=width, y=10))
    with pytest.raises(InvalidActionError):
        desktop.execute(act.Drag(start_x=1, start_y=1, end_x=1, end_y=height + 5))
    with pytest.raises(UnknownAppError, match="Known applications"):
        desktop.execute(act.OpenApp(app="photoshop"))
    with pytest.raises(UnsupportedActionError):
        desktop.execute(act.SelectText(target="the first word"))
    after = desktop.observe()
    assert [w.title for w in after.windows] == [w.title for w in before.windows]


def test_answer_done_and_fail_report_without_touching_the_desktop(desktop: SandboxDesktop) -> None:
    assert desktop.execute(act.Answer(text="09:30")).answer == "09:30"
    assert desktop.execute(act.Done(summary="ok")).finished
    failed = desktop.execute(act.Fail(reason="cannot find the file"))
    assert failed.finished and not failed.ok and "cannot find" in failed.message


def test_reset_closes_apps_and_restores_a_pristine_home(desktop: SandboxDesktop) -> None:
    home = desktop.home
    template = desktop.state.home_template  # type: ignore[union-attr]
    pristine = sorted(p.relative_to(template) for p in template.rglob("*"))
    assert pristine, "the template should not be empty"
    desktop.open_app("text_editor")
    (home / "Documents" / "notes.txt").write_text("left over")
    (home / ".config" / "libreoffice" / "4" / "user" / "registrymodifications.xcu").write_text("x")
    editor_pids = list(desktop.state.app_pids["text_editor"])  # type: ignore[union-attr]
    desktop.reset()
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == pristine
    assert (
        "ShowTipOfTheDay"
        in (home / ".config/libreoffice/4/user/registrymodifications.xcu").read_text()
    )
    assert not any(is_alive(pid) for pid in editor_pids)
    assert desktop.observe().windows == []
    # The desktop still works after a reset.
    desktop.open_app("calculator")
    assert [w.app_class for w in desktop.observe().windows] == ["Galculator"]


def test_an_application_closed_and_opened_again_at_once_is_found_each_time(
    desktop: SandboxDesktop,
) -> None:
    # X hands a closed client's window ids to the next client: the new window must still be
    # told apart from the one listed a moment before, and no closed window may linger.
    for _ in range(3):
        window = desktop.open_app("calculator")
        pids = list(desktop.state.app_pids["calculator"])  # type: ignore[union-attr]
        assert window.pid in pids
        desktop.close_apps()
        assert desktop.observe().windows == []
        assert not any(is_alive(pid) for pid in pids)


def test_two_sandboxes_side_by_side_do_not_see_each_other() -> None:
    with SandboxDesktop() as first, SandboxDesktop() as second:
        assert first.display != second.display
        first.open_app("text_editor")
        second.open_app("calculator")
        first.execute(act.TypeText(text="only in the first"))
        assert [w.app_class for w in first.observe().windows] == ["Mousepad"]
        assert [w.app_class for w in second.observe().windows] == ["Galculator"]
        assert editor_text(first) == "only in the first"
        assert {e.app for e in second.observe().elements} == {"galculator"}
        first_marker = first.state.sandbox_id  # type: ignore[union-attr]
    assert find_marked_processes(first_marker) == []


def test_two_sandboxes_that_pick_the_same_display_number_both_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Started at the same moment, two sandboxes can both find one number free; the one whose
    X server lost must notice (not talk to the winner's display without its cookie) and move
    on to another number."""
    import threading

    from pcagent.env import sandbox_services as sandbox_module

    real = sandbox_module._free_display_number
    first_pick = real()
    picks: dict[int, int] = {}
    lock = threading.Lock()

    def same_first(start: int = sandbox_module.FIRST_DISPLAY) -> int:
        with lock:
            count = picks.get(threading.get_ident(), 0)
            picks[threading.get_ident()] = count + 1
        return first_pick if count == 0 else real(start)

    monkeypatch.setattr(sandbox_module, "_free_display_number", same_first)
    desktops: list[SandboxDesktop] = []
    barrier = threading.Barrier(2)

    def start() -> None:
        desktop = SandboxDesktop()
        barrier.wait()
        desktops.append(desktop.start())

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    try:
        assert len(desktops) == 2
        assert desktops[0].display != desktops[1].display
        assert f":{first_pick}" in {d.display for d in desktops}
        for desktop in desktops:  # each talks to its own display with its own cookie
            desktop.open_app("calculator")
            assert [w.app_class for w in desktop.observe().windows] == ["Galculator"]
    finally:
        for desktop in desktops:
            desktop.close()


def test_close_ends_every_process_including_bus_activated_ones() -> None:
    desktop = SandboxDesktop().start()
    marker = desktop.state.sandbox_id  # type: ignore[union-attr]
    desktop.open_app("file_manager")  # thunar activates more D-Bus services
    started = find_marked_processes(marker)
    assert len(started) >= 5
    desktop.close()
    assert find_marked_processes(marker) == []
    assert not any(is_alive(pid) for pid in started)
    with pytest.raises(SandboxClosedError):
        desktop.observe()
    desktop.close()  # a second close is harmless


def test_app_that_never_shows_a_window_gives_a_clear_error(
    desktop: SandboxDesktop, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pcagent.env import apps

    broken = apps.AppSpec(
        "broken", "exits at once", lambda context: ["false"], ("Nothing",), startup_timeout=3
    )
    monkeypatch.setitem(apps.APPS, "broken", broken)
    with pytest.raises(AppLaunchError, match="exited with status 1"):
        desktop.open_app("broken")


def test_observation_recovers_after_the_focused_app_is_killed(desktop: SandboxDesktop) -> None:
    import os
    import signal

    desktop.open_app("text_editor")
    desktop.open_app("calculator")
    calculator_pid = desktop.state.app_pids["calculator"][0]  # type: ignore[union-attr]
    os.kill(calculator_pid, signal.SIGKILL)
    desktop.wait_settled()
    observation = desktop.observe()
    assert "Galculator" not in [w.app_class for w in observation.windows]
    desktop.open_app("calculator")
    assert any(e.name == "=" for e in desktop.observe().elements)


@pytest.fixture
def own_session_desktop() -> Iterator[SandboxDesktop]:
    """A sandbox whose session runs as this process's user, as a person's own desktop does (a
    session bus accepts its owner alone, so root could not attach to one run unprivileged)."""
    sandbox = SandboxDesktop(SandboxConfig(unprivileged_apps=False)).start()
    assert sandbox.state is not None
    marker = sandbox.state.sandbox_id
    try:
        yield sandbox
    finally:
        sandbox.close()
        assert find_marked_processes(marker) == [], "sandbox processes outlived close()"


def test_attach_drives_an_existing_display_and_ends_only_its_own_apps(
    own_session_desktop: SandboxDesktop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sandbox stands in for a user's own desktop: attach through its display and session bus.
    desktop = own_session_desktop
    for variable in ("DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY", "XDG_RUNTIME_DIR"):
        monkeypatch.setenv(variable, desktop.env[variable])
    desktop.open_app("text_editor")
    attached = SandboxDesktop.attach(desktop.display)
    try:
        attached.open_app("calculator")
        observation = attached.observe()
        assert any(e.name == "=" for e in observation.elements)
        calculator_pids = list(attached.state.app_pids["calculator"])  # type: ignore[union-attr]
    finally:
        attached.close()
    assert not any(is_alive(pid) for pid in calculator_pids)
    # The desktop it attached to, and the editor opened there, are untouched. (The window manager
    # drops a dead client's window a moment after the process is gone.)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(desktop.observe().windows) > 1:
        time.sleep(0.1)
    assert [w.app_class for w in desktop.observe().windows] == ["Mousepad"]
    assert desktop.home.exists()


@pytest.mark.parametrize(
    "app_name",
    [
        "browser",
        "mail",
        "clock",
        "file_manager",
        "text_editor",
        "calculator",
        "writer",
        "spreadsheet",
    ],
)
def test_every_heavier_app_opens_with_an_accessible_window(
    desktop: SandboxDesktop, app_name: str
) -> None:
    window = desktop.open_app(app_name)
    observation = desktop.observe()
    assert observation.focused_window is not None
    assert observation.focused_window.window_id == window.window_id
    named = [e for e in observation.elements if e.name]
    assert len(named) >= 3, observation.element_listing()
    width, height = observation.screen_size
    assert all(0 <= e.box.center[0] < width + 50 and e.box.y < height for e in named)
    # nothing on screen that misleads a model for no reason: no "running as root" warning, no
    # first-run or update nag (the applications run as an unprivileged user, the template
    # answers first-run questions)
    shown = " ".join(f"{e.name} {e.text}" for e in observation.elements).lower()
    nags = ("root account", "as root", "administrator", "welcome to", "what's new",
            "update available", "new version", "tip of the day")  # fmt: skip
    for nag in nags:
        assert nag not in shown, f"{app_name} shows {nag!r}"
