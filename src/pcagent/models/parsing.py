"""Turning a model's text into a validated pydantic object, or a typed failure — never a crash.

The one repair we do is *finding* the JSON: code fences and prose around it are common even with
schema instructions. We do not guess at broken JSON (trailing commas, single quotes): the model is
re-asked with the exact error instead, which works better and stays predictable. Model output is
only ever given to ``json`` and pydantic, never evaluated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

FailureKind = Literal["empty", "no_json", "invalid_json", "truncated", "schema_mismatch"]

#: Look for JSON starting at no more than this many opening braces (bounds the work on huge,
#: brace-heavy junk).
_MAX_CANDIDATES = 32
_MAX_ERRORS_SHOWN = 8


@dataclass(frozen=True)
class OutputFailure:
    """Why a reply could not be used. ``message`` is written to be shown to the model."""

    kind: FailureKind
    message: str


@dataclass(frozen=True)
class ParseOutcome(Generic[T]):
    """Either ``value`` or ``failure`` is set."""

    value: T | None = None
    failure: OutputFailure | None = None


_CUT_OFF = OutputFailure(
    "truncated",
    "the reply was cut off at the token limit before the JSON was complete (it probably "
    "repeated itself); answer with a shorter JSON object",
)


def parse_reply(text: str, schema: type[T], *, truncated: bool = False) -> ParseOutcome[T]:
    """Find the JSON object in ``text`` and validate it against ``schema``.

    ``truncated`` (the backend hit the token limit) turns "no complete JSON" into a ``truncated``
    failure, whose message asks for a shorter answer. Never raises for any input text.
    """
    try:
        return _parse(text, schema, truncated)
    except RecursionError:
        return ParseOutcome(failure=OutputFailure("invalid_json", "the JSON is nested too deeply"))


def _parse(text: str, schema: type[T], truncated: bool) -> ParseOutcome[T]:
    stripped = text.strip()
    if not stripped:
        return ParseOutcome(failure=OutputFailure("empty", "the reply was empty"))
    candidates, decode_error = _json_candidates(stripped)
    if not candidates:
        if truncated:
            return ParseOutcome(failure=_CUT_OFF)
        if decode_error is None:
            return ParseOutcome(
                failure=OutputFailure("no_json", "the reply contains no JSON object")
            )
        return ParseOutcome(
            failure=OutputFailure("invalid_json", f"the JSON is not valid: {decode_error}")
        )
    errors: list[ValidationError] = []
    for candidate in candidates:
        try:
            return ParseOutcome(value=schema.model_validate(candidate))
        except ValidationError as error:
            errors.append(error)
    if truncated:
        # A complete inner object of a reply cut off mid-way is a fragment, not the answer: the
        # problem to report is the cut, not the fragment's shape.
        return ParseOutcome(failure=_CUT_OFF)
    return ParseOutcome(
        failure=OutputFailure("schema_mismatch", describe_validation_error(errors[0]))
    )


def _json_candidates(text: str) -> tuple[list[Any], str | None]:
    """Decoded JSON values found in ``text``: the whole text, else objects starting at ``{``
    (inside fences or prose), in order. Also returns the first error of an object that failed
    to decode (None when the text has no ``{`` at all: no JSON was attempted)."""
    decoder = json.JSONDecoder()
    try:
        return [json.loads(_strip_fence(text))], None
    except ValueError:
        pass  # not JSON as a whole: look for objects inside
    first_error: str | None = None
    values: list[Any] = []
    start = text.find("{")
    tried = 0
    while start != -1 and tried < _MAX_CANDIDATES:
        tried += 1
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError as error:
            first_error = first_error or str(error)
            start = text.find("{", start + 1)
            continue
        values.append(value)
        start = text.find("{", end)
    return values, first_error


def _strip_fence(text: str) -> str:
    """``text`` without a surrounding Markdown code fence (```json ... ```)."""
    if text.startswith("```"):
        body = text.split("\n", 1)[1] if "\n" in text else ""
        if body.rstrip().endswith("```"):
            body = body.rstrip()[:-3]
        return body
    return text


def describe_validation_error(error: ValidationError) -> str:
    """A compact, model-readable list of what is wrong (field path: problem)."""
    lines = []
    for item in error.errors()[:_MAX_ERRORS_SHOWN]:
        location = ".".join(str(part) for part in item["loc"]) or "(the whole object)"
        lines.append(f"{location}: {item['msg']}")
    more = len(error.errors()) - _MAX_ERRORS_SHOWN
    if more > 0:
        lines.append(f"... and {more} more problems")
    return "the JSON does not match the schema: " + "; ".join(lines)
