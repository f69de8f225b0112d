"""Anthropic's Messages API (official SDK).

Structured output: a single tool whose input schema is the expected reply, with ``tool_choice``
forcing it; the tool input is handed to the shared parser as JSON text. ``temperature`` is not
sent: the current SDK's ``messages.create`` no longer takes it (the model's default applies). The system prompt is
marked for prompt caching, so an agent's repeated calls reuse its prefix.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from pcagent.models.backend import ChatRequest, Completion
from pcagent.models.backends.wire import HttpAdapter, image_base64
from pcagent.models.messages import ImagePart, Message

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
_TOOL_NAME = "reply"


class AnthropicBackend(HttpAdapter):
    """One Claude model (key rules: :class:`HttpAdapter`, with ``ANTHROPIC_API_KEY``)."""

    provider = "Anthropic"
    default_key_env = DEFAULT_KEY_ENV
    sdk = anthropic
    unreachable_hint = "check the network or base_url in {setting}"
    # 529: Anthropic's "overloaded"
    transient_statuses = (408, 409, 529)
    _client: anthropic.Anthropic

    def _connect(self, key: str, base_url: str | None, timeout_s: float) -> anthropic.Anthropic:
        return anthropic.Anthropic(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def complete(self, request: ChatRequest) -> Completion:
        system = "\n\n".join(m.text for m in request.messages if m.role == "system")
        arguments: dict[str, Any] = {
            "model": self._model,
            "max_tokens": request.max_output_tokens,
            "messages": [_to_anthropic(m) for m in request.messages if m.role != "system"],
        }
        if system:
            arguments["system"] = [
                {"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}
            ]
        use_tool = request.constrained and request.schema.get("type") == "object"
        if use_tool:
            arguments["tools"] = [
                {
                    "name": _TOOL_NAME,
                    "description": f"Give the reply as a {request.schema_name} object.",
                    "input_schema": request.schema,
                }
            ]
            arguments["tool_choice"] = {"type": "tool", "name": _TOOL_NAME}
        try:
            response = self._client.messages.create(**arguments)
        except anthropic.AnthropicError as error:
            raise self.sdk_failure(error) from error
        text_parts: list[str] = []
        for block in response.content:
            if block.type == "tool_use" and block.name == _TOOL_NAME:
                text_parts = [json.dumps(block.input)]
                break
            if block.type == "text":
                text_parts.append(block.text)
        usage = response.usage
        cache_read = getattr(usage, "cache_read_input_tokens", 0) or 0
        cache_write = getattr(usage, "cache_creation_input_tokens", 0) or 0
        return Completion(
            text="".join(text_parts),
            prompt_tokens=usage.input_tokens + cache_read + cache_write,
            completion_tokens=usage.output_tokens,
            cached_prompt_tokens=cache_read,
            truncated=response.stop_reason == "max_tokens",
        )


def _to_anthropic(message: Message) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, ImagePart):
            content.append(
                {
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": part.media_type,
                        "data": image_base64(part),
                    },
                }
            )
        else:
            content.append({"type": "text", "text": part.text})
    return {"role": message.role, "content": content}
