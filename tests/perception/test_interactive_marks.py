"""Filtering, clipping, merging and numbering on trees recorded from real screens."""

from __future__ import annotations

import pytest

from pcagent.env.observation import Box, Element, Observation, WindowInfo
from pcagent.perception import interactive_marks
from pcagent.perception.interactive import reading_order

from .recorded import DATA, load_recorded

FORMATTING = ["Bold", "Italic", "Underline", "Left", "Center", "Right", "Justified"]


def labels(marks, role=None):  # type: ignore[no-untyped-def]
    return [m.label for m in marks if role is None or m.role == role]


def test_marks_are_numbered_one_to_n(writer_screen: Observation) -> None:
    marks = interactive_marks(writer_screen)
    assert [m.number for m in marks] == list(range(1, len(marks) + 1))
    assert 50 < len(marks) < len(writer_screen.elements)


def test_the_duplicate_hidden_menubar_is_merged_away(writer_screen: Observation) -> None:
    raw_files = [e for e in writer_screen.elements if e.role == "menu" and e.name == "File"]
    assert len(raw_files) == 2  # what LibreOffice reports
    marks = interactive_marks(writer_screen)
    files = [m for m in marks if m.role == "menu" and m.label == "File"]
    assert len(files) == 1
    assert files[0].box.height == 25  # the real, visible menubar's item was kept


def test_formatting_controls_are_listed_with_their_toolbar_boxes(
    writer_screen: Observation,
) -> None:
    marks = interactive_marks(writer_screen)
    by_label = {m.label: m for m in marks if m.role in ("toggle button", "push button")}
    for name in FORMATTING:
        assert name in by_label, name
    bold, italic = by_label["Bold"], by_label["Italic"]
    assert bold.box.y == italic.box.y and bold.box.right <= italic.box.x
    assert "checked" in by_label["Left"].states and "checked" not in bold.states


def test_disabled_controls_say_so(writer_screen: Observation) -> None:
    by_label = {m.label: m for m in interactive_marks(writer_screen) if m.role == "push button"}
    assert "disabled" in by_label["Undo"].states
    assert "disabled" not in by_label["Save"].states


def test_reading_order_is_rows_top_down_then_left_to_right(writer_screen: Observation) -> None:
    marks = interactive_marks(writer_screen)
    numbers = {m.label: m.number for m in marks}
    assert numbers["File"] < numbers["Edit"] < numbers["Help"] < numbers["New"] < numbers["Bold"]
    paragraphs = [m for m in marks if m.role == "paragraph"]
    assert paragraphs[0].label == "Quarterly Travel Plan"
    assert [m.number for m in paragraphs] == sorted(m.number for m in paragraphs)


def test_unlabelled_readables_are_dropped_but_unlabelled_controls_kept(
    writer_screen: Observation,
) -> None:
    marks = interactive_marks(writer_screen)
    assert all(m.label for m in marks if m.role == "label")
    assert any(not m.label for m in marks if m.role == "toggle button")  # sidebar icons


def test_a_window_stacked_above_hides_what_it_covers(writer_screen: Observation) -> None:
    paragraphs_before = labels(interactive_marks(writer_screen), "paragraph")
    dialog = WindowInfo(window_id=1, title="Dialog", box=Box(x=150, y=300, width=900, height=300))
    covered = Observation(
        screenshot=writer_screen.screenshot,
        elements=writer_screen.elements,
        windows=[*writer_screen.windows, dialog],
        focused_window=writer_screen.focused_window,
        timestamp=0.0,
    )
    paragraphs_after = labels(interactive_marks(covered), "paragraph")
    assert paragraphs_after == ["Quarterly Travel Plan"]
    assert len(paragraphs_before) == 6


def test_boxes_are_clipped_to_the_screen_and_window() -> None:
    window = WindowInfo(window_id=1, title="W", box=Box(x=0, y=0, width=200, height=100))
    elements = [
        Element(id=0, role="push button", name="Half", box=Box(x=180, y=10, width=40, height=20),
                window="W"),
        Element(id=1, role="push button", name="Gone", box=Box(x=300, y=10, width=40, height=20),
                window="W"),
    ]  # fmt: skip
    from PIL import Image

    observation = Observation(Image.new("RGB", (400, 300)), elements, [window], window, 0.0)
    marks = interactive_marks(observation)
    assert labels(marks) == ["Half"]
    assert marks[0].box == Box(x=180, y=10, width=20, height=20)


def test_a_label_inside_its_button_is_merged_into_the_button() -> None:
    from PIL import Image

    elements = [
        Element(id=0, role="push button", name="", box=Box(x=10, y=10, width=80, height=30)),
        Element(id=1, role="label", name="Search", box=Box(x=20, y=15, width=50, height=20)),
        Element(id=2, role="label", name="Other", box=Box(x=10, y=60, width=50, height=20)),
    ]
    observation = Observation(Image.new("RGB", (200, 100)), elements, [], None, 0.0)
    marks = interactive_marks(observation)
    assert [(m.role, m.label) for m in marks] == [("push button", "Search"), ("label", "Other")]


def test_reading_order_groups_rows_by_vertical_centre() -> None:
    boxes = [
        Box(x=100, y=12, width=10, height=10),  # same row as the next, though 2 px lower
        Box(x=10, y=10, width=10, height=10),
        Box(x=5, y=40, width=10, height=10),
    ]
    assert reading_order(boxes) == [1, 0, 2]


@pytest.mark.parametrize("stem", sorted(p.stem for p in DATA.glob("*.json")), ids=lambda stem: stem)
def test_every_recorded_screen_gives_marks_on_screen(stem: str) -> None:
    observation = load_recorded(stem)
    marks = interactive_marks(observation)
    assert marks, stem
    width, height = observation.screen_size
    for mark in marks:
        assert mark.box.x >= 0 and mark.box.right <= width
        assert mark.box.y >= 0 and mark.box.bottom <= height
