"""The Clocks actions on the sandbox's real gnome-clocks: the effects are read back as the
benchmark reads them, from the settings file the application saves."""

from __future__ import annotations

import pytest

from pcagent import actions as act
from pcagent.app_actions import ClockAddAlarm, ClockAddWorldClock
from pcagent.bench.checker_types import CheckResult
from pcagent.bench.checkers import CheckContext, run_checker
from pcagent.env import SandboxDesktop
from pcagent.env.app_interfaces.clock import ALARM_DIALOG, WORLD_DIALOG, ClockInterface
from pcagent.env.app_interfaces.clock_screen import (
    CityRow,
    choose_city,
    city_rows,
    first_field,
    header_add_button,
    shown_time,
)
from pcagent.env.app_interfaces.registry import AppInterfaces
from pcagent.env.observation import Box, Element
from pcagent.errors import AppInterfaceError, InvalidActionError

pytestmark = [pytest.mark.desktop]


def checked(checker: str, parameters: dict[str, object], desktop: SandboxDesktop) -> CheckResult:
    return run_checker(checker, parameters, CheckContext(desktop.home, desktop))


def label(name: str, x: int, y: int) -> Element:
    return Element(id=x * 1000 + y, role="label", name=name, box=Box(x=x, y=y, width=40, height=18))


def test_the_search_result_a_city_name_means() -> None:
    # Two result rows as the dialog shows them: city and country on one line, the zone below.
    elements = [
        Element(id=1, role="list item", box=Box(x=450, y=240, width=360, height=60)),
        label("Paris", 460, 250),
        label("France", 505, 250),
        label("Europe/Paris • 1 hour later", 460, 275),
        Element(id=2, role="list item", box=Box(x=450, y=310, width=360, height=60)),
        label("Paris", 460, 320),
        label("United States", 505, 320),
        label("Cancel", 460, 140),  # outside every row
    ]
    rows = city_rows(elements)
    assert [(r.city, r.country) for r in rows] == [("Paris", "France"), ("Paris", "United States")]
    assert choose_city(rows, "paris") is rows[0]
    assert choose_city(rows, "Paris, United States") is rows[1]
    assert choose_city(rows, "Paris, Japan") is None
    sao_paulo = CityRow(city="São Paulo", country="Brazil", target=elements[1])
    frankfurt = CityRow(city="Frankfurt am Main", country="Germany", target=elements[1])
    assert choose_city([sao_paulo], "Sao Paulo") is sao_paulo
    assert choose_city([frankfurt], "Frankfurt") is frankfurt
    assert choose_city([frankfurt], "Furt") is None
    assert shown_time("07\u200e\u223630") == (7, 30)
    assert shown_time("7\u223605 PM") == (19, 5)
    assert shown_time("12:00 AM") == (0, 0)
    assert shown_time("9 hours later") is None


def test_the_header_s_add_button_is_the_button_left_of_the_tabs() -> None:
    # As gnome-clocks' header bar reads (measured): "+" unnamed at the left, menu and window
    # buttons right of the tabs, and the empty page's own button below.
    def button(name: str, x: int, y: int) -> Element:
        return Element(id=x, role="push button", name=name, box=Box(x=x, y=y, width=24, height=24))

    alarms = Element(
        id=1, role="page tab", name="Alarms", box=Box(x=304, y=6, width=125, height=34)
    )
    plus = button("GtkImage", 11, 11)
    elements = [plus, alarms, button("GtkMenuButton", 711, 11), button("Add Alarm", 367, 433)]
    assert header_add_button(elements, alarms) is plus
    assert header_add_button(elements[1:], alarms) is None


def test_a_dialog_s_first_field_is_the_topmost_one_drawn() -> None:
    def field(role: str, y: int, x: int = 20, width: int = 200) -> Element:
        return Element(id=y * 10 + x, role=role, name="", box=Box(x=x, y=y, width=width, height=30))

    search, hour = field("text", 60), field("spin button", 120)
    hidden = field("entry", 10, width=0)  # not drawn: no focus goes there
    assert first_field([field("push button", 5), hour, hidden, search]) is search
    assert first_field([field("label", 60)]) is None


def test_the_field_clicked_when_a_dialog_opens_unfocused_is_the_focused_one(
    shared_desktop: SandboxDesktop,
) -> None:
    # A dialog that opened without a focused field gets a click on its first field; on the real
    # dialogs that is the field their focus starts in (the world clock's search field).
    desktop = shared_desktop
    desktop.execute(act.OpenApp(app="clock"))
    interface = ClockInterface(desktop)
    elements = interface._open_dialog("World", WORLD_DIALOG)
    try:
        field = first_field(elements)
        assert field is not None and "focused" in field.states, field
    finally:
        interface._cancel_dialog()


def test_without_a_running_sandbox_the_interface_is_unavailable() -> None:
    stopped = SandboxDesktop()
    with pytest.raises(AppInterfaceError):
        ClockInterface(stopped).perform(ClockAddWorldClock(city="Tokyo"))
    result = AppInterfaces(stopped).perform(ClockAddAlarm(time="07:30"))
    assert not result.ok and "can still do it" in result.message


def test_a_world_clock_is_added_in_the_running_window(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    assert {"clock_add_world_clock", "clock_add_alarm"} <= desktop.app_action_kinds()
    assert not checked("world_clock", {"city": "Tokyo"}, desktop).passed
    # Clocks is not open yet: the action opens it.
    result = desktop.execute(ClockAddWorldClock(city="Tokyo"))
    assert result.ok and result.verified, result.message
    assert result.output == "Tokyo (Japan)"
    assert checked("world_clock", {"city": "Tokyo"}, desktop).passed
    assert any(e.role == "list item" and e.name == "Tokyo" for e in desktop.observe().elements)
    assert not checked("world_clock", {"city": "Sydney"}, desktop).passed

    with pytest.raises(InvalidActionError, match="no city called 'Xyzzyville'"):
        desktop.execute(ClockAddWorldClock(city="Xyzzyville"))
    focused = desktop.observe().focused_window
    assert focused is not None and focused.title == "Clocks"  # the dialog was cancelled


def test_an_alarm_is_added_over_a_dialog_left_open(shared_desktop: SandboxDesktop) -> None:
    desktop = shared_desktop
    desktop.execute(act.OpenApp(app="clock"))
    alarms_tab = next(
        e for e in desktop.observe().elements if e.role == "page tab" and e.name == "Alarms"
    )
    desktop.execute(act.Click(x=alarms_tab.box.center[0], y=alarms_tab.box.center[1]))
    desktop.execute(act.Hotkey(keys=["ctrl", "n"]))  # a New Alarm dialog someone left open
    desktop.wait_settled()
    assert any(w.title == ALARM_DIALOG for w in desktop.observe().windows)

    result = desktop.execute(ClockAddAlarm(time="07:30", name="Morning run"))
    assert result.ok and result.verified, result.message
    assert checked("clock_alarm", {"hour": 7, "minute": 30, "name": "Morning run"}, desktop).passed
    assert not checked("clock_alarm", {"hour": 7, "minute": 31}, desktop).passed
    assert not any(w.title == ALARM_DIALOG for w in desktop.observe().windows)

    with pytest.raises(InvalidActionError, match="already has an alarm at 07:30"):
        desktop.execute(ClockAddAlarm(time="7:30", name="Again"))
    assert not checked("clock_alarm", {"hour": 7, "minute": 30, "name": "Again"}, desktop).passed


def test_the_header_s_add_button_opens_the_new_dialog(shared_desktop: SandboxDesktop) -> None:
    # With one try the action goes straight to the header's add button, the last resort when
    # Ctrl+N is swallowed under load: it must open the dialog and add the alarm too.
    desktop = shared_desktop
    desktop.execute(act.OpenApp(app="clock"))
    elements = desktop.observe().elements
    tab = next(e for e in elements if e.role == "page tab" and e.name == "Alarms")
    assert header_add_button(elements, tab) is not None  # else the one try would be Ctrl+N
    interface = ClockInterface(desktop)
    interface.dialog_presses = 1
    result = interface.perform(ClockAddAlarm(time="06:45", name="Button alarm"))
    assert result.ok and result.verified, result.message
    assert checked("clock_alarm", {"hour": 6, "minute": 45, "name": "Button alarm"}, desktop).passed
