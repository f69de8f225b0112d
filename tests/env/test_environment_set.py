"""Several desktops as one environment: the capabilities offered, routing to the current desktop,
the first desktop's HOME, the mail of all of them. (Two real desktops, one served over HTTP, are
driven through a set by the agents in tests/bench/test_cross_environment_runs.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent import actions as act
from pcagent.env.environment_set import UnknownEnvironmentError, environment_set
from pcagent.env.protocol import LocalHome, OutgoingMail, TextAccess


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
