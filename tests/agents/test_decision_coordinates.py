"""The Decision agent's coordinate contract: actions carry screen pixels, whatever image the model saw.

A vision model on a screen larger than its image limit sees a shrunk screenshot and answers in
that image's pixels; the agent maps the answer back to the screen. The scripted "vision model"
here finds a red mark in the image it actually received and clicks its centre, so the test fails
if the agent passes image pixels through as screen pixels.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from tests.agents.scripted import decision

from pcagent import actions as act
from pcagent.agents import DecisionAgent, DecisionInput
from pcagent.agents.decision import listing_in_image_pixels
from pcagent.agents.roles import generalist
from pcagent.env.apps import app_infos
from pcagent.models import ImageLimits
from pcagent.models.backend import BackendInfo, ChatRequest
from pcagent.models.backends.scripted import Scripted, ScriptedBackend
from pcagent.models.images import ImageScaling
from pcagent.models.messages import ImagePart
from pcagent.models.structured import StructuredChatModel

SCREEN = (2560, 1600)
#: Half the screen's side: the model sees a 1280x800 image.
LIMITS = ImageLimits(max_side=1280, max_pixels=1280 * 800)
#: The mark's box on the screen: left, top, width, height. Small, so an unmapped point misses it.
MARK = (1501, 903, 24, 16)
MARK_CENTRE = (MARK[0] + MARK[2] // 2, MARK[1] + MARK[3] // 2)
LISTING = f'1 button "OK" @{MARK_CENTRE[0]},{MARK_CENTRE[1]}'


def screenshot() -> ImagePart:
    """A white screen with one red mark at :data:`MARK`."""
    image = Image.new("RGB", SCREEN, "white")
    left, top, width, height = MARK
    ImageDraw.Draw(image).rectangle((left, top, left + width - 1, top + height - 1), fill="red")
    return ImagePart.from_image(image, alt_text=LISTING)


def in_mark(point: tuple[int, int]) -> bool:
    left, top, width, height = MARK
    return left <= point[0] < left + width and top <= point[1] < top + height


def received_image(request: ChatRequest) -> Image.Image:
    (image,) = [image for message in request.messages for image in message.images]
    return image.open().convert("RGB")


def red_centre(request: ChatRequest) -> tuple[int, int]:
    """Centre of the red mark in the image the model received, in that image's pixels."""
    pixels = np.asarray(received_image(request)).astype(int)
    red = (pixels[..., 0] > 200) & (pixels[..., 1] < 100) & (pixels[..., 2] < 100)
    rows, columns = np.nonzero(red)
    assert len(rows), "the mark did not survive downscaling"
    return (int(columns.min() + columns.max()) // 2, int(rows.min() + rows.max()) // 2)


def clicking_the_mark(kind: str = "click") -> Scripted:
    """A vision model's answer: ``kind`` at the mark's centre as it appears in its image."""

    def respond(request: ChatRequest) -> str:
        x, y = red_centre(request)
        return decision({"kind": kind, "x": x, "y": y})

    return respond


def agent(*responses: Scripted, vision: bool = True) -> tuple[DecisionAgent, ScriptedBackend]:
    backend = ScriptedBackend(
        responses, info=BackendInfo(name="scripted", vision=vision, image_limits=LIMITS)
    )
    model = StructuredChatModel(backend, validation_retries=1)
    role = generalist(info.name for info in app_infos())
    return DecisionAgent(model, role=role), backend


def step(image: ImagePart | None = None) -> DecisionInput:
    return DecisionInput(subtask="press OK", listing=LISTING, screen=SCREEN, image=image)


def test_a_vision_models_click_in_the_shrunk_image_lands_on_the_screen_mark() -> None:
    decider, backend = agent(clicking_the_mark())
    result = decider.decide(step(screenshot()))
    (request,) = backend.requests
    assert received_image(request).size == (1280, 800)  # the model really saw a shrunk image
    assert isinstance(result.action, act.Click)
    assert result.failure is None
    assert in_mark(result.action.points()[0]), result.action


def test_every_pointing_action_is_mapped_back() -> None:
    def answer(request: ChatRequest) -> str:
        x, y = red_centre(request)
        return decision({"kind": "drag", "start_x": x, "start_y": y, "end_x": 0, "end_y": 0})

    decider, _ = agent(answer, clicking_the_mark("double_click"))
    dragged = decider.decide(step(screenshot())).action
    assert isinstance(dragged, act.Drag)
    start, end = dragged.points()
    assert in_mark(start) and end == (1, 1)  # model pixel (0, 0) covers screen pixels 0..1
    clicked = decider.decide(step(screenshot())).action
    assert isinstance(clicked, act.DoubleClick) and in_mark(clicked.points()[0])


def test_the_prompt_speaks_the_images_pixels() -> None:
    decider, backend = agent(clicking_the_mark())
    decider.decide(step(screenshot()))
    system, user = backend.requests[0].messages
    assert "screen 1280x800 pixels" in system.text
    (listed,) = re.findall(r"@(\d+),(\d+)", user.text)
    # The listing's point is the mark's centre in the image the model sees, not on the screen.
    expected = ImageScaling(*SCREEN, 1280, 800).to_model(*MARK_CENTRE)
    assert tuple(int(value) for value in listed) == expected


def test_a_point_outside_the_image_is_re_asked_with_the_images_size() -> None:
    outside = decision({"kind": "click", "x": MARK_CENTRE[0], "y": MARK_CENTRE[1]})
    decider, backend = agent(outside, clicking_the_mark())
    result = decider.decide(step(screenshot()))
    assert "1280x800" in backend.requests[1].messages[-1].text  # the re-ask names the size
    assert isinstance(result.action, act.Click) and in_mark(result.action.points()[0])


def test_a_point_outside_the_image_that_is_never_corrected_is_a_typed_failure() -> None:
    outside = decision({"kind": "type", "text": "hi", "x": 1300, "y": 10})
    decider, _ = agent(outside, outside)
    result = decider.decide(step(screenshot()))
    assert result.action is None and result.failure is not None
    assert result.failure.kind == "schema_mismatch"
    assert "(1300, 10) is outside the 1280x800 image" in result.failure.message


def test_a_text_only_models_screen_pixels_pass_unchanged() -> None:
    answer = decision({"kind": "click", "x": MARK_CENTRE[0], "y": MARK_CENTRE[1]})
    decider, backend = agent(answer, vision=False)
    result = decider.decide(step(screenshot()))
    assert result.action == act.Click(x=MARK_CENTRE[0], y=MARK_CENTRE[1])
    system, user = backend.requests[0].messages
    assert not user.images and "screen 2560x1600 pixels" in system.text
    assert LISTING in user.text


def test_a_vision_model_whose_image_fits_answers_in_screen_pixels() -> None:
    answer: dict[str, Any] = {"kind": "scroll", "x": 1000, "y": 700, "direction": "down"}
    decider, backend = agent(decision(answer))
    small = ImagePart.from_image(Image.new("RGB", (1280, 800), "white"))
    result = decider.decide(
        DecisionInput(subtask="scroll", listing="", screen=(1280, 800), image=small)
    )
    assert result.action == act.Scroll(x=1000, y=700, direction="down")
    assert received_image(backend.requests[0]).size == (1280, 800)


def test_typing_without_a_point_is_left_alone() -> None:
    decider, _ = agent(json.dumps({"reasoning": "r", "action": {"kind": "type", "text": "hi"}}))
    result = decider.decide(step(screenshot()))
    assert result.action == act.TypeText(text="hi")


def test_listings_are_converted_to_image_pixels() -> None:
    scaling = ImageScaling(*SCREEN, 1280, 800)
    compact = 'marks: number role "label" @x,y\n7 button "@4,4" @1513,911\n8 item "x" @2559,1599'
    assert listing_in_image_pixels(compact, scaling).splitlines()[1:] == [
        '7 button "@4,4" @756,455',
        '8 item "x" @1279,799',
    ]
    baseline = "push button\tOK\t\tapp\t\t(1501, 903)\t(24, 16)"
    assert listing_in_image_pixels(baseline, scaling).endswith("(750, 451)\t(12, 8)")


def test_a_text_only_models_off_screen_point_is_re_asked_at_once() -> None:
    # x = the screen's width is one pixel past its last column: never executed, re-asked.
    off_screen = decision({"kind": "click", "x": SCREEN[0], "y": 10})
    on_screen = decision({"kind": "click", "x": SCREEN[0] - 1, "y": 10})
    decider, backend = agent(off_screen, on_screen, vision=False)
    result = decider.decide(step())
    assert f"outside the {SCREEN[0]}x{SCREEN[1]} screen" in backend.requests[1].messages[-1].text
    assert result.action == act.Click(x=SCREEN[0] - 1, y=10)


def test_the_schema_the_model_gets_bounds_every_coordinate_by_the_screen() -> None:
    answer = decision({"kind": "click", "x": 1, "y": 1})
    decider, backend = agent(answer, vision=False)
    decider.decide(step())
    schema = backend.requests[0].schema
    assert schema is not None
    maxima = {
        (kind, name): option.get("maximum")
        for kind, definition in schema["$defs"].items()
        for name, field in definition.get("properties", {}).items()
        if name in ("x", "y", "start_x", "end_y")
        for option in field.get("anyOf", [field])
        if option.get("type") == "integer"
    }
    assert maxima[("Click", "x")] == SCREEN[0] - 1 and maxima[("Click", "y")] == SCREEN[1] - 1
    assert (
        maxima[("Drag", "start_x")] == SCREEN[0] - 1 and maxima[("TypeText", "y")] == SCREEN[1] - 1
    )
