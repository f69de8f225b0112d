"""What an environment shows an agent: typed elements, windows and a screenshot.

All boxes are in screen pixels of the environment's screen (origin top-left), the same coordinate
space actions use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field


class Box(BaseModel):
    """A rectangle in screen pixels."""

    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    width: int
    height: int

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.width // 2, self.y + self.height // 2)

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height

    @property
    def is_empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom

    def intersection_area(self, other: Box) -> int:
        width = min(self.right, other.right) - max(self.x, other.x)
        height = min(self.bottom, other.bottom) - max(self.y, other.y)
        return max(0, width) * max(0, height)


class Element(BaseModel):
    """One accessibility object as seen in one observation.

    ``id`` is stable only within the observation that produced it (it is the position in reading
    order); later layers number what they show a model separately.
    """

    model_config = ConfigDict(frozen=True)

    id: int
    role: str
    name: str = ""
    text: str = Field("", description="Text content or current value, when the object has one.")
    states: frozenset[str] = frozenset()
    box: Box
    app: str = ""
    window: str = ""
    depth: int = 0

    def describe(self) -> str:
        """One line for logs and the CLI: ``[id] role "name" text @x,y wxh``."""
        label = f'"{self.name}"' if self.name else ""
        text = f" = {self.text[:60]!r}" if self.text and self.text != self.name else ""
        box = self.box
        return f"[{self.id}] {self.role} {label}{text} @{box.x},{box.y} {box.width}x{box.height}"


class TextState(BaseModel):
    """The live text of one element, with its caret and selected ranges.

    Offsets count characters (code points) from 0; ranges are half-open ``[start, end)``.
    """

    model_config = ConfigDict(frozen=True)

    element_id: int
    text: str
    caret: int = -1
    selections: tuple[tuple[int, int], ...] = ()

    @property
    def selected_text(self) -> str:
        return "".join(self.text[start:end] for start, end in self.selections)


class WindowInfo(BaseModel):
    """A top-level X11 window managed by the window manager."""

    model_config = ConfigDict(frozen=True)

    window_id: int
    title: str
    app_class: str = ""
    box: Box
    pid: int | None = None


class ActionResult(BaseModel):
    """What happened when an action was executed.

    ``ok`` is False only for failures the desktop reported *after* the action was accepted (invalid
    actions raise before anything runs). ``answer`` carries the text of an ``answer`` action.
    ``output`` is what an application action read (a document's paragraphs, a page's text) for
    the agent to see, and ``verified`` says the action read its effect back and found it done.
    """

    ok: bool
    message: str = ""
    answer: str | None = None
    output: str | None = None
    verified: bool = False
    finished: bool = False
    settled: bool = True
    duration_ms: float = 0.0


@dataclass
class Observation:
    """One look at the screen."""

    screenshot: Image.Image
    elements: list[Element]
    windows: list[WindowInfo]
    focused_window: WindowInfo | None
    timestamp: float
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.screenshot.size

    def find(self, role: str | None = None, name: str | None = None) -> list[Element]:
        """Elements matching a role and/or an exact name (helpers for scripts and tests)."""
        return [
            element
            for element in self.elements
            if (role is None or element.role == role) and (name is None or element.name == name)
        ]

    def element_listing(self) -> str:
        return "\n".join(element.describe() for element in self.elements)

    def element_texts(self) -> str:
        """Each element's name and text in full, one per line: what a check that typed text
        shows reads. The listing shortens each text to 60 characters, and a line typed longer
        than that never showed there (type_in_editor failed on right typing, 2026-11-28)."""
        lines = []
        for element in self.elements:
            lines += [part for part in (element.name, element.text) if part]
        return "\n".join(lines)
