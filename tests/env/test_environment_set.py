"""Several desktops as one environment: the capabilities offered, routing to the current desktop,
the first desktop's HOME, the mail of all of them. (Two real desktops, one served over HTTP, are
driven through a set by the agents in tests/bench/test_cross_environment_runs.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent import actions as act
from pcagent.env.environment_set import UnknownEnvironmentError, environment_set
from pcagent.env.protocol import Desktops, Environment, LocalHome, OutgoingMail, TextAccess


class Plain:
    """The least an environment is: observe, execute, reset, close."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.executed: list[act.Action] = []
        self.resets = 0

    def observe(self):  # type: ignore[no-untyped-def]
        return self.name

    def execute(self, action: act.Action):  # type: ignore[no-untyped-def]
        self.executed.append(action)
        return self.name

    def reset(self) -> None:
        self.resets += 1

    def close(self) -> None:
        raise AssertionError("the set does not close its members")


class WithHome(Plain):
    def __init__(self, name: str, home: Path) -> None:
        super().__init__(name)
        self.home = home


class WithMail(Plain):
    def __init__(self, name: str, held: list[str]) -> None:
        super().__init__(name)
        self.held = held
        self.released: list[str] = []

    def held_mail(self):  # type: ignore[no-untyped-def]
        from types import SimpleNamespace

        return [SimpleNamespace(id=i) for i in self.held]

    def release_mail(self, message_id: str):  # type: ignore[no-untyped-def]
        self.released.append(message_id)
        return message_id

    def reject_mail(self, message_id: str) -> None:
        self.released.append(f"rejected {message_id}")


def test_actions_and_observations_go_to_the_current_desktop() -> None:
    first, second = Plain("a"), Plain("b")
    desktops = environment_set({"workstation": first, "laptop": second})
    assert desktops.observe() == "a"  # the first until told otherwise
    desktops.use("laptop")
    desktops.execute(act.Wait(seconds=0.1))
    assert second.executed and not first.executed and desktops.observe() == "b"
    desktops.use("")  # empty: the first again
    assert desktops.current_name == "workstation"
    with pytest.raises(UnknownEnvironmentError, match=r"no desktop 'phone'.*workstation, laptop"):
        desktops.use("phone")
    desktops.reset()
    assert first.resets == second.resets == 1
    desktops.close()  # leaves the members to their owner


def test_home_is_the_first_desktop_s_and_the_current_one_is_told(tmp_path: Path) -> None:
    desktops = environment_set({"workstation": WithHome("a", tmp_path / "a"), "laptop": Plain("b")})
    assert isinstance(desktops, LocalHome) and desktops.home == tmp_path / "a"
    assert desktops.current_home() == tmp_path / "a"
    desktops.use("laptop")
    assert desktops.home == tmp_path / "a" and desktops.current_home() is None
    # a capability one member lacks is not offered
    assert not isinstance(desktops, TextAccess)
    # a HOME that only a further desktop has is not the run's
    assert not isinstance(
        environment_set({"a": Plain("a"), "b": WithHome("b", tmp_path)}), LocalHome
    )


def test_mail_held_anywhere_is_decided() -> None:
    mailer = WithMail("b", ["m1"])
    desktops = environment_set({"workstation": Plain("a"), "laptop": mailer})
    assert isinstance(desktops, OutgoingMail)
    assert [message.id for message in desktops.held_mail()] == ["m1"]
    desktops.release_mail("m1")
    assert mailer.released == ["m1"]


class TwoScreens:
    """A set of desktops that is not an :class:`EnvironmentSet`: the run layer must treat it as
    one by what it offers, not by its class."""

    def __init__(self, homes: dict[str, Path]) -> None:
        self.members: dict[str, Environment] = {
            name: WithHome(name, h) for name, h in homes.items()
        }
        self.primary = next(iter(homes))
        self.current_name = self.primary
        self.homes = homes

    def use(self, name: str) -> Environment:
        self.current_name = name or self.primary
        return self.members[self.current_name]

    def current_home(self) -> Path | None:
        return self.homes[self.current_name]

    def environment_apps(self) -> dict[str, list[str]]:
        return {name: [f"{name}_editor"] for name in self.members}

    def observe(self):  # type: ignore[no-untyped-def]
        return self.members[self.current_name].observe()

    def execute(self, action: act.Action):  # type: ignore[no-untyped-def]
        return self.members[self.current_name].execute(action)

    def reset(self) -> None: ...

    def close(self) -> None: ...


def test_any_object_offering_desktops_is_treated_as_a_set_of_them(tmp_path: Path) -> None:
    from pcagent.agents.plan import SubtaskSpec
    from pcagent.errors import RunStateError
    from pcagent.runtime.loop.desktop_state import DesktopAccess
    from pcagent.runtime.record.checkpoint import RunCheckpoint, check_desktops

    screens = TwoScreens({"workstation": tmp_path / "w", "laptop": tmp_path / "l"})
    assert isinstance(screens, Desktops) and isinstance(
        environment_set({"a": Plain("a")}), Desktops
    )
    assert not isinstance(Plain("a"), Desktops)
    # the files of a subtask are on the desktop it works on
    access = DesktopAccess.of(screens)
    screens.use("laptop")
    assert access.current_home() == tmp_path / "l"
    # a plan across its desktops goes on with it, and one naming another desktop does not
    plan = [
        SubtaskSpec(id="s1", description="compute", app="calculator", environment="workstation"),
        SubtaskSpec(id="s2", description="note it", app="text_editor", environment="laptop"),
    ]
    check_desktops(RunCheckpoint(instruction="across", subtasks=plan), screens)
    phone = SubtaskSpec(id="s3", description="call", app="phone", environment="phone")
    with pytest.raises(RunStateError, match=r"missing \['phone'\]"):
        check_desktops(RunCheckpoint(instruction="across", subtasks=[*plan, phone]), screens)
