"""What the accessibility worker looks for: the roles worth showing, those whose content is text,
the top-level and pop-up roles, and the caps that keep one look at a huge tree bounded.

Kept apart from the reading code so the choices (which roles, which caps) can be read and tuned in
one place. Runs inside the worker's process (see :mod:`pcagent.env.accessibility_worker`).
"""

from __future__ import annotations

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

# Roles a person can act on or needs to read. Containers (panels, fillers, scroll panes) are left out:
# their children carry the meaning.
ROLES = [
    Atspi.Role.PUSH_BUTTON,
    Atspi.Role.TOGGLE_BUTTON,
    Atspi.Role.RADIO_BUTTON,
    Atspi.Role.CHECK_BOX,
    Atspi.Role.MENU,
    Atspi.Role.MENU_ITEM,
    Atspi.Role.CHECK_MENU_ITEM,
    Atspi.Role.RADIO_MENU_ITEM,
    Atspi.Role.COMBO_BOX,
    Atspi.Role.LIST_BOX,
    Atspi.Role.LIST_ITEM,
    Atspi.Role.TEXT,
    Atspi.Role.ENTRY,
    Atspi.Role.PASSWORD_TEXT,
    Atspi.Role.SPIN_BUTTON,
    Atspi.Role.SLIDER,
    Atspi.Role.PARAGRAPH,
    Atspi.Role.HEADING,
    Atspi.Role.LABEL,
    Atspi.Role.STATIC,
    Atspi.Role.LINK,
    Atspi.Role.PAGE_TAB,
    Atspi.Role.TABLE_CELL,
    Atspi.Role.TABLE_COLUMN_HEADER,
    Atspi.Role.TABLE_ROW_HEADER,
    Atspi.Role.TREE_ITEM,
    Atspi.Role.ICON,
    Atspi.Role.IMAGE,
    Atspi.Role.STATUS_BAR,
    Atspi.Role.DOCUMENT_TEXT,
    Atspi.Role.DOCUMENT_WEB,
    Atspi.Role.DOCUMENT_SPREADSHEET,
    Atspi.Role.SECTION,
    Atspi.Role.SCROLL_BAR,
    Atspi.Role.CAPTION,
    Atspi.Role.ALERT,
    Atspi.Role.NOTIFICATION,
]
# Roles whose content is in the Text interface rather than the name (LibreOffice paragraphs, entries).
# For the ones in NAMED_TEXT_ROLES the text is read only when the name is empty (a label's text is
# its name): every skipped call is a round trip to the application saved.
NAMED_TEXT_ROLES = {"label", "static", "link", "caption", "section", "status bar"}
TEXT_ROLES = {
    "paragraph",
    "heading",
    "text",
    "entry",
    "password text",
    "spin button",
    "status bar",
    "table cell",
    "label",
    "static",
    "section",
    "caption",
    "combo box",
    "link",
}
TOP_LEVEL_ROLES = {
    Atspi.Role.FRAME,
    Atspi.Role.DIALOG,
    Atspi.Role.ALERT,
    Atspi.Role.WINDOW,
    Atspi.Role.FILE_CHOOSER,
}
POPUP_ROLES = {Atspi.Role.WINDOW, Atspi.Role.MENU, Atspi.Role.POPUP_MENU, Atspi.Role.TOOL_TIP}
SCREEN = 0  # ATSPI_COORD_TYPE_SCREEN
WINDOW = 1  # ATSPI_COORD_TYPE_WINDOW
ROLE_SET = set(ROLES)
# Windows whose tree holds a table with billions of children (LibreOffice Calc reports 2^31-1 cells):
# the application's own Collection search walks all of them and never returns, so these windows
# are walked here instead, with capped children and only the visible cells of big tables.
HUGE_TABLE_WINDOWS = ("LibreOffice Calc",)
CHILD_CAP = 400
WALK_NODE_CAP = 4000
VISIBLE_CELL_CAP = 300
MAX_TEXT = 2000
CALL_TIMEOUT_MS = 3000
WINDOW_MANAGER_APPS = {"xfwm4", "openbox"}


def extents_call(
    bus_name: str, path: str, coord_type: int
) -> tuple[str, str, str, str, GLib.Variant, str]:
    """One batched D-Bus call for an object's box (see :meth:`AccessibilityBus.batch_calls`)."""
    return (
        bus_name,
        path,
        "org.a11y.atspi.Component",
        "GetExtents",
        GLib.Variant("(u)", (coord_type,)),
        "((iiii))",
    )
