"""The accessibility worker's connection to the sandbox's AT-SPI bus: libatspi's cache and event
listener, the batched D-Bus calls, and the applications and top-level windows found on the bus.

Kept apart from what the worker reads (:mod:`pcagent.env.accessibility_elements`) so the fast
paths described in :mod:`pcagent.env.accessibility_worker` (cache, events, batched calls) sit in
one place. Runs inside the worker's process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

from pcagent.env.accessibility_roles import (  # noqa: E402
    CALL_TIMEOUT_MS,
    POPUP_ROLES,
    ROLES,
    TOP_LEVEL_ROLES,
    WINDOW_MANAGER_APPS,
)


class AccessibilityBus:
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
            chosen = _first(candidates, lambda app, window: window.get_name() == focused_title)
        if chosen is None:
            chosen = _first(
                candidates,
                lambda app, window: window.get_state_set().contains(Atspi.StateType.ACTIVE),
            )
        if chosen is None and focused_pid:
            # The newest window of the focused process: a dialog registers after its main window.
            chosen = _first(
                reversed(candidates), lambda app, window: app.get_process_id() == focused_pid
            )
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


def _first(
    candidates: Iterable[tuple[Any, Any]], test: Callable[[Any, Any], bool]
) -> tuple[Any, Any] | None:
    """The first (application, window) that passes ``test``; one whose accessible has gone
    (a GLib error on asking it) does not."""
    for app, window in candidates:
        try:
            if test(app, window):
                return (app, window)
        except GLib.Error:
            continue
    return None
