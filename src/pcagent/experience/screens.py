"""What the page graph knows a screen by, and how it names an action without coordinates.

A recorded step keeps the listing Decision was shown and the title of the window in front; from
those, a :class:`Screen` keeps the application, the title's *shape* (file names and numbers
replaced, so "memo.txt - Mousepad" and "plan.txt - Mousepad" are one page) and the labels of the
controls on screen (buttons, menus, tabs, fields: what makes a page that page, not the document's
contents). Its :meth:`Screen.summary` is the short text that gets embedded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image

from pcagent import actions as act
from pcagent.perception.listing import ListedMark, parse_listing

#: Listing roles that identify a page (controls), as the compact listing abbreviates them.
CONTROL_ROLES = frozenset(
    {
        "button",
        "toggle",
        "radio",
        "checkbox",
        "item",
        "checkitem",
        "radioitem",
        "combo",
        "menu",
        "tab",
        "link",
        "entry",
        "spin",
        "colheader",
        "heading",
        "label",
        "dialog",
        "alert",
    }
)
#: Labels kept in a summary: enough to tell pages apart, few enough to embed quickly.
MAX_LABELS = 24
#: Longer labels are content (a sentence, a cell's text), not a control's name.
MAX_LABEL_CHARS = 40

_FILE_NAME = re.compile(r"\b[\w.-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b")
_NUMBER = re.compile(r"\d+([.:,]\d+)*")


_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")


def title_shape(title: str) -> str:
    """A window title with addresses, file names and numbers replaced: the kind of page, not
    the document."""
    shaped = _ADDRESS.sub("<address>", title.lstrip("*"))  # "*": a document with unsaved changes
    shaped = _FILE_NAME.sub("<file>", shaped)
    return _NUMBER.sub("#", shaped).strip()


def title_key(title: str) -> str:
    """What two pages must share to be one: the shaped title up to its first colon ("Write" for
    every compose window, whatever its subject), or all of it ("Save As" is not "Open")."""
    head, colon, _ = title.partition(":")
    return head.strip() if colon else title


@dataclass(frozen=True)
class Screen:
    """A screen as the page graph sees it."""

    app: str
    title: str
    labels: tuple[str, ...]

    @classmethod
    def of(cls, app: str, window_title: str, listing: str) -> Screen:
        labels: list[str] = []
        for mark in parse_listing(listing):
            label = " ".join(mark.label.split())
            if (
                mark.role in CONTROL_ROLES
                and label
                and len(label) <= MAX_LABEL_CHARS
                and label not in labels
            ):
                labels.append(title_shape(label))
            if len(labels) >= MAX_LABELS:
                break
        return cls(app=app or "desktop", title=title_shape(window_title), labels=tuple(labels))

    def summary(self) -> str:
        """The text embedded for similarity: application, title shape, control labels."""
        return f"app: {self.app}; window: {self.title or '(none)'}; controls: " + ", ".join(
            self.labels
        )

    def overlap(self, other: Screen) -> float:
        """Jaccard similarity of the two screens' control labels (1.0 for two bare screens)."""
        mine, theirs = set(self.labels), set(other.labels)
        if not mine and not theirs:
            return 1.0
        return len(mine & theirs) / len(mine | theirs)


def is_new_page(before: Screen, after: Screen, pixel_distance: int | None) -> bool:
    """Whether an action led to a different page: another application or window (a dialog, a
    tab's title), mostly different controls, or a large change of the picture."""
    if before.app != after.app or before.title != after.title:
        return True
    if before.overlap(after) < 0.5:
        return True
    return pixel_distance is not None and pixel_distance > PAGE_CHANGE_BITS


#: dHash bits (of 64) that differ between two pictures of different pages.
PAGE_CHANGE_BITS = 20


def picture_hash(image: Image.Image) -> int:
    """A 64-bit difference hash: each bit says whether a pixel of a 9x8 grey thumbnail is brighter
    than its right neighbour. Near-identical screens differ in few bits, whatever the scale."""
    small = image.convert("L").resize((9, 8), Image.Resampling.BILINEAR)
    pixels = small.tobytes()  # one byte per pixel, row by row
    bits = 0
    for row in range(8):
        for column in range(8):
            left, right = pixels[row * 9 + column], pixels[row * 9 + column + 1]
            bits = (bits << 1) | int(left > right)
    return bits


def hash_distance(a: int, b: int) -> int:
    """Differing bits of two picture hashes."""
    return (a ^ b).bit_count()


#: A click farther than this from every listed mark's centre is described as a bare click.
NEAREST_MARK_PIXELS = 60


def describe_action(action: act.Action, listing: str) -> str:
    """The action in words a model can follow on another run: a click by its target's role and
    label (never coordinates), keys by name, typing without the text, an application action by its
    kind and the names of its fields."""
    if isinstance(action, act.Click | act.DoubleClick | act.RightClick):
        verb = {"click": "click", "double_click": "double-click", "right_click": "right-click"}
        target = _mark_at(parse_listing(listing), action.x, action.y)
        what = verb.get(action.kind, action.kind)
        if target is None or not target.label:
            return f"{what} (an unlabelled spot)"
        return f'{what} {target.role} "{title_shape(target.label)}"'
    if isinstance(action, act.Hotkey):
        return "press " + "+".join(action.keys)
    if isinstance(action, act.Press):
        return f"press {action.key}"
    if isinstance(action, act.TypeText):
        return "type the text"
    if isinstance(action, act.OpenApp):
        return f"open the {action.app} application"
    if isinstance(action, act.Scroll):
        return "scroll"
    fields = [name for name in type(action).model_fields if name != "kind"]
    return f"{action.kind}({', '.join(fields)})"


def _mark_at(marks: list[ListedMark], x: int, y: int) -> ListedMark | None:
    best: tuple[float, ListedMark] | None = None
    for mark in marks:
        distance = ((mark.x - x) ** 2 + (mark.y - y) ** 2) ** 0.5
        if distance <= NEAREST_MARK_PIXELS and (best is None or distance < best[0]):
            best = (distance, mark)
    return None if best is None else best[1]
