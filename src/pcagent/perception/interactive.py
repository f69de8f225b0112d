"""From an observation's accessibility elements to the numbered marks a model sees.

Four steps, each a small function so tests can check them on recorded trees:
  1. keep what a person could act on or needs to read (role, label, enabled, visible box);
  2. clip each box to the screen and to its window, and drop what another window covers;
  3. merge duplicates: the same control reported twice (LibreOffice's two menubars), and nested
     wrappers (a label inside a button with the same text, an entry inside its combo box);
  4. number the rest 1..N in reading order: rows top to bottom, left to right within a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pcagent.env.observation import Box, Element, Observation, WindowInfo
from pcagent.perception.marks import Mark, element_states
from pcagent.text import single_spaced

#: Roles a person acts on. Unlabelled ones are kept: the Set-of-Mark image shows their icon.
ACTIONABLE_ROLES = frozenset(
    {
        "push button",
        "toggle button",
        "radio button",
        "check box",
        "menu",
        "menu item",
        "check menu item",
        "radio menu item",
        "combo box",
        "list item",
        "entry",
        "text",
        "password text",
        "spin button",
        "slider",
        "link",
        "page tab",
        "table cell",
        "table column header",
        "table row header",
        "tree item",
        "icon",
        "document text",
        "document web",
        "document spreadsheet",
    }
)
#: Roles a person reads; kept only when they carry text.
READABLE_ROLES = frozenset(
    {
        "label",
        "static",
        "heading",
        "paragraph",
        "caption",
        "status bar",
        "alert",
        "notification",
        "section",
        "image",
        "list box",
    }
)
#: Roles that wrap another element without adding anything when their text is the same.
WRAPPER_ROLES = frozenset({"label", "static", "section", "image", "icon", "list box", "caption"})
#: Smallest visible side, in pixels, for something to count as on screen.
MIN_SIDE = 3


@dataclass(frozen=True)
class Candidate:
    """An element that passed the filter, with its visible box and what a model will read."""

    element: Element
    box: Box
    label: str
    value: str
    states: tuple[str, ...]

    @property
    def actionable(self) -> bool:
        return self.element.role in ACTIONABLE_ROLES


def label_and_value(element: Element) -> tuple[str, str]:
    """The label a model reads (the name, else the text) and a value shown beside it.

    A value is the text of an element whose name is something else: an entry "Font Name" holding
    "Calibri", a cell "A1" holding "42". Whitespace runs collapse to one space.
    """
    name = single_spaced(element.name)
    text = single_spaced(element.text)
    if not name:
        return text, ""
    if text and text != name:
        return name, text
    return name, ""


def keep(element: Element) -> bool:
    """Step 1: would a person act on this, or read it?"""
    if element.role in ACTIONABLE_ROLES:
        return True
    if element.role in READABLE_ROLES:
        return bool(element.name.strip() or element.text.strip())
    return False


def clip(box: Box, bounds: Box) -> Box | None:
    """The part of ``box`` inside ``bounds``, or None when too little of it remains."""
    left, top = max(box.x, bounds.x), max(box.y, bounds.y)
    right, bottom = min(box.right, bounds.right), min(box.bottom, bounds.bottom)
    if right - left < MIN_SIDE or bottom - top < MIN_SIDE:
        return None
    return Box(x=left, y=top, width=right - left, height=bottom - top)


def _own_window(element: Element, windows: Sequence[WindowInfo]) -> int | None:
    """Index, in stacking order, of the X window the element belongs to (matched by title).

    Popup menus are not managed windows, so their elements match none: they are never clipped
    to a window nor counted as covered.
    """
    if not element.window:
        return None
    for index in range(len(windows) - 1, -1, -1):
        if windows[index].title == element.window:
            return index
    return None


def visible_box(element: Element, windows: Sequence[WindowInfo], screen: Box) -> Box | None:
    """Step 2: the element's box clipped to the screen and its window; None if it is off screen,
    outside its window (scrolled away) or under a window stacked above its own."""
    box = clip(element.box, screen)
    if box is None:
        return None
    own = _own_window(element, windows)
    if own is None:
        return box
    box = clip(box, windows[own].box)
    if box is None:
        return None
    x, y = box.center
    if any(window.box.contains(x, y) for window in windows[own + 1 :]):
        return None
    return box


def _overlap_of_smaller(a: Box, b: Box) -> float:
    smaller = min(a.width * a.height, b.width * b.height)
    return a.intersection_area(b) / smaller if smaller > 0 else 0.0


def _iou(a: Box, b: Box) -> float:
    inter = a.intersection_area(b)
    union = a.width * a.height + b.width * b.height - inter
    return inter / union if union > 0 else 0.0


def _rank(candidate: Candidate) -> tuple[int, int, int]:
    """Which of two duplicates to keep: actionable first, then labelled, then the larger box."""
    return (
        int(candidate.actionable),
        int(bool(candidate.label)),
        candidate.box.width * candidate.box.height,
    )


def duplicates(a: Candidate, b: Candidate) -> bool:
    """Step 3's test: do ``a`` and ``b`` show a person the same thing?

    - the same role and label on (mostly) the same spot: one control reported twice, and two
      menus of the same name in one window wherever they are (a hidden duplicate menubar);
    - one box (nearly) inside the other with the same label, or an unlabelled wrapper, where one
      of the two is a mere wrapper role: a label inside its button, an icon inside its list item.
    """
    if a.element.role == b.element.role and a.label == b.label:
        if _iou(a.box, b.box) >= 0.5:
            return True
        if a.element.role == "menu" and a.label and a.element.window == b.element.window:
            # A window has one menu of each name; LibreOffice reports a second, hidden menubar.
            return True
    wrapper = a.element.role in WRAPPER_ROLES or b.element.role in WRAPPER_ROLES
    if not wrapper or _overlap_of_smaller(a.box, b.box) < 0.9:
        return False
    return a.label == b.label or not a.label or not b.label


def merge(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Step 3: keep one of each group of duplicates, the best by :func:`_rank`; the kept one
    borrows a label or value its duplicate had and it lacked."""
    kept: list[Candidate] = []
    for candidate in sorted(candidates, key=_rank, reverse=True):
        for index, other in enumerate(kept):
            if duplicates(candidate, other):
                if not other.label and candidate.label:
                    kept[index] = Candidate(
                        other.element, other.box, candidate.label, other.value, other.states
                    )
                elif not other.value and candidate.value and candidate.value != other.label:
                    kept[index] = Candidate(
                        other.element, other.box, other.label, candidate.value, other.states
                    )
                break
        else:
            kept.append(candidate)
    return kept


def reading_order(boxes: Sequence[Box]) -> list[int]:
    """Step 4: indices of ``boxes`` in reading order.

    Boxes are taken top to bottom; a box joins the current row while its vertical centre lies
    within the row's first box. Each row reads left to right.
    """
    order = sorted(range(len(boxes)), key=lambda i: (boxes[i].y, boxes[i].x))
    rows: list[list[int]] = []
    row_top = row_bottom = 0
    for index in order:
        box = boxes[index]
        centre = box.y + box.height / 2
        if rows and row_top <= centre <= row_bottom:
            rows[-1].append(index)
        else:
            rows.append([index])
            row_top, row_bottom = box.y, box.bottom
    return [index for row in rows for index in sorted(row, key=lambda i: (boxes[i].x, boxes[i].y))]


def candidates_of(observation: Observation) -> list[Candidate]:
    """Steps 1 and 2 for every element of the observation."""
    width, height = observation.screen_size
    screen = Box(x=0, y=0, width=width, height=height)
    apps_reporting_enabled = {e.app for e in observation.elements if "enabled" in e.states}
    result = []
    for element in observation.elements:
        if not keep(element):
            continue
        box = visible_box(element, observation.windows, screen)
        if box is None:
            continue
        label, value = label_and_value(element)
        states = element_states(element, element.app in apps_reporting_enabled)
        result.append(Candidate(element, box, label, value, states))
    return result


def number(candidates: Iterable[Candidate]) -> list[Mark]:
    """Step 4: marks numbered 1..N in reading order."""
    listed = list(candidates)
    ordered = reading_order([candidate.box for candidate in listed])
    return [
        Mark(
            number=position + 1,
            role=listed[index].element.role,
            label=listed[index].label,
            value=listed[index].value,
            states=listed[index].states,
            box=listed[index].box,
            element_id=listed[index].element.id,
        )
        for position, index in enumerate(ordered)
    ]


def interactive_marks(observation: Observation) -> list[Mark]:
    """The numbered marks of an observation: filtered, clipped, merged, in reading order."""
    return number(merge(candidates_of(observation)))
