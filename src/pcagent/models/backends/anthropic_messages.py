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

from pcagent.models.backend import BackendInfo, ChatRequest, Completion
from pcagent.models.backends.wire import image_base64, resolve_api_key, sdk_error
from pcagent.models.messages import ImagePart, Message

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
_TOOL_NAME = "reply"


class AnthropicBackend:
    """One Claude model. Same key rules as the OpenAI adapter, with ``ANTHROPIC_API_KEY``."""

    def __init__(
        self,
        base_url: str = "",
        *,
        info: BackendInfo,
        model: str,
        api_key: str = "",
        api_key_env: str = DEFAULT_KEY_ENV,
        timeout_s: float = 120.0,
        profile: str = "",
    ):
        self._model = model
        self._info = info
        self._key_env = api_key_env or DEFAULT_KEY_ENV
        self._where = base_url or "the Anthropic API"
        setting = f"[models.profiles.{profile}]" if profile else "the model profile"
        key = resolve_api_key(
            api_key,
            self._key_env,
            base_url,
            f"{setting} uses the Anthropic API but {self._key_env} is not set; "
            f"export {self._key_env}=...",
        )
        self._setting = setting
        self._client = anthropic.Anthropic(
            api_key=key, base_url=base_url or None, timeout=timeout_s, max_retries=0
        )

    @property
    def info(self) -> BackendInfo:
        return self._info

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
            raise sdk_error(
                error,
                anthropic,
                where=self._where,
                key_env=self._key_env,
                unreachable_hint=f"check the network or base_url in {self._setting}",
                transient_statuses=(408, 409, 529),
            ) from error
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

    def close(self) -> None:
        self._client.close()


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
