"""What an observation gives the skills that check typed text: every element's name and text
in full, where the listing for models and logs shortens each text."""

from __future__ import annotations

from PIL import Image

from pcagent.env.observation import Box, Element, Observation

LINE = "Weekend plan: we go to the park for a picnic, and to the museum if it rains."


def test_the_texts_hold_a_long_line_whole_where_the_listing_shortens_it() -> None:
    box = Box(x=0, y=0, width=400, height=200)
    elements = [
        Element(id=0, role="text", name="", text=f"{LINE}\nsecond line", box=box),
        Element(id=1, role="push button", name="Save", box=box),
    ]
    observation = Observation(Image.new("RGB", (400, 300)), elements, [], None, 0.0)
    assert LINE not in observation.element_listing()
    assert observation.element_texts().splitlines() == [LINE, "second line", "Save"]
