"""Every reply grammar is bounded, so a repetition loop ends at a bound instead of the token limit."""

from __future__ import annotations

from pydantic import BaseModel, Field

from pcagent.actions.union import ACTION_TYPES
from pcagent.agents.decision_schema import decision_schema
from pcagent.agents.program_grammar import program_schema
from pcagent.models import Message, StructuredChatModel
from pcagent.models.backend import BackendInfo, Completion
from pcagent.models.backends.local_llama import LocalLlamaBackend
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.packs import InstalledPack
from pcagent.models.schema_bounds import (
    ITEMS_LIMIT,
    TEXT_LIMIT,
    bounded,
    open_pattern,
    unbounded_parts,
)
from pcagent.skills import default_catalog


def test_open_patterns_are_told_from_closed_ones() -> None:
    assert open_pattern(r"^[0-9+\-*/() ]+$")
    assert open_pattern(r"^a*$") and open_pattern(r"^[a-z]{2,}$")
    assert not open_pattern(r"^[0-9+\-*/() ]{1,200}$")  # + and * inside the class are characters
    assert not open_pattern(r"^s[0-9]{1,2}$")
    assert not open_pattern(r"^a\+b$")


def test_bounded_adds_limits_and_keeps_the_ones_named() -> None:
    schema = {
        "type": "object",
        "properties": {
            "free": {"type": "string"},
            "short": {"type": "string", "maxLength": 9},
            "kind": {"enum": ["a", "b"]},
            "list": {"type": "array", "items": {"type": "string"}},
            "few": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
            "open": {"type": "string", "pattern": "^[a-z]+$"},
        },
    }
    result = bounded(schema)
    properties = result["properties"]
    assert properties["free"]["maxLength"] == TEXT_LIMIT
    assert properties["short"]["maxLength"] == 9
    assert "maxLength" not in properties["kind"]
    assert properties["list"]["maxItems"] == ITEMS_LIMIT
    assert properties["list"]["items"]["maxLength"] == TEXT_LIMIT
    assert properties["few"]["maxItems"] == 3
    assert "maxLength" not in schema["properties"]["free"]  # the schema given is left alone
    # A pattern with an open quantifier cannot be bounded from outside: it is reported.
    assert unbounded_parts(result) == ["/properties/open: pattern ^[a-z]+$"]


def test_the_manager_and_decision_grammars_are_bounded() -> None:
    program = program_schema(
        default_catalog(), ["browser", "calculator", "clock", "text_editor", "writer"]
    )
    actions = decision_schema(tuple(sorted(ACTION_TYPES)), ("browser",), (1280, 800), "screen")
    assert unbounded_parts(program)  # without the added bounds, lists and strings are open
    assert unbounded_parts(bounded(program)) == []
    assert unbounded_parts(bounded(actions.model_json_schema())) == []


class Sum(BaseModel):
    expression: str = Field(pattern=r"^[0-9+ ]{1,30}$")
    note: str = Field(max_length=40)


class Note(BaseModel):
    text: str


def test_the_backend_is_sent_the_bounded_schema_and_a_cut_reply_is_echoed_short() -> None:
    loop = '{"text": "' + "1 + " * 400
    backend = ScriptedBackend([Completion(text=loop, truncated=True), '{"text": "two"}'])
    model = StructuredChatModel(backend, validation_retries=1)
    result = model.ask([Message.user("Add.")], Note)
    assert result.ok
    first, second = (attempt.request for attempt in result.attempts)
    assert first.schema["properties"]["text"]["maxLength"] == TEXT_LIMIT
    assert "maxLength" not in Note.model_json_schema()["properties"]["text"]
    assert result.attempts[0].failure is not None
    assert result.attempts[0].failure.kind == "truncated"
    echoed = second.messages[-2].text
    assert len(echoed) < 400 and echoed.startswith('{"text": "1 + 1 + ')


def test_llama_cpp_stops_a_repetition_at_the_pattern_bound(smollm2: InstalledPack) -> None:
    """The real model, asked for an endless sum, ends each string at its bound (the pattern's,
    the maxLength) and closes the JSON well within the token limit."""
    backend = LocalLlamaBackend(smollm2.path, info=BackendInfo(name="local"), context_tokens=1024)
    model = StructuredChatModel(backend, max_output_tokens=120, validation_retries=0)
    try:
        result = model.ask(
            [Message.user("Write the sum 1 + 1 + 1 + ... with one thousand terms, then a note.")],
            Sum,
        )
    finally:
        backend.close()
    assert result.ok, result.failure
    assert result.value is not None and len(result.value.expression) <= 30
    assert not result.attempts[0].completion.truncated
