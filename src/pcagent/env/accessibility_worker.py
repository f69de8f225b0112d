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

import sys
from typing import Any

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

from pcagent.env.accessibility_elements import ElementReader  # noqa: E402
from pcagent.env.accessibility_roles import SCREEN, TOP_LEVEL_ROLES  # noqa: E402
from pcagent.env.worker_protocol import Handler, dispatch_by_op, run_worker  # noqa: E402
from pcagent.env.worker_protocol import serve as serve_lines  # noqa: E402


class Worker(ElementReader):
    """The requests about one element of the last answer, the texts of the editors' tabs, and
    the lists of applications and windows, on top of the element reading."""

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


def main() -> None:
    run_worker(lambda protocol_out: serve(sys.stdin, protocol_out))


if __name__ == "__main__":
    main()
