"""Recording a backend to disk and replaying it deterministically."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from pcagent.errors import ReplayMissError
from pcagent.models import Message, StructuredChatModel
from pcagent.models.backends.recording import RecordingBackend
from pcagent.models.backends.scripted import ScriptedBackend


class Answer(BaseModel):
    value: int


def test_record_then_replay(tmp_path: Path) -> None:
    scripted = ScriptedBackend(['{"value": 1}', "junk", '{"value": 2}'])
    recorder = StructuredChatModel(RecordingBackend(tmp_path, inner=scripted, mode="record"))
    first = recorder.ask([Message.user("one")], Answer)
    second = recorder.ask([Message.user("two")], Answer)
    assert (first.value, second.value) == (Answer(value=1), Answer(value=2))
    assert len(list(tmp_path.glob("*.json"))) == 3  # "two" was re-asked once

    replayer = StructuredChatModel(RecordingBackend(tmp_path, mode="replay"))
    for _ in range(2):  # deterministic: the same answers every time
        assert replayer.ask([Message.user("two")], Answer).value == Answer(value=2)
        assert replayer.ask([Message.user("one")], Answer).value == Answer(value=1)
    with pytest.raises(ReplayMissError, match="record again"):
        replayer.ask([Message.user("three")], Answer)


def test_repeated_requests_replay_in_recorded_order(tmp_path: Path) -> None:
    scripted = ScriptedBackend(['{"value": 1}', '{"value": 2}'])
    recorder = StructuredChatModel(RecordingBackend(tmp_path, inner=scripted))
    assert [recorder.ask([Message.user("same")], Answer).value for _ in range(2)] == [
        Answer(value=1),
        Answer(value=2),
    ]
    replayer = StructuredChatModel(RecordingBackend(tmp_path, mode="replay"))
    values = [replayer.ask([Message.user("same")], Answer).value for _ in range(3)]
    assert values == [Answer(value=1), Answer(value=2), Answer(value=2)]
