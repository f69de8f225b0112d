"""Where the application is on a step's screenshot, so that its picture can show that part.

A run records the whole desktop (1280 x 800 by default) while the application often fills a
corner of it; a thumbnail of the whole screen shows it small. A step records no window
geometry, but its listing gives the centre of every element the agent was shown (the
accessibility tree of the windows in front) and its action the point it acted on: the region
around those points, grown to the screen's proportions, is the part worth looking at.
"""

from __future__ import annotations

from pcagent.actions import Action, Click, DoubleClick, Drag, RightClick, Scroll, TypeText
from pcagent.env.observation import Box
from pcagent.perception.listing import parse_listing

#: Space kept around the outermost points, as a share of the screen's smaller side: an element's
#: centre is inside it, its edge and the window's frame a little further out.
MARGIN_SHARE = 0.06
#: A region is never smaller than this share of the screen in either direction (a lone button
#: shown on its own tells nothing).
MIN_SHARE = 0.4
#: A region this close to the whole screen is not worth cropping to.
WHOLE_SCREEN_SHARE = 0.85
#: Listing roles (as abbreviated there) of elements that fill a window's body: a document, a
#: text area, a web page, a sheet. The listing gives only their centre, and a window's body
#: runs about as far past it as from the window's left and top edges to it.
BODY_ROLES = frozenset(
    {"text", "document", "webpage", "sheet", "terminal", "table", "tree", "list"}
)


def action_points(action: Action | None) -> list[tuple[int, int]]:
    """The screen points an action names (none for hotkeys, done, application actions...)."""
    match action:
        case Click(x=x, y=y) | DoubleClick(x=x, y=y) | RightClick(x=x, y=y):
            return [(x, y)]
        case Drag(start_x=x1, start_y=y1, end_x=x2, end_y=y2):
            return [(x1, y1), (x2, y2)]
        case Scroll(x=x, y=y):
            return [(x, y)]
        case TypeText(x=int() as x, y=int() as y):
            return [(x, y)]
        case _:
            return []


def _span(low: float, high: float, size: float, limit: int) -> tuple[int, int]:
    """``size`` pixels around the middle of ``low..high``, moved inside ``0..limit``."""
    size = min(float(limit), size)
    start = (low + high) / 2 - size / 2
    start = min(max(0.0, start), limit - size)
    return round(start), round(start + size)


def window_region(listing: str, action: Action | None, screen: tuple[int, int]) -> Box | None:
    """The part of a ``screen`` (width, height in pixels) that shows the elements listed and the
    point acted on, padded and with the screen's proportions; None when there is nothing to go
    by or the region would be nearly the whole screen."""
    width, height = screen
    if width <= 0 or height <= 0:
        return None
    marks = [m for m in parse_listing(listing) if 0 <= m.x < width and 0 <= m.y < height]
    points = [(m.x, m.y) for m in marks] + action_points(action)
    points = [(x, y) for x, y in points if 0 <= x < width and 0 <= y < height]
    if not points:
        return None
    low_x, low_y = min(x for x, _ in points), min(y for _, y in points)
    bodies = [(2 * m.x - low_x, 2 * m.y - low_y) for m in marks if m.role in BODY_ROLES]
    margin = MARGIN_SHARE * min(width, height)
    left = low_x - margin
    right = max(x for x, _ in points + bodies) + margin
    top = low_y - margin
    bottom = max(y for _, y in points + bodies) + margin
    region_w = max(right - left, MIN_SHARE * width)
    region_h = max(bottom - top, MIN_SHARE * height)
    # Grow the narrower side so every picture of the run has the same shape.
    if region_w / region_h < width / height:
        region_w = region_h * width / height
    else:
        region_h = region_w * height / width
    if region_w >= WHOLE_SCREEN_SHARE * width:
        return None
    x0, x1 = _span(left, right, region_w, width)
    y0, y1 = _span(top, bottom, region_h, height)
    return Box(x=x0, y=y0, width=x1 - x0, height=y1 - y0)
