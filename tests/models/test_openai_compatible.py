"""The OpenAI-compatible adapter against a real server (xllamacpp + smollm2-135m on 127.0.0.1)."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from pcagent.errors import MissingApiKeyError, ModelUnavailableError, PromptTooLongError
from pcagent.models import BackendInfo, Message, RetryPolicy, StructuredChatModel, UsageLedger
from pcagent.models.backends.openai_compatible import OpenAICompatibleBackend
from pcagent.models.local_server import LocalModelServer, free_port


class Choice(BaseModel):
    action: Literal["click", "type", "scroll"]
    element_id: int = Field(ge=0)


def test_schema_valid_output_and_usage(smollm2_server: LocalModelServer) -> None:
    backend = OpenAICompatibleBackend(
        model="smollm2", base_url=smollm2_server.base_url, info=BackendInfo(name="openai:smol")
    )
    ledger = UsageLedger()
    model = StructuredChatModel(backend, ledger=ledger, max_output_tokens=48)
    result = model.ask(
        [Message.system("You pick GUI actions."), Message.user("Click element 3.")],
        Choice,
        role="decision",
        step=1,
    )
    backend.close()
    assert result.ok, result.failure
    assert isinstance(result.value, Choice)
    assert result.usage.prompt_tokens > 50 and result.usage.completion_tokens > 0
    assert ledger.by_role()["decision"].calls == len(result.attempts)
    assert ledger.by_step()[1].prompt_tokens == result.usage.prompt_tokens


def test_prompt_only_mode_also_works(smollm2_server: LocalModelServer) -> None:
    backend = OpenAICompatibleBackend(
        model="smollm2", base_url=smollm2_server.base_url, info=BackendInfo(name="openai:smol")
    )
    model = StructuredChatModel(backend, constrained=False, max_output_tokens=48)
    result = model.ask([Message.user("Click element 3.")], Choice)
    backend.close()
    # a 135M model without constrained decoding may or may not comply; it must never crash
    assert result.ok or result.failure is not None
    assert result.usage.calls == len(result.attempts) >= 1


def test_a_prompt_longer_than_the_context_is_a_typed_error(
    smollm2_server: LocalModelServer,
) -> None:
    backend = OpenAICompatibleBackend(
        model="smollm2", base_url=smollm2_server.base_url, info=BackendInfo(name="openai:smol")
    )
    model = StructuredChatModel(backend, max_output_tokens=16, validation_retries=0)
    try:
        with pytest.raises(PromptTooLongError) as raised:
            model.ask([Message.user("word " * 3000)], Choice, role="decision")
    finally:
        backend.close()
    assert raised.value.context_tokens == 2048 and raised.value.prompt_tokens > 2048


def test_unreachable_server_names_the_address_and_setting() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAICompatibleBackend(
        model="m", base_url=url, info=BackendInfo(name="x"), profile="gpu-box", timeout_s=5
    )
    model = StructuredChatModel(backend, retry_policy=RetryPolicy(retries=1, backoff_s=0))
    with pytest.raises(ModelUnavailableError) as caught:
        model.ask([Message.user("hi")], Choice)
    message = str(caught.value)
    assert url in message and "[models.profiles.gpu-box]" in message and "2 attempts" in message


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_OPENAI_KEY", raising=False)
    with pytest.raises(MissingApiKeyError, match="MY_OPENAI_KEY"):
        OpenAICompatibleBackend(
            model="gpt", info=BackendInfo(name="x"), api_key_env="MY_OPENAI_KEY"
        )
