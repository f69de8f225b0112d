"""Inputs a run refuses before anything starts: unknown ablations, empty or huge instructions,
typed text beyond the limit. Nothing is recorded for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.counter_screen import CounterScreen

from pcagent.actions import MAX_TYPED_CHARACTERS, parse_action
from pcagent.config import PcAgentConfig
from pcagent.errors import AgentError, ConfigurationError, InvalidActionError
from pcagent.runtime.loop.ablations import ABLATIONS, check_ablation
from pcagent.runtime.loop.limits import MAX_INSTRUCTION_CHARACTERS, check_instruction
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore


def test_ablation_names_are_checked_and_listed() -> None:
    assert [check_ablation(name) for name in ABLATIONS] == list(ABLATIONS)
    with pytest.raises(ConfigurationError) as error:
        check_ablation("bogus")
    assert "bogus" in str(error.value) and "single_agent" in str(error.value)


def test_a_session_with_an_unknown_ablation_is_refused_before_any_run(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs")
    models = scripts.usual_models(scripts.Repeating(lambda request: ""))
    with pytest.raises(ConfigurationError):
        RunSession(
            CounterScreen(), models, store, PcAgentConfig(data_dir=tmp_path), ablation="bogus"
        )  # type: ignore[arg-type]
    assert store.list_runs() == []


@pytest.mark.parametrize(
    ("instruction", "words"),
    [("", "empty"), ("   \n", "empty"), ("x" * (MAX_INSTRUCTION_CHARACTERS + 1), "--file")],
)
def test_bad_instructions_are_refused_and_never_recorded(
    tmp_path: Path, instruction: str, words: str
) -> None:
    with pytest.raises(AgentError, match=words):
        check_instruction(instruction)
    store = RunStore(tmp_path / "runs")
    models = scripts.usual_models(scripts.Repeating(lambda request: ""))
    session = RunSession(CounterScreen(), models, store, PcAgentConfig(data_dir=tmp_path))
    with pytest.raises(AgentError):
        session.start(instruction)
    assert store.list_runs() == []
    assert check_instruction("x" * MAX_INSTRUCTION_CHARACTERS)


def test_typed_text_is_limited() -> None:
    assert parse_action({"kind": "type", "text": "a" * MAX_TYPED_CHARACTERS})
    with pytest.raises(InvalidActionError, match="text"):
        parse_action({"kind": "type", "text": "a" * (MAX_TYPED_CHARACTERS + 1)})
