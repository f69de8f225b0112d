"""What the perception layer shows a model: numbered marks on the screen.

A :class:`Mark` is one thing a person could act on or needs to read, numbered 1..N in reading
order. The same number is drawn on the Set-of-Mark image and used in the text listing, so a model
can say "mark 7" and the caller knows the exact screen box.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from pcagent.env.observation import Box, Element

#: States worth telling a model about; the rest (showing, visible, sensitive...) are implied.
SHOWN_STATES = ("checked", "pressed", "selected", "expanded", "focused", "disabled")


class Mark(BaseModel):
    """One numbered, visible thing on the screen.

    ``box`` is the visible part of the element in screen pixels (clipped to the screen and to its
    window), so ``box.center`` is always a point that lands on it. ``element_id`` is the id of the
    accessibility element in the observation it came from (None for OCR text), which exact text
    operations need.
    """

    model_config = ConfigDict(frozen=True)

    number: int
    role: str
    label: str = ""
    value: str = ""
    states: tuple[str, ...] = ()
    box: Box
    element_id: int | None = None
    source: Literal["accessibility", "ocr"] = "accessibility"

    @property
    def center(self) -> tuple[int, int]:
        return self.box.center


def element_states(element: Element, app_reports_enabled: bool = True) -> tuple[str, ...]:
    """The states a model should see, in a fixed order, with ``disabled`` for greyed-out controls.

    ``app_reports_enabled`` is False for applications that never set the ``enabled`` state
    (GTK4): their controls are not called disabled just because the state is missing.
    """
    states = element.states
    shown = [state for state in SHOWN_STATES if state in states and state != "disabled"]
    if app_reports_enabled and "enabled" not in states and "focusable" in states:
        shown.append("disabled")
    return tuple(shown)
