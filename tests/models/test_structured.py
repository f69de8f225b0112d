"""Validation re-asks, transport retries, images and accounting — with a scripted backend."""

from __future__ import annotations

from typing import Literal

import pytest
from PIL import Image
from pydantic import BaseModel

from pcagent.errors import (
    ModelAuthenticationError,
    ModelTransientError,
    ModelUnavailableError,
    ScriptExhaustedError,
    StructuredOutputError,
)
from pcagent.models import (
    BackendInfo,
    Completion,
    ImageLimits,
    ImagePart,
    Message,
    RetryPolicy,
    StructuredChatModel,
    UsageLedger,
)
from pcagent.models.backends.scripted import ScriptedBackend


class Click(BaseModel):
    kind: Literal["click"]
    x: int
    y: int


GOOD = '{"kind": "click", "x": 10, "y": 20}'
NO_SLEEP = RetryPolicy(retries=3, backoff_s=0.5, sleep=lambda _: None)


def model_with(*responses: object, retries: int = 4, **kwargs: object) -> StructuredChatModel:
    backend = ScriptedBackend(responses)  # type: ignore[arg-type]
    return StructuredChatModel(
        backend,
        validation_retries=retries,
        retry_policy=NO_SLEEP,
        **kwargs,  # type: ignore[arg-type]
    )


def ask(model: StructuredChatModel, **kwargs: object):  # type: ignore[no-untyped-def]
    return model.ask([Message.system("Act."), Message.user("Click the button.")], Click, **kwargs)  # type: ignore[arg-type]


def test_malformed_wrong_types_prose_and_truncated_then_valid() -> None:
    model = model_with(
        '{"kind": "click", "x": 1,,}',
        '{"kind": "click", "x": "ten", "y": 20}',
        "I think you should click.",
        Completion(text='{"kind": "click", "x": 1', truncated=True),
        "Here you go:\n" + GOOD + "\nThanks!",
    )
    result = ask(model)
    assert result.ok and result.value == Click(kind="click", x=10, y=20)
    kinds = [attempt.failure.kind if attempt.failure else None for attempt in result.attempts]
    assert kinds == ["invalid_json", "schema_mismatch", "no_json", "truncated", None]
    backend = model.backend
    assert isinstance(backend, ScriptedBackend)
    # every re-ask carries the previous reply and the exact error back to the model
    second = backend.requests[1].messages
    assert second[-2].role == "assistant" and second[-2].text == '{"kind": "click", "x": 1,,}'
    assert "not valid" in second[-1].text
    third = backend.requests[2].messages
    assert "x: Input should be a valid integer" in third[-1].text
    assert "shorter" in backend.requests[4].messages[-1].text


def test_gives_a_typed_failure_when_retries_are_spent() -> None:
    model = model_with("nope", "still nope", "no", retries=2)
    result = ask(model)
    assert not result.ok and result.value is None
    assert result.failure is not None and result.failure.kind == "no_json"
    assert len(result.attempts) == 3 and result.raw_text == "no"
    with pytest.raises(StructuredOutputError, match="3 attempt"):
        result.unwrap()


def test_schema_is_in_the_system_prompt_and_requested_constrained() -> None:
    model = model_with(GOOD)
    ask(model, role="decision")
    request = model.backend.requests[0]  # type: ignore[attr-defined]
    assert request.messages[0].role == "system"
    assert '"x":{"title":"X","type":"integer"}' in request.messages[0].text
    assert request.schema == Click.model_json_schema() and request.schema_name == "Click"
    assert request.constrained and request.cache_key == "decision"


def test_transient_errors_are_retried_with_backoff() -> None:
    waits: list[float] = []
    backend = ScriptedBackend(
        [ModelTransientError("timeout"), ModelTransientError("HTTP 503"), GOOD]
    )
    policy = RetryPolicy(retries=3, backoff_s=0.5, sleep=waits.append)
    result = StructuredChatModel(backend, retry_policy=policy).ask([Message.user("go")], Click)
    assert result.ok and waits == [0.5, 1.0]


def test_transient_errors_beyond_the_retries_raise_unavailable() -> None:
    backend = ScriptedBackend([ModelTransientError("cannot reach http://x; is it running?")] * 4)
    model = StructuredChatModel(backend, retry_policy=NO_SLEEP)
    with pytest.raises(ModelUnavailableError, match=r"is it running.*after 4 attempts"):
        model.ask([Message.user("go")], Click)


def test_non_transient_errors_are_not_retried() -> None:
    backend = ScriptedBackend([ModelAuthenticationError("bad key"), GOOD])
    with pytest.raises(ModelAuthenticationError):
        StructuredChatModel(backend, retry_policy=NO_SLEEP).ask([Message.user("go")], Click)
    assert backend.remaining == 1


def test_script_exhaustion_is_loud() -> None:
    with pytest.raises(ScriptExhaustedError):
        ask(model_with())


def test_usage_is_summed_per_call_role_and_step() -> None:
    ledger = UsageLedger()
    backend = ScriptedBackend(
        [
            Completion(text="bad", prompt_tokens=100, completion_tokens=5),
            Completion(text=GOOD, prompt_tokens=120, completion_tokens=9, cached_prompt_tokens=90),
            Completion(text=GOOD, prompt_tokens=50, completion_tokens=7),
        ],
        info=BackendInfo(name="priced", prompt_cost_per_mtok=1.0, completion_cost_per_mtok=4.0),
    )
    model = StructuredChatModel(backend, ledger=ledger, retry_policy=NO_SLEEP)
    first = model.ask([Message.user("a")], Click, role="decision", step=1)
    model.ask([Message.user("b")], Click, role="manager", step=2)
    assert first.usage.prompt_tokens == 220 and first.usage.completion_tokens == 14
    assert first.usage.calls == 2 and first.usage.cached_prompt_tokens == 90
    assert first.usage.cost_usd == pytest.approx((220 * 1 + 14 * 4) / 1e6)
    assert ledger.total.prompt_tokens == 270 and ledger.total.calls == 3
    assert ledger.by_role()["decision"].total_tokens == 234
    assert ledger.by_role()["manager"].total_tokens == 57
    assert set(ledger.by_step()) == {1, 2}
    assert ledger.to_dict()["total"]["total_tokens"] == 291  # type: ignore[index]


def screenshot_part() -> ImagePart:
    return ImagePart.from_image(Image.new("RGB", (2560, 1600), "gray"), alt_text="[1] button OK")


def test_vision_model_gets_a_fitted_image_and_the_scaling() -> None:
    backend = ScriptedBackend(
        [GOOD], info=BackendInfo(name="v", vision=True, image_limits=ImageLimits(1280, 10**7))
    )
    result = StructuredChatModel(backend).ask([Message.user("Click OK", screenshot_part())], Click)
    (image,) = backend.requests[0].messages[-1].images
    assert image.open().size == (1280, 800)
    (scaling,) = result.image_scalings
    assert scaling is not None and scaling.to_screen(10, 20) == (21, 41)


def test_text_only_model_gets_the_alternative_text() -> None:
    backend = ScriptedBackend([GOOD], info=BackendInfo(name="t", vision=False))
    result = StructuredChatModel(backend).ask([Message.user("Click OK", screenshot_part())], Click)
    sent = backend.requests[0].messages[-1]
    assert not sent.images and "[1] button OK" in sent.text
    assert result.image_scalings == (None,)


def test_described_replies_show_the_schema_without_prose_but_constrain_with_all_of_it() -> None:
    model = model_with(GOOD, GOOD)
    ask(model)
    ask(model, described=True)
    backend = model.backend
    assert isinstance(backend, ScriptedBackend)
    full, bare = (request.messages[0].text for request in backend.requests)
    assert '"title"' in full and '"title"' not in bare
    assert len(bare) < len(full)
    assert backend.requests[1].schema == Click.model_json_schema()  # decoding gets everything
    assert '"x"' in bare and '"required"' in bare


def test_a_backend_that_enforces_the_schema_is_not_shown_it_for_described_replies() -> None:
    backend = ScriptedBackend([GOOD, GOOD], info=BackendInfo(name="local", enforces_schema=True))
    model = StructuredChatModel(backend, retry_policy=NO_SLEEP)
    assert ask(model, described=True).value == Click(kind="click", x=10, y=20)
    ask(model)  # not described: the schema is shown as always
    short, full = (request.messages[0].text for request in backend.requests)
    assert "JSON schema" not in short and '"kind", "x", "y"' in short
    assert "JSON schema" in full
    assert (
        backend.requests[0].schema == Click.model_json_schema() and backend.requests[0].constrained
    )
    # without constrained decoding, the schema is the only guide: it is shown
    loose = ScriptedBackend([GOOD], info=BackendInfo(name="local", enforces_schema=True))
    ask(StructuredChatModel(loose, retry_policy=NO_SLEEP, constrained=False), described=True)
    assert "JSON schema" in loose.requests[0].messages[0].text


def test_bare_schema_keeps_fields_named_like_prose_keys() -> None:
    from pydantic import BaseModel, Field

    from pcagent.models.structured import bare_schema

    class Note(BaseModel):
        title: str = Field(description="The note's title.")
        description: str = Field(title="Body")

    bare = bare_schema(Note.model_json_schema())
    assert set(bare["properties"]) == {"title", "description"}
    assert bare["properties"]["title"] == {"type": "string"}
    assert "title" not in bare and bare["required"] == ["title", "description"]
