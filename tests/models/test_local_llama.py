"""The in-process local backend with the real smollm2-135m model."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pcagent.models import BackendInfo, Message, StructuredChatModel
from pcagent.models.backends.local_llama import LocalLlamaBackend
from pcagent.models.packs import InstalledPack


class Step(BaseModel):
    action: Literal["click", "type", "done"]
    element_id: int


def test_constrained_output_and_prefix_cache_reuse(smollm2: InstalledPack) -> None:
    backend = LocalLlamaBackend(
        smollm2.path, info=BackendInfo(name="local"), context_tokens=1024, cache_slots=2
    )
    model = StructuredChatModel(backend, max_output_tokens=64, validation_retries=0)
    prefix = Message.system("You are a GUI agent. " + "Elements: [1] OK button, [2] Cancel. " * 8)
    try:
        first = model.ask([prefix, Message.user("Press OK.")], Step, role="decision")
        other = model.ask(
            [Message.system("Other agent."), Message.user("Go.")], Step, role="manager"
        )
        second = model.ask([prefix, Message.user("Press Cancel.")], Step, role="decision")
    finally:
        backend.close()
    assert first.ok and second.ok and other.ok  # constrained decoding: always valid JSON
    assert first.usage.cached_prompt_tokens == 0
    # the manager used its own slot, so the decision agent's prefix was still cached
    assert second.usage.cached_prompt_tokens > 0.8 * first.usage.prompt_tokens
    assert (
        first.attempts[0].completion.details["slot"] != other.attempts[0].completion.details["slot"]
    )
