"""Reads one sandbox's accessibility tree, in a process of its own.

Why a separate process: libatspi binds itself, once per process, to the accessibility bus named by
the environment it first sees, and its calls cannot be made from threads. One worker per sandbox
lets several sandboxes run side by side from one Python program, keeps the caller's environment
untouched, and confines a hung or crashed toolkit call to a process that can be restarted.

The caller speaks JSON lines on stdin/stdout (see :mod:`pcagent.env.accessibility`).

How the elements of the focused window are read fast (measured in ``desktop-notes.md``):
  1. libatspi's cache is switched on, so roles, names, states and parents cost ~1 µs instead of a
     D-Bus round trip each; events from the applications keep it current (the GLib main context is
     pumped before every look).
  2. One ``Collection.GetMatches`` per window returns only showing objects of interesting roles,
     instead of walking thousands of nodes.
  3. Boxes and texts are never cached, so all those requests are sent at once as asynchronous D-Bus
     calls and their replies collected together.
  4. An event listener marks the tree dirty; with no event since the last look, the last answer is
     reused.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

from pcagent.env.worker_protocol import Handler, dispatch_by_op, run_worker  # noqa: E402
from pcagent.env.worker_protocol import serve as serve_lines  # noqa: E402

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


def _extents_call(
    bus_name: str, path: str, coord_type: int
) -> tuple[str, str, str, str, GLib.Variant, str]:
    return (
        bus_name,
        path,
        "org.a11y.atspi.Component",
        "GetExtents",
        GLib.Variant("(u)", (coord_type,)),
        "((iiii))",
    )


class Worker:
    """State kept between requests: the cache, the event listener, the last answer."""

    def __init__(self) -> None:
        self.desktop = Atspi.get_desktop(0)
        Atspi.Accessible.set_cache_mask(self.desktop, Atspi.Cache.DEFAULT)
        self.context = GLib.MainContext.default()
        self.events = 0
        self.listener = Atspi.EventListener.new(self._on_event)
        for event in ("object:", "window:", "focus:"):
            self.listener.register(event)
        self.bus = self._connect_bus()
        states = Atspi.StateSet.new([Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE])
        self.rule = Atspi.MatchRule.new(
            states,
            Atspi.CollectionMatchType.ALL,
            {},
            Atspi.CollectionMatchType.NONE,
            ROLES,
            Atspi.CollectionMatchType.ANY,
            [],
            Atspi.CollectionMatchType.NONE,
            False,
        )
        # The editable multi-line text views of a document editor (see tab_texts).
        self.text_rule = Atspi.MatchRule.new(
            Atspi.StateSet.new([Atspi.StateType.EDITABLE, Atspi.StateType.MULTI_LINE]),
            Atspi.CollectionMatchType.ALL,
            {},
            Atspi.CollectionMatchType.NONE,
            [Atspi.Role.TEXT],
            Atspi.CollectionMatchType.ANY,
            [],
            Atspi.CollectionMatchType.NONE,
            False,
        )
        self.last_key: Any = None
        self.last_events = -1
        self.last_answer: dict[str, Any] | None = None
        self.objects: list[Any] = []
        # Per object of the last answer: the (dx, dy) added to its reported boxes (see _read_roots).
        self.object_offsets: list[tuple[int, int]] = []

    # --- plumbing ---------------------------------------------------------------------------------

    def _on_event(self, event: Any) -> None:
        self.events += 1

    def pump(self) -> None:
        """Deliver pending accessibility events (keeps the cache current, counts changes)."""
        while self.context.iteration(False):
            pass

    @staticmethod
    def _connect_bus() -> Gio.DBusConnection:
        address = os.environ.get("AT_SPI_BUS_ADDRESS")
        if not address:
            session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            reply = session.call_sync(
                "org.a11y.Bus",
                "/org/a11y/bus",
                "org.a11y.Bus",
                "GetAddress",
                None,
                GLib.VariantType("(s)"),
                Gio.DBusCallFlags.NONE,
                CALL_TIMEOUT_MS,
                None,
            )
            address = reply.unpack()[0]
        flags = (
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        )
        return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)

    def batch_calls(self, calls: list[tuple[str, str, str, str, GLib.Variant | None, str]]) -> list:
        """Send every D-Bus call at once and wait for all replies (None for a failed call).

        Each call is (bus name, object path, interface, method, parameters, reply type).
        """
        results: list[Any] = [None] * len(calls)
        pending = len(calls)

        def done(connection: Gio.DBusConnection, result: Gio.AsyncResult, index: int) -> None:
            nonlocal pending
            pending -= 1
            try:
                results[index] = connection.call_finish(result).unpack()
            except GLib.Error:
                results[index] = None

        for index, (bus_name, path, interface, method, params, reply) in enumerate(calls):
            self.bus.call(
                bus_name,
                path,
                interface,
                method,
                params,
                GLib.VariantType(reply),
                Gio.DBusCallFlags.NONE,
                CALL_TIMEOUT_MS,
                None,
                done,
                index,
            )
        deadline = time.monotonic() + CALL_TIMEOUT_MS / 1000 + 1
        while pending and time.monotonic() < deadline:
            self.context.iteration(True)
        return results

    # --- choosing what to read ------------------------------------------------------------------

    def applications(self) -> list[Any]:
        apps = []
        for index in range(self.desktop.get_child_count()):
            app = self.desktop.get_child_at_index(index)
            if app is not None:
                apps.append(app)
        return apps

    def top_levels(self) -> list[tuple[Any, Any]]:
        """(application, window) pairs of every top-level window."""
        pairs = []
        for app in self.applications():
            try:
                if (app.get_name() or "") in WINDOW_MANAGER_APPS:
                    continue
                count = app.get_child_count()
            except GLib.Error:
                continue
            for index in range(count):
                try:
                    window = app.get_child_at_index(index)
                    if window is not None and window.get_role() in TOP_LEVEL_ROLES | POPUP_ROLES:
                        pairs.append((app, window))
                except GLib.Error:
                    continue
        return pairs

    def roots(
        self, focused_title: str | None, focused_pid: int | None = None
    ) -> list[tuple[Any, Any]]:
        """The focused window and any showing popup or dialog of the same application.

        The X11 focused window's title (given by the caller) picks the window when it matches an
        accessible frame name; otherwise the accessible ACTIVE state does; otherwise the first
        window of the focused window's process (GTK4 exposes some dialogs under another name).
        """
        candidates = self.top_levels()
        chosen = None
        if focused_title:
            for app, window in candidates:
                try:
                    if window.get_name() == focused_title:
                        chosen = (app, window)
                        break
                except GLib.Error:
                    continue
        if chosen is None:
            for app, window in candidates:
                try:
                    if window.get_state_set().contains(Atspi.StateType.ACTIVE):
                        chosen = (app, window)
                        break
                except GLib.Error:
                    continue
        if chosen is None and focused_pid:
            # The newest window of the focused process: a dialog registers after its main window.
            for app, window in reversed(candidates):
                try:
                    if app.get_process_id() == focused_pid:
                        chosen = (app, window)
                        break
                except GLib.Error:
                    continue
        if chosen is None:
            return []
        roots = [chosen]
        for app, window in candidates:
            if app is not chosen[0] or window is chosen[1]:
                continue
            try:
                states = window.get_state_set()
                if window.get_role() in POPUP_ROLES | {
                    Atspi.Role.DIALOG,
                    Atspi.Role.ALERT,
                } and states.contains(Atspi.StateType.SHOWING):
                    roots.append((app, window))
            except GLib.Error:
                continue
        return roots

    # --- reading ----------------------------------------------------------------------------------

    def read(self, request: dict[str, Any]) -> dict[str, Any]:
        """Elements of the focused window (and its popups), in reading order."""
        self.pump()
        focused_title = request.get("focused_title")
        focused_pid = request.get("focused_pid")
        origins = request.get("window_origins") or {}
        key = (focused_title, focused_pid, json.dumps(origins, sort_keys=True))
        if (
            not request.get("force")
            and self.last_answer is not None
            and self.last_events == self.events
            and self.last_key == key
        ):
            return {**self.last_answer, "reused": True}
        started_events = self.events
        self.timings: dict[str, float] = {"start": time.perf_counter()}
        roots = self.roots(focused_title, focused_pid)
        gtk4 = _any_gtk4(roots)
        if gtk4:
            for _app, window in roots:
                window.clear_cache()
        elements, objects, offsets = self._read_roots(roots, origins)
        self.objects, self.object_offsets = objects, offsets
        answer = {"elements": elements, "reused": False, "timings": self.timings}
        self.last_answer, self.last_key = answer, key
        # Events that arrived while reading mean the answer may already be stale. An empty answer
        # is never reused: a window mapped on X before it registered on the accessibility bus
        # (GTK4 dialogs) would otherwise stay empty until some event happened to arrive.
        self.pump()
        stale = self.events != started_events or not elements or gtk4
        self.last_events = -1 if stale else self.events
        return answer

    # (GTK4 windows are read afresh every time, past libatspi's cache too: GTK4 sends no event
    # when a list fills in, e.g. gnome-clocks' city search results, so both the cached children
    # and a reused answer would show the list as it was before.)

    def _read_roots(
        self, roots: list[tuple[Any, Any]], origins: dict[str, list[int]]
    ) -> tuple[list[dict[str, Any]], list[Any], list[tuple[int, int]]]:
        matches: list[tuple[Any, Any, Any]] = []
        for app, window in roots:
            try:
                if self._is_gtk4(app):
                    # GTK4 sets no SHOWING state on most widgets: walk, pruning on VISIBLE only.
                    found = self._walk(window, Atspi.StateType.VISIBLE)
                elif any(hint in (window.get_name() or "") for hint in HUGE_TABLE_WINDOWS):
                    found = self._walk(window, Atspi.StateType.SHOWING)
                else:
                    found = window.get_matches(
                        self.rule, Atspi.CollectionSortOrder.CANONICAL, 0, True
                    )
            except GLib.Error:
                continue
            # A match that died between the search and its return comes back as None.
            matches.extend(
                (app, window, accessible) for accessible in found if accessible is not None
            )
        self.timings["matches"] = time.perf_counter()

        kept: list[dict[str, Any]] = []
        objects: list[Any] = []
        for app, window, accessible in matches:
            info = self._describe(app, window, accessible, origins)
            if info is not None:
                kept.append(info)
                objects.append(accessible)

        self.timings["describe"] = time.perf_counter()
        calls: list[tuple[str, str, str, str, GLib.Variant | None, str]] = []
        slots: list[tuple[int, int | None, int | None]] = []  # call indices per element
        for info, accessible in zip(kept, objects, strict=True):
            bus_name, path = accessible.app.bus_name, accessible.path
            origin = info["_origin"]
            extents = len(calls)
            calls.append(_extents_call(bus_name, path, SCREEN))
            window_extents = None
            if origin is not None:
                window_extents = len(calls)
                calls.append(_extents_call(bus_name, path, WINDOW))
            text = None
            if info.pop("_has_text"):
                text = len(calls)
                calls.append(
                    (
                        bus_name,
                        path,
                        "org.a11y.atspi.Text",
                        "GetText",
                        GLib.Variant("(ii)", (0, -1)),
                        "(s)",
                    )
                )
            slots.append((extents, window_extents, text))
        replies = self.batch_calls(calls)
        self.timings["batch"] = time.perf_counter()
        result: list[dict[str, Any]] = []
        result_objects: list[Any] = []
        result_offsets: list[tuple[int, int]] = []
        for info, accessible, (extents, window_extents, text) in zip(
            kept, objects, slots, strict=True
        ):
            screen_reply = replies[extents]
            if screen_reply is None:
                continue  # the object died while we were reading
            x, y, width, height = screen_reply[0]
            if width <= 0 or height <= 0:
                continue
            origin = info.pop("_origin")
            dx, dy = 0, 0
            if window_extents is not None and replies[window_extents] == screen_reply:
                # Screen and window coordinates agree although the window is not at the
                # screen's origin: the toolkit reported window coordinates as screen ones
                # (LibreOffice's own widgets, GTK4). Add the window's real origin.
                dx, dy = origin
            if text is not None and replies[text] is not None:
                info["text"] = replies[text][0][:MAX_TEXT].replace("\ufffc", "").strip()
            info["box"] = [x + dx, y + dy, width, height]
            info["id"] = len(result)
            result.append(info)
            result_objects.append(accessible)
            result_offsets.append((dx, dy))
        return result, result_objects, result_offsets

    @staticmethod
    def _is_gtk4(app: Any) -> bool:
        toolkit = (app.get_toolkit_name() or "").lower()
        return toolkit == "gtk" and (app.get_toolkit_version() or "").startswith("4")

    def _walk(self, window: Any, required_state: Any) -> list[Any]:
        """Depth-first, in reading order; subtrees lacking ``required_state`` are skipped."""
        found: list[Any] = []
        stack = [window]
        visits = 0
        while stack and visits < WALK_NODE_CAP:
            node = stack.pop()
            visits += 1
            try:
                role = node.get_role()
                if not node.get_state_set().contains(required_state):
                    continue
                if node is not window and role in ROLE_SET:
                    found.append(node)
                count = node.get_child_count()
                if role == Atspi.Role.TABLE and count > CHILD_CAP:
                    found.extend(self._visible_cells(node))
                    continue
                children = [node.get_child_at_index(i) for i in range(min(count, CHILD_CAP))]
            except GLib.Error:
                continue  # the object died while we looked at it
            stack.extend(child for child in reversed(children) if child is not None)
        return found

    @staticmethod
    def _visible_cells(table: Any) -> list[Any]:
        """The cells inside the table's box, found from the cells at its two corners."""
        box = table.get_extents(Atspi.CoordType.SCREEN)
        corners = []
        for x, y in ((box.x + 2, box.y + 2), (box.x + box.width - 3, box.y + box.height - 3)):
            cell = table.get_accessible_at_point(x, y, Atspi.CoordType.SCREEN)
            if cell is None:
                return []
            index = cell.get_index_in_parent()
            corners.append((table.get_row_at_index(index), table.get_column_at_index(index)))
        (first_row, first_column), (last_row, last_column) = corners
        cells = []
        for row in range(first_row, last_row + 1):
            for column in range(first_column, last_column + 1):
                if len(cells) >= VISIBLE_CELL_CAP:
                    return cells
                cell = table.get_accessible_at(row, column)
                if cell is not None:
                    cells.append(cell)
        return cells

    def _describe(
        self, app: Any, window: Any, accessible: Any, origins: dict[str, list[int]]
    ) -> dict[str, Any] | None:
        """Cached properties of one match, or None for an object that died meanwhile.

        ``_origin`` is the X window's screen origin when it is not (0, 0): some toolkits report
        window coordinates as screen coordinates (LibreOffice's own widgets, GTK4), which
        :meth:`_read_roots` detects and corrects with it.
        """
        try:
            role = accessible.get_role_name()
            name = accessible.get_name() or ""
            states = [
                Atspi.StateType(state).value_nick
                for state in accessible.get_state_set().get_states()
            ]
            interfaces = accessible.get_interfaces()
            depth = 0
            node = accessible.get_parent()
            while node is not None and node.get_role() != Atspi.Role.APPLICATION:
                depth += 1
                node = node.get_parent()
            app_name = app.get_name() or ""
            window_name = window.get_name() or ""
            # Only GTK-based toolkits (LibreOffice's gtk3 plugin, GTK4) mix up the two; Gecko's
            # window coordinates equal its screen ones, which must not be corrected.
            is_gtk = (app.get_toolkit_name() or "").lower() == "gtk"
            origin = None
            if is_gtk:
                origin = origins.get(window_name) or origins.get(f"pid:{app.get_process_id()}")
        except GLib.Error:
            return None
        return {
            "role": role,
            "name": name,
            "text": "",
            "states": states,
            "app": app_name,
            "window": window_name,
            "depth": depth,
            "_has_text": "Text" in interfaces
            and role in TEXT_ROLES
            and not (name and role in NAMED_TEXT_ROLES),
            "_origin": tuple(origin) if origin and any(origin) else None,
        }

    # --- other requests ---------------------------------------------------------------------------

    def element(self, request: dict[str, Any]) -> Any:
        index = int(request["id"])
        if not 0 <= index < len(self.objects):
            raise LookupError(f"no element {index} in the last observation")
        return self.objects[index]

    def text(self, request: dict[str, Any]) -> dict[str, Any]:
        """Full text of one element of the last observation, read live."""
        accessible = self.element(request)
        count = accessible.get_character_count()
        return {"text": accessible.get_text(0, count)}

    def text_state(self, request: dict[str, Any]) -> dict[str, Any]:
        """Full text, caret offset and selected ranges of one element, read live.

        Offsets count characters (Unicode code points), as AT-SPI's Text interface does.
        """
        accessible = self.element(request)
        self.pump()
        count = accessible.get_character_count()
        selections = []
        for index in range(accessible.get_n_selections()):
            span = accessible.get_selection(index)
            if span.end_offset > span.start_offset:
                selections.append([span.start_offset, span.end_offset])
        return {
            "text": accessible.get_text(0, count),
            "caret": accessible.get_caret_offset(),
            "selections": selections,
        }

    def character_boxes(self, request: dict[str, Any]) -> dict[str, Any]:
        """Screen boxes of the characters at ``offsets`` of one element, corrected like the
        element's own box; all requests go out at once. None for an offset without a box."""
        index = int(request["id"])
        accessible = self.element(request)
        dx, dy = self.object_offsets[index]
        calls = [
            (
                accessible.app.bus_name,
                accessible.path,
                "org.a11y.atspi.Text",
                "GetCharacterExtents",
                GLib.Variant("(iu)", (int(offset), SCREEN)),
                "(iiii)",
            )
            for offset in request["offsets"]
        ]
        boxes: list[list[int] | None] = []
        for reply in self.batch_calls(calls):
            if reply is None or reply[2] <= 0 or reply[3] <= 0:
                boxes.append(None)
            else:
                boxes.append([reply[0] + dx, reply[1] + dy, reply[2], reply[3]])
        return {"boxes": boxes}

    def select_range(self, request: dict[str, Any]) -> dict[str, Any]:
        """Select characters [start, end) of one element through its Text interface."""
        accessible = self.element(request)
        start, end = int(request["start"]), int(request["end"])
        if accessible.get_n_selections() > 0:
            ok = accessible.set_selection(0, start, end)
        else:
            ok = accessible.add_selection(start, end)
        return {"ok": bool(ok)}

    def do_action(self, request: dict[str, Any]) -> dict[str, Any]:
        """Invoke an element's named (or first) accessible action, e.g. press a button."""
        accessible = self.element(request)
        wanted = request.get("action")
        for index in range(accessible.get_n_actions()):
            if wanted is None or accessible.get_action_name(index) == wanted:
                return {"ok": bool(accessible.do_action(index))}
        raise LookupError(f"element has no action {wanted!r}")

    def applications_request(self, request: dict[str, Any]) -> dict[str, Any]:
        self.pump()
        apps = []
        for app in self.applications():
            try:
                apps.append({"name": app.get_name() or "", "pid": app.get_process_id()})
            except GLib.Error:
                continue
        return {"applications": apps}

    def windows_request(self, request: dict[str, Any]) -> dict[str, Any]:
        self.pump()
        windows = []
        for app, window in self.top_levels():
            try:
                windows.append(
                    {
                        "app": app.get_name() or "",
                        "pid": app.get_process_id(),
                        "role": window.get_role_name(),
                        "name": window.get_name() or "",
                        "active": window.get_state_set().contains(Atspi.StateType.ACTIVE),
                    }
                )
            except GLib.Error:
                continue
        return {"windows": windows}

    def events_request(self, request: dict[str, Any]) -> dict[str, Any]:
        self.pump()
        return {"events": self.events}

    def tab_texts(self, request: dict[str, Any]) -> dict[str, Any]:
        """The editable multi-line text of every tab of the top-level windows named ``titles``.

        A tabbed editor's window title speaks only for the tab in front; the documents behind the
        other tabs are read here too, so a caller can tell which of them hold unsaved work. One
        ``GetMatches`` per window finds the text views (the application walks its own tree), each
        is matched to the tab around it, and the texts, tab names and tab states are fetched
        together, past libatspi's cache: GTK names a new tab after it announced it, without an
        event, so the cache would keep the tab nameless. A window without tabs counts as one
        selected tab named after the window.
        """
        self.pump()
        wanted = set(request["titles"])
        found: list[tuple[str, Any, Any]] = []  # window title, tab (None: no tabs), text view
        for _app, window in self.top_levels():
            try:
                title = window.get_name() or ""
                if title not in wanted:
                    continue
                found.extend((title, tab, text) for tab, text in self._tabs_of(window))
            except GLib.Error:
                continue  # the window closed while we looked at it
        calls: list[tuple[str, str, str, str, GLib.Variant | None, str]] = []
        for _title, tab, text in found:
            calls.append(
                (
                    text.app.bus_name,
                    text.path,
                    "org.a11y.atspi.Text",
                    "GetText",
                    GLib.Variant("(ii)", (0, -1)),
                    "(s)",
                )
            )
            if tab is not None:
                name = GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name"))
                calls.append(
                    (
                        tab.app.bus_name,
                        tab.path,
                        "org.freedesktop.DBus.Properties",
                        "Get",
                        name,
                        "(v)",
                    )
                )
                calls.append(
                    (
                        tab.app.bus_name,
                        tab.path,
                        "org.a11y.atspi.Accessible",
                        "GetState",
                        None,
                        "(au)",
                    )
                )
        replies = iter(self.batch_calls(calls))
        selected_bit = int(Atspi.StateType.SELECTED)
        tabs = []
        for title, tab, _text in found:
            text = next(replies)
            name, state = (next(replies), next(replies)) if tab is not None else (None, None)
            if text is None or (tab is not None and (name is None or state is None)):
                continue  # closed while we read it
            selected = tab is None or bool(
                state[0][selected_bit // 32] & (1 << (selected_bit % 32))
            )
            tabs.append(
                {
                    "window": title,
                    "name": title if tab is None else str(name[0]),
                    "selected": selected,
                    "text": text[0],
                }
            )
        return {"tabs": tabs}

    def _tabs_of(self, window: Any) -> list[tuple[Any, Any]]:
        """(page tab, text view) for each tab of ``window`` that holds an editable multi-line
        text view; (None, text view) once for a window without tabs."""
        matches = window.get_matches(self.text_rule, Atspi.CollectionSortOrder.CANONICAL, 0, True)
        tabs: list[tuple[Any, Any]] = []
        loose: list[Any] = []
        for text in matches:
            node = text.get_parent()
            while node is not None and node.get_role() not in (
                Atspi.Role.PAGE_TAB,
                *TOP_LEVEL_ROLES,
            ):
                node = node.get_parent()
            if node is not None and node.get_role() == Atspi.Role.PAGE_TAB:
                tabs.append((node, text))
            else:
                loose.append(text)
        if not tabs and loose:
            tabs.append((None, loose[0]))
        return tabs


def serve(stdin: Any, stdout: Any) -> None:
    worker = Worker()
    handlers: dict[str, Handler] = {
        "elements": worker.read,
        "text": worker.text,
        "do_action": worker.do_action,
        "text_state": worker.text_state,
        "character_boxes": worker.character_boxes,
        "select_range": worker.select_range,
        "applications": worker.applications_request,
        "windows": worker.windows_request,
        "events": worker.events_request,
        "tab_texts": worker.tab_texts,
    }
    serve_lines(stdin, stdout, dispatch_by_op(handlers))


def _any_gtk4(roots: list[tuple[Any, Any]]) -> bool:
    """Whether any root belongs to a GTK4 application."""
    for app, _window in roots:
        try:
            if (app.get_toolkit_name() or "").upper() == "GTK" and (
                app.get_toolkit_version() or ""
            ).startswith("4."):
                return True
        except GLib.Error:
            continue
    return False


def main() -> None:
    run_worker(lambda protocol_out: serve(sys.stdin, protocol_out))


if __name__ == "__main__":
    main()
