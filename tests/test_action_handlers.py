"""Every action has exactly one place that carries it out, declared beside its implementation:
the desktop's executor, one application interface, the run's dispatcher, or the step endings."""

from __future__ import annotations

import pytest

from pcagent import actions as act
from pcagent.action_handlers import Dispatches, HandlerConflictError, HandlerTable, handles
from pcagent.app_actions import APP_ACTION_CLASSES
from pcagent.env.app_interfaces.registry import interface_classes
from pcagent.env.executor import STEP_ENDINGS, ActionExecutor, end_step
from pcagent.runtime.loop.dispatch import ActionDispatcher


def test_each_application_action_has_exactly_one_interface() -> None:
    owners: dict[type, list[str]] = {}
    for interface in interface_classes():
        assert interface.actions, f"{interface.__name__} declares no handler"
        for action_class in interface.actions:
            owners.setdefault(action_class, []).append(interface.__name__)
    assert set(owners) == set(APP_ACTION_CLASSES)
    assert {cls.__name__: names for cls, names in owners.items() if len(names) > 1} == {}


def test_every_action_is_carried_out_where_its_class_says() -> None:
    for action_class in act.ACTION_TYPES.values():
        site = action_class.runs_on
        if site == "desktop":
            assert action_class in ActionExecutor.handlers, action_class.__name__
        elif site == "run":
            assert action_class in STEP_ENDINGS and action_class in ActionDispatcher.handlers
        elif site in ("perception", "skill", "human"):
            assert action_class in ActionDispatcher.handlers, action_class.__name__
        else:
            assert site == "application" and action_class in APP_ACTION_CLASSES


def test_the_step_endings_are_defined_once_and_used_by_both_layers() -> None:
    done = end_step(act.Done(summary="saved"))
    assert (done.ok, done.finished, done.message) == (True, True, "saved")
    failed = end_step(act.Fail(reason="no such file"))
    assert (failed.ok, failed.finished, failed.message) == (False, True, "no such file")
    assert end_step(act.Answer(text="42")).answer == "42"
    with pytest.raises(TypeError, match="click"):
        end_step(act.Click(x=1, y=1))


def test_a_table_refuses_two_handlers_for_one_action_and_finds_subclasses() -> None:
    @handles(act.Click)
    def first(_owner: object, _action: act.Click) -> str:
        return "first"

    @handles(act.Click)
    def second(_owner: object, _action: act.Click) -> str:
        return "second"

    with pytest.raises(HandlerConflictError, match="Click has two handlers"):
        HandlerTable.of(first, second)

    class Narrowed(act.Click):
        pass

    class Owner(Dispatches):
        @handles(act.Click, act.Wait)
        def act_out(self, action: act.Action) -> str:
            return action.kind

        def not_a_handler(self, action: act.Action) -> str:
            return "never"

    handler = Owner().handler(Narrowed(x=1, y=2))
    assert handler is not None and handler(Narrowed(x=1, y=2)) == "click"
    assert Owner().handler(act.Press(key="a")) is None
    assert set(Owner.handlers) == {act.Click, act.Wait}
