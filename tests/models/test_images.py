"""The coordinate contract through image downscaling."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pcagent.models.images import ImageLimits, ImageScaling, fit_image
from pcagent.models.messages import ImagePart

sizes = st.integers(1, 4000)


@st.composite
def scalings(draw: st.DrawFn) -> ImageScaling:
    width, height = draw(sizes), draw(sizes)
    return ImageScaling(width, height, draw(st.integers(1, width)), draw(st.integers(1, height)))


@settings(max_examples=500, deadline=None)
@given(scalings(), st.data())
def test_model_point_round_trips_exactly(scaling: ImageScaling, data: st.DataObject) -> None:
    x = data.draw(st.integers(0, scaling.model_width - 1))
    y = data.draw(st.integers(0, scaling.model_height - 1))
    screen = scaling.to_screen(x, y)
    assert 0 <= screen[0] < scaling.screen_width and 0 <= screen[1] < scaling.screen_height
    assert scaling.to_model(*screen) == (x, y)


@settings(max_examples=500, deadline=None)
@given(scalings(), st.data())
def test_screen_point_comes_back_within_one_model_pixel(
    scaling: ImageScaling, data: st.DataObject
) -> None:
    x = data.draw(st.integers(0, scaling.screen_width - 1))
    y = data.draw(st.integers(0, scaling.screen_height - 1))
    back = scaling.to_screen(*scaling.to_model(x, y))
    assert abs(back[0] - x) <= scaling.screen_width / scaling.model_width / 2 + 0.5
    assert abs(back[1] - y) <= scaling.screen_height / scaling.model_height / 2 + 0.5


@settings(max_examples=300, deadline=None)
@given(sizes, sizes, st.integers(16, 3000), st.integers(256, 4_000_000))
def test_fit_respects_limits_and_never_enlarges(
    width: int, height: int, max_side: int, max_pixels: int
) -> None:
    scaling = ImageScaling.fit(width, height, ImageLimits(max_side, max_pixels))
    assert scaling.model_width <= width and scaling.model_height <= height
    if width <= max_side and height <= max_side and width * height <= max_pixels:
        assert scaling.is_identity
    else:
        assert max(scaling.model_width, scaling.model_height) <= max(max_side, 1)
        assert scaling.model_width * scaling.model_height <= max(max_pixels, 1)


def test_points_outside_are_refused() -> None:
    scaling = ImageScaling(1280, 800, 640, 400)
    with pytest.raises(ValueError, match="outside"):
        scaling.to_screen(640, 0)
    with pytest.raises(ValueError, match="outside"):
        scaling.to_model(-1, 0)


def test_halving_maps_to_the_pixel_pair() -> None:
    scaling = ImageScaling(1280, 800, 640, 400)
    assert scaling.to_screen(0, 0) == (1, 1)
    assert scaling.to_screen(639, 399) == (1279, 799)
    assert scaling.to_model(1278, 798) == (639, 399)


def test_fit_image_resizes_real_pixels() -> None:
    image = Image.new("RGB", (2560, 1600), "white")
    image.paste((255, 0, 0), (2000, 1000, 2100, 1100))  # a red square
    part = ImagePart.from_image(image, alt_text="elements")
    fitted, scaling = fit_image(part, ImageLimits(max_side=1280, max_pixels=2_000_000))
    assert (scaling.model_width, scaling.model_height) == (1280, 800)
    small = Image.open(io.BytesIO(fitted.data))
    assert small.size == (1280, 800) and fitted.alt_text == "elements"
    assert small.getpixel((1025, 525))[:3] == (255, 0, 0)
    screen = scaling.to_screen(1025, 525)
    assert 2000 <= screen[0] < 2100 and 1000 <= screen[1] < 1100


def test_fit_image_passes_small_images_through() -> None:
    part = ImagePart.from_image(Image.new("RGB", (100, 50)))
    fitted, scaling = fit_image(part, ImageLimits())
    assert fitted is part and scaling.is_identity
