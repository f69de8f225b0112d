"""Pointer actions: the clicks, the scroll and the drag, which aim at screen pixels.

They share :class:`PointerAction`, which knows where each action's coordinates are, so listing
the points an action touches and mapping them from a downscaled image back to the screen are
written once; :class:`PointAction` adds the one (x, y) pair the clicks and the scroll aim at.
The two actions a model aims by name rather than by pixel (:class:`ClickElement`,
:class:`SelectText`) live here too: the perception layer turns them into pointer input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, Self

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from pcagent.action_base import ActionBase, ActionSite, Int


class PointerAction(ActionBase):
    """An action whose screen points are pairs of its integer fields.

    ``point_fields`` names each pair as ``(x field, y field)``, in the order the pointer visits
    them; a pair left as None (an optional point that was not given) is no point at all.
    """

    point_fields: ClassVar[tuple[tuple[str, str], ...]] = (("x", "y"),)

    def points(self) -> list[tuple[int, int]]:
        found = []
        for x_field, y_field in self.point_fields:
            x, y = getattr(self, x_field), getattr(self, y_field)
            if x is not None and y is not None:
                found.append((x, y))
        return found

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        moved: dict[str, int] = {}
        for x_field, y_field in self.point_fields:
            x, y = getattr(self, x_field), getattr(self, y_field)
            if x is not None and y is not None:
                moved[x_field], moved[y_field] = transform(x, y)
        if not moved:
            return self
        return type(self)(**{**dict(self), **moved})


class PointAction(PointerAction):
    """A pointer action aimed at one screen pixel (x, y).

    ``kind`` is declared here (and narrowed by each subclass) only so that it stays the first
    field, ahead of x and y, in every schema and signature a model sees.
    """

    kind: str
    x: Int = Field(ge=0, description="Screen pixel column, 0 at the left edge.")
    y: Int = Field(ge=0, description="Screen pixel row, 0 at the top edge.")


class ClickElement(ActionBase):
    """Left-click the centre of the listed element with this label (copy the label exactly)."""

    # Turned into a click at the element's centre by the Decision agent, from the marks it was
    # shown; the guard, the desktop and the record only ever see that click.
    runs_on: ClassVar[ActionSite] = "perception"
    kind: Literal["click_element"] = "click_element"
    label: str = Field(
        min_length=1,
        max_length=200,
        description='The element\'s label as listed, e.g. "Save"; a label listed twice is '
        'followed by # and the mark\'s number, e.g. "Close #7".',
    )


class Click(PointAction):
    """Left-click at screen pixel (x, y)."""

    kind: Literal["click"] = "click"


class DoubleClick(PointAction):
    """Double-click with the left button at screen pixel (x, y)."""

    kind: Literal["double_click"] = "double_click"


class RightClick(PointAction):
    """Right-click at screen pixel (x, y), e.g. to open a context menu."""

    kind: Literal["right_click"] = "right_click"


class SelectText(ActionBase):
    """Select the on-screen text span described by target (located by OCR, then dragged over)."""

    # Executed by the perception layer, which turns it into a drag; the desktop never sees it.
    runs_on: ClassVar[ActionSite] = "perception"
    kind: Literal["select_text"] = "select_text"
    target: str = Field(
        min_length=1, description='The text span to select, e.g. "the second paragraph".'
    )


class Drag(PointerAction):
    """Press the left button at (start_x, start_y), move to (end_x, end_y) and release."""

    point_fields: ClassVar[tuple[tuple[str, str], ...]] = (
        ("start_x", "start_y"),
        ("end_x", "end_y"),
    )
    kind: Literal["drag"] = "drag"
    start_x: Int = Field(ge=0, description="Screen pixel column where the drag starts.")
    start_y: Int = Field(ge=0, description="Screen pixel row where the drag starts.")
    end_x: Int = Field(ge=0, description="Screen pixel column where the drag ends.")
    end_y: Int = Field(ge=0, description="Screen pixel row where the drag ends.")

    @model_validator(mode="after")
    def _moves(self) -> Drag:
        if (self.start_x, self.start_y) == (self.end_x, self.end_y):
            raise PydanticCustomError(
                "drag_without_motion",
                "a drag must end somewhere else than it starts; to press at one point, click",
            )
        return self


class Scroll(PointAction):
    """Turn the mouse wheel by amount clicks in direction, with the pointer at (x, y)."""

    kind: Literal["scroll"] = "scroll"
    x: Int = Field(ge=0, description="Screen pixel column of the pointer while scrolling.")
    y: Int = Field(ge=0, description="Screen pixel row of the pointer while scrolling.")
    direction: Literal["up", "down", "left", "right"] = Field(
        description="Which way the content moves into view."
    )
    amount: Int = Field(3, ge=1, le=50, description="Number of wheel clicks, 1 to 50.")
