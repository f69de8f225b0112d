"""The one parser: JSON found in prose or fences, typed failures for everything else."""

from __future__ import annotations

from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from pcagent.models.parsing import parse_reply


class Point(BaseModel):
    kind: Literal["click"]
    x: int
    y: int


def test_plain_json() -> None:
    outcome = parse_reply('{"kind": "click", "x": 3, "y": 4}', Point)
    assert outcome.value == Point(kind="click", x=3, y=4)
    assert outcome.failure is None


def test_code_fence() -> None:
    outcome = parse_reply('```json\n{"kind": "click", "x": 3, "y": 4}\n```', Point)
    assert outcome.value == Point(kind="click", x=3, y=4)


def test_prose_around_json() -> None:
    text = 'Sure! I will click the button.\n{"kind": "click", "x": 1, "y": 2}\nHope it helps {.'
    assert parse_reply(text, Point).value == Point(kind="click", x=1, y=2)


def test_first_valid_candidate_wins() -> None:
    text = 'Example: {"kind": "scroll"} but really {"kind": "click", "x": 5, "y": 6}'
    assert parse_reply(text, Point).value == Point(kind="click", x=5, y=6)


def test_wrong_types_name_the_field() -> None:
    outcome = parse_reply('{"kind": "click", "x": "left", "y": 4}', Point)
    assert outcome.value is None and outcome.failure is not None
    assert outcome.failure.kind == "schema_mismatch"
    assert "x:" in outcome.failure.message


def test_malformed_json() -> None:
    outcome = parse_reply('{"kind": "click", "x": 1,, "y": 2}', Point)
    assert outcome.failure is not None and outcome.failure.kind == "invalid_json"


def test_truncated_output() -> None:
    outcome = parse_reply('{"kind": "click", "x": 1, "y"', Point, truncated=True)
    assert outcome.failure is not None and outcome.failure.kind == "truncated"
    assert "shorter" in outcome.failure.message


def test_empty_and_no_json() -> None:
    assert parse_reply("   ", Point).failure.kind == "empty"  # type: ignore[union-attr]
    assert parse_reply("I cannot do that.", Point).failure.kind == "no_json"  # type: ignore[union-attr]


def test_deep_nesting_is_a_failure_not_a_crash() -> None:
    outcome = parse_reply("[" * 100_000 + "]" * 100_000, Point)
    assert outcome.value is None and outcome.failure is not None


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.booleans())
def test_no_text_crashes_the_parser(text: str, truncated: bool) -> None:
    outcome = parse_reply(text, Point, truncated=truncated)
    assert (outcome.value is None) != (outcome.failure is None)


@settings(max_examples=300, deadline=None)
@given(json_like, st.text(max_size=40), st.text(max_size=40), st.integers(0, 30))
def test_no_json_shaped_reply_crashes_the_parser(
    value: object, before: str, after: str, cut: int
) -> None:
    import json

    body = json.dumps(value)
    for text in (body, before + body + after, body[: max(0, len(body) - cut)]):
        outcome = parse_reply(text, Point, truncated=cut > 0)
        assert (outcome.value is None) != (outcome.failure is None)
        if outcome.value is not None:
            assert isinstance(outcome.value, Point)
