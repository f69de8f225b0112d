"""OpenAI-compatible chat completions: OpenAI itself, vLLM, Ollama, llama.cpp servers...

Structured output: the JSON schema goes as a ``json_schema`` response format (constrained decoding
on servers that have it). A server that rejects that format with HTTP 400 is asked again with the
schema in the prompt only, and remembered as such for the rest of the session.
"""

from __future__ import annotations

from typing import Any

import openai

from pcagent.errors import ModelRequestError, ModelTransientError
from pcagent.models.backend import ChatRequest, Completion
from pcagent.models.backends.wire import HttpAdapter, data_url
from pcagent.models.messages import ImagePart, Message

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


class OpenAICompatibleBackend(HttpAdapter):
    """One model on one OpenAI-compatible server (key rules: :class:`HttpAdapter`)."""

    provider = "OpenAI"
    default_key_env = DEFAULT_KEY_ENV
    key_advice = " or set base_url to an OpenAI-compatible server"
    sdk = openai
    unreachable_hint = "is the server running? Check base_url in {setting}"
    reports_too_long = True
    _client: openai.OpenAI
    #: Set False, for this adapter only, once the server refuses the ``json_schema`` format.
    _schema_format_supported = True

    def _connect(self, key: str, base_url: str | None, timeout_s: float) -> openai.OpenAI:
        return openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def complete(self, request: ChatRequest) -> Completion:
        use_format = request.constrained and self._schema_format_supported
        try:
            return self._call(request, use_format)
        except ModelRequestError as error:
            text = str(error).lower()
            if use_format and ("response_format" in text or "json_schema" in text):
                self._schema_format_supported = False
                return self._call(request, False)
            raise

    def _call(self, request: ChatRequest, use_format: bool) -> Completion:
        arguments: dict[str, Any] = {
            "model": self._model,
            "messages": [_to_openai(message) for message in request.messages],
            "max_tokens": request.max_output_tokens,
            "temperature": request.temperature,
        }
        if use_format:
            arguments["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.schema_name[:64] or "reply",
                    "schema": request.schema,
                    "strict": False,
                },
            }
        try:
            response = self._client.chat.completions.create(**arguments)
        except openai.OpenAIError as error:
            raise self.sdk_failure(error) from error
        if not response.choices:
            raise ModelTransientError(f"{self._where} returned no choices")
        choice = response.choices[0]
        usage = response.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        return Completion(
            text=choice.message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached_prompt_tokens=(getattr(details, "cached_tokens", 0) or 0) if details else 0,
            truncated=choice.finish_reason == "length",
        )


def _to_openai(message: Message) -> dict[str, Any]:
    if not message.images:
        return {"role": message.role, "content": message.text}
    content = [
        {"type": "image_url", "image_url": {"url": data_url(part)}}
        if isinstance(part, ImagePart)
        else {"type": "text", "text": part.text}
        for part in message.parts
    ]
    return {"role": message.role, "content": content}
