"""SVG drawings of the viewer: a run's plan as a graph, and a step's action over its screenshot.

Both return SVG markup as text, escaped, ready to put into a page. Coordinates of the action
overlay are the environment's screen pixels (the space actions are recorded in); the overlay's
``viewBox`` is the screenshot's size, so it scales with the image it lies on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from pcagent.actions import Action, Click, DoubleClick, Drag, RightClick, Scroll, TypeText
from pcagent.agents.plan import SubtaskSpec
from pcagent.text import shortened

#: Fill colour of a subtask box by its status in the run's checkpoint.
STATUS_FILL = {
    "done": "#d6f5d6",
    "failed": "#f8d7d7",
    "running": "#fff3c4",
    "pending": "#eeeeee",
}
_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _MARGIN = 190, 50, 46, 14, 10


@dataclass
class BoxGrid:
    """Boxes of one size in columns, each placed below the last one of its column; the drawing's
    size follows from the columns and the longest of them. The plan and the page graph share it."""

    box_w: int
    box_h: int
    gap_x: int
    gap_y: int
    margin: int
    #: How many boxes each column holds so far.
    rows: dict[int, int] = field(default_factory=dict)

    def place(self, column: int) -> tuple[int, int]:
        """The top-left corner of the next box of ``column``."""
        row = self.rows.get(column, 0)
        self.rows[column] = row + 1
        return (
            self.margin + column * (self.box_w + self.gap_x),
            self.margin + row * (self.box_h + self.gap_y),
        )

    def svg_start(self, css_class: str, arrow_id: str, arrow_fill: str) -> str:
        """The opening ``<svg>`` sized to the boxes placed, with the arrow head its edges use."""
        width = 2 * self.margin + (max(self.rows) + 1) * (self.box_w + self.gap_x) - self.gap_x
        height = 2 * self.margin + max(self.rows.values()) * (self.box_h + self.gap_y) - self.gap_y
        return (
            f'<svg class="{css_class}" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
            f'<defs><marker id="{arrow_id}" viewBox="0 0 10 10" refX="10" refY="5" '
            'markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" '
            f'fill="{arrow_fill}"/></marker></defs>'
        )


def _depths(subtasks: Sequence[SubtaskSpec]) -> dict[str, int]:
    """Each subtask's column: one more than the deepest subtask it depends on.

    Dependencies on unknown ids are ignored and a cycle (which a checked plan never has) puts
    the rest in the next column, so a damaged record still draws.
    """
    known = {s.id for s in subtasks}
    depth: dict[str, int] = {}
    remaining = list(subtasks)
    while remaining:
        placed = False
        for spec in list(remaining):
            before = [d for d in spec.depends_on if d in known]
            if all(d in depth for d in before):
                depth[spec.id] = 1 + max((depth[d] for d in before), default=-1)
                remaining.remove(spec)
                placed = True
        if not placed:
            next_column = 1 + max(depth.values(), default=-1)
            for spec in remaining:
                depth[spec.id] = next_column
            remaining = []
    return depth


def plan_graph_svg(
    subtasks: Sequence[SubtaskSpec],
    status: Mapping[str, str] | None = None,
    roles: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The subtasks as boxes in columns by dependency depth, with an arrow from each subtask to
    those that depend on it. ``status`` colours the boxes (see :data:`STATUS_FILL`); ``roles``
    names the roles each subtask was assigned to, shown under its application."""
    if not subtasks:
        return ""
    status = status or {}
    roles = roles or {}
    depth = _depths(subtasks)
    grid = BoxGrid(_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _MARGIN)
    position = {spec.id: grid.place(depth[spec.id]) for spec in subtasks}
    parts = [grid.svg_start("plan-graph", "plan-arrow", "#777")]
    for spec in subtasks:
        x2, y2 = position[spec.id]
        for before in spec.depends_on:
            if before not in position:
                continue
            x1, y1 = position[before]
            parts.append(
                f'<line class="plan-edge" data-from="{escape(before)}" data-to="{escape(spec.id)}" '
                f'x1="{x1 + _BOX_W}" y1="{y1 + _BOX_H // 2}" x2="{x2}" y2="{y2 + _BOX_H // 2}" '
                'stroke="#777" marker-end="url(#plan-arrow)"/>'
            )
    for spec in subtasks:
        x, y = position[spec.id]
        state = status.get(spec.id, "pending")
        fill = STATUS_FILL.get(state, STATUS_FILL["pending"])
        who = ", ".join(roles.get(spec.id, ()))
        second = spec.app + (f" · {who}" if who else "")
        parts.append(
            f'<g class="plan-node" data-subtask="{escape(spec.id)}" data-status="{escape(state)}">'
            f"<title>{escape(spec.description)}</title>"
            f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="6" fill="{fill}" '
            'stroke="#666"/>'
            f'<text x="{x + 8}" y="{y + 18}" font-size="12" font-weight="bold">'
            f"{escape(shortened(spec.id + ' ' + spec.description, 26))}</text>"
            f'<text x="{x + 8}" y="{y + 36}" font-size="11">{escape(shortened(second, 32))}</text>'
            "</g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def action_text(action: Action | None) -> str:
    """The action as one line: its kind and its arguments, e.g. ``click(x=10, y=20)``."""
    if action is None:
        return "(no action)"
    fields = action.model_dump(exclude={"kind"})
    arguments = ", ".join(f"{key}={value!r}" for key, value in fields.items() if value is not None)
    return f"{action.kind}({arguments})"


def _mark(x: int, y: int, colour: str, size: float, css: str = "click-mark") -> str:
    return (
        f'<circle class="{css}" cx="{x}" cy="{y}" r="{size:.1f}" fill="none" stroke="{colour}" '
        f'stroke-width="{size / 4:.1f}"/>'
        f'<circle cx="{x}" cy="{y}" r="{size / 5:.1f}" fill="{colour}"/>'
    )


def _label(x: float, y: float, text: str, size: float) -> str:
    """Text on a white box, kept on screen by the caller's choice of x and y."""
    shown = escape(shortened(text, 60))
    font = size * 0.9
    width = max(4.0, len(shortened(text, 60)) * font * 0.6 + font)
    return (
        f'<g class="typed-text"><rect x="{x:.0f}" y="{y - font:.0f}" width="{width:.0f}" '
        f'height="{font * 1.5:.0f}" fill="#fff" fill-opacity="0.85" stroke="#c00"/>'
        f'<text x="{x + font / 2:.0f}" y="{y + font / 4:.0f}" font-size="{font:.0f}" '
        f'fill="#c00">{shown}</text></g>'
    )


def action_overlay_svg(
    action: Action | None,
    width: int,
    height: int,
    *,
    view: tuple[int, int, int, int] | None = None,
    svg_id: str = "",
) -> str:
    """An SVG the size of the screenshot (``width`` x ``height`` screen pixels) that marks where
    the action acted: a ring at a click (two for a double click, blue for a right click), a line
    with an arrow for a drag, an arrow for a scroll, and the typed text. Empty for actions that
    have no place on the screen and type nothing (hotkeys, done...).

    ``view`` (x, y, width, height in screen pixels) is the part of the screen the picture under
    it shows, when it shows only a part; ``svg_id`` names the SVG for the page's script."""
    if action is None or width <= 0 or height <= 0:
        return ""
    size = max(8.0, min(width, height) / 40)
    parts: list[str] = []
    match action:
        case DoubleClick(x=x, y=y):
            parts.append(_mark(x, y, "#e00", size))
            parts.append(_mark(x, y, "#e00", size * 1.6, "click-mark-outer"))
        case RightClick(x=x, y=y):
            parts.append(_mark(x, y, "#06c", size))
        case Click(x=x, y=y):
            parts.append(_mark(x, y, "#e00", size))
        case Drag(start_x=x1, start_y=y1, end_x=x2, end_y=y2):
            parts.append(
                f'<line class="drag-path" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e00" '
                f'stroke-width="{size / 3:.1f}" marker-end="url(#overlay-arrow)"/>'
            )
            parts.append(_mark(x1, y1, "#e00", size * 0.7, "drag-start"))
        case Scroll(x=x, y=y, direction=direction, amount=amount):
            dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
            length = size * (2 + min(amount, 10) / 2)
            parts.append(_mark(x, y, "#e80", size * 0.7, "scroll-mark"))
            parts.append(
                f'<line class="scroll-path" x1="{x}" y1="{y}" x2="{x + dx * length:.0f}" '
                f'y2="{y + dy * length:.0f}" stroke="#e80" stroke-width="{size / 3:.1f}" '
                'marker-end="url(#overlay-arrow)"/>'
            )
        case TypeText(text=text, x=x, y=y):
            if x is not None and y is not None:
                parts.append(_mark(x, y, "#e00", size))
                label_x = min(float(x) + size * 1.5, width * 0.6)
                label_y = min(max(float(y), size * 2), height - size)
            else:
                label_x, label_y = size, height - size * 2
            parts.append(_label(label_x, label_y, text, size * 1.6))
        case _:
            return ""
    x0, y0, view_w, view_h = view or (0, 0, width, height)
    named = f' id="{escape(svg_id)}"' if svg_id else ""
    return (
        f'<svg class="action-overlay"{named} viewBox="{x0} {y0} {view_w} {view_h}" '
        'preserveAspectRatio="none" '
        'xmlns="http://www.w3.org/2000/svg"><defs><marker id="overlay-arrow" viewBox="0 0 10 10" '
        'refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto">'
        '<path d="M0,0L10,5L0,10z" fill="#e00"/></marker></defs>' + "".join(parts) + "</svg>"
    )
