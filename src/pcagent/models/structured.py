"""The typed model boundary: messages and a pydantic class in, a validated instance out.

This is the one place that (1) fits images to the model or swaps them for their text, (2) puts
the JSON schema in the system prompt, (3) calls the backend under the transport retry policy,
(4) parses and validates, (5) re-asks with the validation error, bounded, and (6) accounts usage.
A reply that never validates becomes a typed failure in :class:`StructuredResult`; it never
raises. Transport problems that outlast the retries raise :class:`~pcagent.errors.ModelError`s.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypedDict, TypeVar, Unpack

from pydantic import BaseModel

from pcagent.errors import StructuredOutputError
from pcagent.models.backend import BackendInfo, ChatBackend, ChatRequest, Completion
from pcagent.models.images import ImageScaling, fit_image
from pcagent.models.messages import ImagePart, Message, TextPart
from pcagent.models.parsing import OutputFailure, parse_reply
from pcagent.models.retry import RetryPolicy
from pcagent.models.schema_bounds import bounded
from pcagent.models.usage import Usage, UsageLedger

T = TypeVar("T", bound=BaseModel)

#: How much of a rejected reply is echoed back when re-asking (keeps retries cheap).
_ECHO_CHARS = 2000
#: ... and of a reply cut off at the token limit: almost always a repetition loop, which echoed
#: whole would fill the context and invite more of the same.
_CUT_OFF_ECHO_CHARS = 300


@dataclass(frozen=True)
class Attempt:
    """One backend call inside a structured call, for run records."""

    request: ChatRequest
    completion: Completion
    failure: OutputFailure | None


@dataclass(frozen=True)
class StructuredResult(Generic[T]):
    """The outcome of one structured call: ``value`` when ``ok``, else ``failure``.

    ``usage`` sums every attempt. ``image_scalings`` has one entry per image in the messages, in
    order, mapping the model's coordinates back to screen pixels (identity when not resized;
    ``None`` for an image a text-only model got as text).
    """

    value: T | None
    failure: OutputFailure | None
    usage: Usage
    attempts: tuple[Attempt, ...]
    image_scalings: tuple[ImageScaling | None, ...] = ()

    @property
    def ok(self) -> bool:
        return self.value is not None

    @property
    def raw_text(self) -> str:
        """The last reply's text, as the model wrote it."""
        return self.attempts[-1].completion.text if self.attempts else ""

    def unwrap(self) -> T:
        """The value, or :class:`StructuredOutputError` with the last failure."""
        if self.value is None:
            reason = self.failure.message if self.failure else "no reply"
            raise StructuredOutputError(
                f"no valid reply after {len(self.attempts)} attempt(s): {reason}"
            )
        return self.value


class AskOptions(TypedDict, total=False):
    """How one call is asked, declared once so that a model that wraps another (one that
    watches or counts the calls) passes them on whole. ``role`` selects prompt-cache reuse and
    accounting (default ""); ``step`` is for accounting only (default None); ``described``
    (default False) is explained at :meth:`StructuredChatModel.ask`; ``temperature`` samples
    this call at that temperature instead of the model's own (None: the model's)."""

    role: str
    step: int | None
    described: bool
    temperature: float | None


class ChatModel(Protocol):
    """What agents depend on: see :class:`AskOptions` for the options of a call."""

    def ask(
        self, messages: Sequence[Message], schema: type[T], **options: Unpack[AskOptions]
    ) -> StructuredResult[T]: ...

    @property
    def info(self) -> BackendInfo: ...


@dataclass
class StructuredChatModel:
    """Implements :class:`ChatModel` on top of any :class:`ChatBackend`."""

    backend: ChatBackend
    validation_retries: int = 2
    retry_policy: RetryPolicy = field(default_factory=RetryPolicy)
    ledger: UsageLedger | None = None
    max_output_tokens: int = 1024
    temperature: float = 0.0
    #: False: never ask the backend for constrained decoding (schema in the prompt only).
    constrained: bool = True

    @property
    def info(self) -> BackendInfo:
        return self.backend.info

    def ask(
        self,
        messages: Sequence[Message],
        schema: type[T],
        *,
        role: str = "",
        step: int | None = None,
        described: bool = False,
        temperature: float | None = None,
    ) -> StructuredResult[T]:
        """Ask until the reply validates against ``schema`` or the re-asks are spent.

        ``described``: the prompt already explains every field (the Decision prompt describes
        each action), so the schema shown to the model leaves out descriptions and titles, and
        is left out altogether (only the reply's top-level fields are named) when the backend
        enforces it by constrained decoding; the backend always gets the whole schema.
        """
        prepared, scalings = self._prepare_images(messages)
        json_schema = schema.model_json_schema()
        if described and self.constrained and self.backend.info.enforces_schema:
            instruction = fields_instruction(json_schema)
        else:
            shown = bare_schema(json_schema) if described else json_schema
            instruction = schema_instruction(shown)
        conversation = _with_schema_instruction(prepared, instruction)
        grammar = bounded(json_schema)
        attempts: list[Attempt] = []
        usage = Usage()
        failure: OutputFailure | None = None
        for _ in range(self.validation_retries + 1):
            request = ChatRequest(
                messages=tuple(conversation),
                schema=grammar,
                schema_name=schema.__name__,
                max_output_tokens=self.max_output_tokens,
                temperature=self.temperature if temperature is None else temperature,
                cache_key=role,
                constrained=self.constrained,
            )
            started = time.perf_counter()
            completion = self.retry_policy.run(
                lambda request=request: self.backend.complete(request)
            )
            call_usage = self._usage_of(completion, time.perf_counter() - started)
            usage = usage + call_usage
            if self.ledger is not None:
                self.ledger.record(call_usage, role=role, step=step)
            outcome = parse_reply(completion.text, schema, truncated=completion.truncated)
            attempts.append(Attempt(request, completion, outcome.failure))
            if outcome.value is not None:
                return StructuredResult(outcome.value, None, usage, tuple(attempts), scalings)
            failure = outcome.failure
            conversation = [*conversation, *_reask_messages(completion.text, failure)]
        return StructuredResult(None, failure, usage, tuple(attempts), scalings)

    def _prepare_images(
        self, messages: Sequence[Message]
    ) -> tuple[list[Message], tuple[ImageScaling | None, ...]]:
        """Fit every image to the backend's limits, or replace it by its text for a text-only
        model. Returns the new messages and one scaling (or None) per image."""
        info = self.backend.info
        scalings: list[ImageScaling | None] = []
        prepared: list[Message] = []
        for message in messages:
            parts: list[TextPart | ImagePart] = []
            for part in message.parts:
                if not isinstance(part, ImagePart):
                    parts.append(part)
                elif info.vision:
                    fitted, scaling = fit_image(part, info.image_limits)
                    parts.append(fitted)
                    scalings.append(scaling)
                else:
                    parts.append(TextPart(text=part.alt_text or "(an image was left out)"))
                    scalings.append(None)
            prepared.append(Message(role=message.role, parts=tuple(parts)))
        return prepared, tuple(scalings)

    def _usage_of(self, completion: Completion, latency_s: float) -> Usage:
        info = self.backend.info
        cost = (
            completion.prompt_tokens * info.prompt_cost_per_mtok
            + completion.completion_tokens * info.completion_cost_per_mtok
        ) / 1_000_000
        return Usage(
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            cached_prompt_tokens=completion.cached_prompt_tokens,
            calls=1,
            latency_s=latency_s,
            cost_usd=cost,
        )


def schema_instruction(json_schema: dict[str, Any]) -> str:
    """The sentence that tells the model the reply format (prompt-level schema)."""
    return (
        "Reply with exactly one JSON object and nothing else (no prose, no code fence). "
        "It must validate against this JSON schema:\n"
        + json.dumps(json_schema, separators=(",", ":"), sort_keys=True)
    )


def fields_instruction(json_schema: dict[str, Any]) -> str:
    """The reply format in one sentence, for a backend that enforces the schema itself."""
    fields = ", ".join(f'"{name}"' for name in json_schema.get("properties", {}))
    return f"Reply with exactly one JSON object with the fields {fields}, and nothing else."


_PROSE_KEYS = frozenset({"description", "title", "examples"})


def bare_schema(json_schema: Any) -> Any:
    """The schema without its prose (descriptions, titles, examples): about half the size of a
    pydantic schema, for prompts that already say what the fields mean. Property names that
    happen to be called "title" or "description" are kept."""
    if isinstance(json_schema, list):
        return [bare_schema(item) for item in json_schema]
    if not isinstance(json_schema, dict):
        return json_schema
    bare = {}
    for key, value in json_schema.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            bare[key] = {name: bare_schema(item) for name, item in value.items()}
        elif key not in _PROSE_KEYS:
            bare[key] = bare_schema(value)
    return bare


def _with_schema_instruction(messages: Sequence[Message], text: str) -> list[Message]:
    """Append the reply format to the system message (or add one): it stays at the same place in
    every call of an agent, so the prompt prefix — and the backend's prompt cache — is stable."""
    instruction = TextPart(text=text)
    result = list(messages)
    if result and result[0].role == "system":
        result[0] = Message(role="system", parts=(*result[0].parts, instruction))
    else:
        result.insert(0, Message(role="system", parts=(instruction,)))
    return result


def _reask_messages(reply: str, failure: OutputFailure | None) -> list[Message]:
    limit = _CUT_OFF_ECHO_CHARS if failure and failure.kind == "truncated" else _ECHO_CHARS
    echoed = reply if len(reply) <= limit else reply[:limit] + " [...]"
    reason = failure.message if failure else "it could not be used"
    return [
        Message.assistant(echoed or "(empty reply)"),
        Message.user(
            f"That reply was rejected: {reason}. Reply again with only the corrected JSON object."
        ),
    ]
