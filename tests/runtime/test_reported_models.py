"""Models asked outside the agents (the language skills', the text selector's) report each call
to the run's record under the role they were asked as; a real structured model over a scripted
backend, re-asks included. A whole run with a language skill: tests/runtime/test_program_run.py."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.messages import Message
from pcagent.models.structured import StructuredChatModel, StructuredResult
from pcagent.runtime.loop.watched_models import ReportedModel


class Picked(BaseModel):
    units: list[int]


def test_each_call_is_reported_with_its_attempts_under_its_role() -> None:
    reported: list[tuple[str, StructuredResult[Any]]] = []
    backend = ScriptedBackend(['{"units": [1]}', "not an object", '{"units": [2, 3]}', *["{}"] * 3])
    model = ReportedModel(
        StructuredChatModel(backend), lambda agent, r: reported.append((agent, r))
    )
    asked = [Message.user("which units?")]
    first = model.ask(asked, Picked, role="select")
    second = model.ask(asked, Picked, role="composer")
    assert first.value == Picked(units=[1]) and second.value == Picked(units=[2, 3])
    assert [(agent, len(result.attempts)) for agent, result in reported] == [
        ("select", 1),
        ("composer", 2),  # the reply that did not validate is in the record too
    ]
    assert reported[1][1] is second
    model.ask(asked, Picked)  # asked without a role: still reported
    assert reported[-1][0] == "model" and reported[-1][1].value is None
