"""How the accessibility worker reads the elements of the focused window: one Collection search
per window (or a capped walk where that search never ends), then every box and text asked for at
once, and the answer reused while no event has come.

Runs inside the worker's process (see :mod:`pcagent.env.accessibility_worker`).
"""

from __future__ import annotations

import json
import time
from typing import Any

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

from pcagent.env.accessibility_bus import AccessibilityBus  # noqa: E402
from pcagent.env.accessibility_roles import (  # noqa: E402
    CHILD_CAP,
    HUGE_TABLE_WINDOWS,
    MAX_TEXT,
    NAMED_TEXT_ROLES,
    ROLE_SET,
    SCREEN,
    TEXT_ROLES,
    VISIBLE_CELL_CAP,
    WALK_NODE_CAP,
    WINDOW,
    extents_call,
)


class ElementReader(AccessibilityBus):
    """The reading of elements, on top of the bus connection."""

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

    def _matches(self, roots: list[tuple[Any, Any]]) -> list[tuple[Any, Any, Any]]:
        """(application, window, element) for each element worth showing in ``roots``."""
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
        return matches

    def _read_roots(
        self, roots: list[tuple[Any, Any]], origins: dict[str, list[int]]
    ) -> tuple[list[dict[str, Any]], list[Any], list[tuple[int, int]]]:
        matches = self._matches(roots)
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
            calls.append(extents_call(bus_name, path, SCREEN))
            window_extents = None
            if origin is not None:
                window_extents = len(calls)
                calls.append(extents_call(bus_name, path, WINDOW))
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
