"""The Anthropic adapter: key handling, and a real call through llama.cpp's Messages API."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from pcagent.errors import MissingApiKeyError
from pcagent.models import BackendInfo, Message, StructuredChatModel
from pcagent.models.backends.anthropic_messages import AnthropicBackend
from pcagent.models.local_server import LocalModelServer


class Answer(BaseModel):
    city: str


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(MissingApiKeyError, match="ANTHROPIC_API_KEY"):
        AnthropicBackend(model="claude", info=BackendInfo(name="x"), profile="claude")


def test_real_messages_api_call(smollm2_server: LocalModelServer) -> None:
    base_url = smollm2_server.base_url.removesuffix("/v1")
    backend = AnthropicBackend(model="smollm2", base_url=base_url, info=BackendInfo(name="a"))
    model = StructuredChatModel(backend, constrained=False, max_output_tokens=32)
    result = model.ask(
        [Message.system("Answer in JSON."), Message.user("Capital of France?")], Answer
    )
    backend.close()
    assert result.usage.calls >= 1 and result.usage.prompt_tokens > 0
    assert result.ok or result.failure is not None
