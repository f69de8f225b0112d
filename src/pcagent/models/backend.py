"""What every backend adapter implements: one raw request in, one raw completion out.

Why so small: parsing, validation, re-asking, transport retries, image fitting and accounting all
live in :mod:`pcagent.models.structured`, once. An adapter only translates a :class:`ChatRequest`
to its provider's wire format and the answer back, and maps the provider's exceptions onto the
project's (:class:`~pcagent.errors.ModelTransientError` for what is worth retrying).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pcagent.errors import PromptTooLongError
from pcagent.models.images import ImageLimits
from pcagent.models.messages import ImagePart, Message


@dataclass(frozen=True)
class BackendInfo:
    """What the structured layer needs to know about a backend."""

    #: Shown in messages and records: ``openai:gpt-4o-mini``, ``local:qwen2.5-coder-1.5b``...
    name: str
    vision: bool = False
    image_limits: ImageLimits = field(default_factory=ImageLimits)
    #: Dollars per million tokens; 0 when unknown.
    prompt_cost_per_mtok: float = 0.0
    completion_cost_per_mtok: float = 0.0
    #: The backend always decodes under the request's schema when asked to (llama.cpp's
    #: grammar), so a reply cannot leave it: a prompt that already describes the fields need not
    #: repeat the schema.
    enforces_schema: bool = False
    #: The backend decodes greedily (temperature 0 on a local model): the same request always
    #: gets the same reply, so a reply written again will come again for every later ask.
    greedy: bool = False


@dataclass(frozen=True)
class ChatRequest:
    """A fully prepared request: images already fitted (or replaced by text), schema attached."""

    messages: tuple[Message, ...]
    #: JSON schema of the expected reply (also described in the system prompt).
    schema: dict[str, Any]
    schema_name: str
    max_output_tokens: int = 1024
    temperature: float = 0.0
    #: Calls with the same key share a prompt cache where the backend has one (the agent role).
    cache_key: str = ""
    #: False: the backend must not use constrained decoding / response formats (prompt only).
    constrained: bool = True

    def fingerprint(self) -> str:
        """A stable hash of everything that determines the answer (images by their hash)."""
        return hashlib.sha256(
            json.dumps(self.to_record(), sort_keys=True, separators=(",", ":")).encode()
        ).hexdigest()

    def to_record(self) -> dict[str, Any]:
        """JSON-ready form for run records and recordings (images replaced by their sha256)."""
        return {
            "messages": [
                {
                    "role": message.role,
                    "parts": [
                        {"image_sha256": part.sha256, "media_type": part.media_type}
                        if isinstance(part, ImagePart)
                        else {"text": part.text}
                        for part in message.parts
                    ],
                }
                for message in self.messages
            ],
            "schema": self.schema,
            "schema_name": self.schema_name,
            "max_output_tokens": self.max_output_tokens,
            "temperature": self.temperature,
            "cache_key": self.cache_key,
            "constrained": self.constrained,
        }


@dataclass(frozen=True)
class Completion:
    """The raw answer of one call."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    #: True when generation stopped at the token limit (the JSON is probably cut off).
    truncated: bool = False
    #: Backend-specific timings (llama.cpp's ``timings``), kept for benchmarks and records.
    details: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_prompt_tokens": self.cached_prompt_tokens,
            "truncated": self.truncated,
            "details": self.details,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Completion:
        return cls(
            text=str(record["text"]),
            prompt_tokens=int(record.get("prompt_tokens", 0)),
            completion_tokens=int(record.get("completion_tokens", 0)),
            cached_prompt_tokens=int(record.get("cached_prompt_tokens", 0)),
            truncated=bool(record.get("truncated", False)),
            details=dict(record.get("details", {})),
        )


@runtime_checkable
class ChatBackend(Protocol):
    """A provider adapter. ``complete`` raises only :class:`~pcagent.errors.ModelError`s."""

    @property
    def info(self) -> BackendInfo: ...

    def complete(self, request: ChatRequest) -> Completion: ...

    def close(self) -> None:
        """Release connections, servers, memory. Safe to call twice."""


#: How servers say a prompt is longer than the context: llama.cpp's error type, OpenAI's code.
_TOO_LONG = {"exceed_context_size_error", "context_length_exceeded"}


def prompt_too_long(where: str, error: Any) -> PromptTooLongError | None:
    """The typed error for a server's refusal ``error`` (its JSON error object) when it says the
    prompt does not fit the context window; None for any other refusal."""
    if not isinstance(error, dict):
        return None
    if isinstance(error.get("error"), dict):  # a whole response body rather than its error
        error = error["error"]
    if not _TOO_LONG.intersection({str(error.get("type", "")), str(error.get("code", ""))}):
        return None
    prompt, context = int(error.get("n_prompt_tokens", 0)), int(error.get("n_ctx", 0))
    counts = f" ({prompt} tokens; the context holds {context})" if prompt and context else ""
    return PromptTooLongError(
        f"{where}: the prompt is too long for the model's context{counts}: "
        f"{error.get('message', '')}",
        prompt_tokens=prompt,
        context_tokens=context,
    )
