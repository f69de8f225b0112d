"""X11 facts about one display: its windows, the focused one, and screenshots.

Uses one python-xlib connection and one mss grabber per display, both opened with the display name
explicitly, so a program can look at several sandboxes at once without touching ``DISPLAY``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

import mss
from PIL import Image
from Xlib import X, Xatom, display
from Xlib.error import XError

from pcagent.env.observation import Box, WindowInfo

#: One connection opened at a time per process: sandboxes in threads (``bench run --parallel``)
#: would otherwise swap each other's cookie in between setting it and connecting.
_XAUTHORITY_LOCK = threading.RLock()


@contextlib.contextmanager
def xauthority_for_connecting(xauthority: str | None) -> Iterator[None]:
    """Point this process's XAUTHORITY at ``xauthority`` while an X connection is opened.

    python-xlib and libX11 (used by mss) only read the cookie file named by XAUTHORITY, and each
    sandbox has its own cookie; the previous value is put back afterwards.
    """
    with _XAUTHORITY_LOCK:
        previous = os.environ.get("XAUTHORITY")
        if xauthority:
            os.environ["XAUTHORITY"] = xauthority
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("XAUTHORITY", None)
            else:
                os.environ["XAUTHORITY"] = previous


def open_display(name: str, xauthority: str | None) -> display.Display:
    """Connect to display ``name`` with the cookie in ``xauthority``."""
    with xauthority_for_connecting(xauthority):
        return display.Display(name)


class X11Display:
    """A connection to one X display (``:N``)."""

    def __init__(self, name: str, xauthority: str | None = None) -> None:
        self.name = name
        self._xauthority = xauthority
        self._display = open_display(name, xauthority)
        self._root = self._display.screen().root
        self._atoms: dict[str, int] = {}
        self._grabber: Any = None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._display.close()
        if self._grabber is not None:
            with contextlib.suppress(Exception):
                self._grabber.close()
            self._grabber = None

    @property
    def size(self) -> tuple[int, int]:
        screen = self._display.screen()
        return (screen.width_in_pixels, screen.height_in_pixels)

    def _atom(self, name: str) -> int:
        if name not in self._atoms:
            self._atoms[name] = self._display.intern_atom(name)
        return self._atoms[name]

    def _property(self, window: Any, name: str, kind: int = X.AnyPropertyType) -> Any:
        try:
            reply = window.get_full_property(self._atom(name), kind)
        except XError:
            return None
        return reply.value if reply is not None else None

    def _title(self, window: Any) -> str:
        value = self._property(window, "_NET_WM_NAME", self._atom("UTF8_STRING"))
        if value is None:
            value = self._property(window, "WM_NAME", Xatom.STRING)
        if value is None:
            return ""
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return str(value)

    def _info(self, window_id: int) -> WindowInfo | None:
        window = self._display.create_resource_object("window", window_id)
        try:
            geometry = window.get_geometry()
            origin = window.translate_coords(self._root, 0, 0)
            wm_class = window.get_wm_class() or ("", "")
        except XError:
            return None
        pid_value = self._property(window, "_NET_WM_PID", Xatom.CARDINAL)
        return WindowInfo(
            window_id=window_id,
            title=self._title(window),
            app_class=wm_class[1] if len(wm_class) > 1 else "",
            box=Box(x=-origin.x, y=-origin.y, width=geometry.width, height=geometry.height),
            pid=int(pid_value[0]) if pid_value is not None and len(pid_value) else None,
        )

    def windows(self) -> list[WindowInfo]:
        """Managed top-level windows, bottom to top in stacking order."""
        ids = self._property(self._root, "_NET_CLIENT_LIST_STACKING", Xatom.WINDOW)
        if ids is None:
            ids = self._property(self._root, "_NET_CLIENT_LIST", Xatom.WINDOW)
        result = []
        for window_id in ids if ids is not None else []:
            info = self._info(int(window_id))
            if info is not None:
                result.append(info)
        return result

    def focused_window(self, windows: list[WindowInfo] | None = None) -> WindowInfo | None:
        value = self._property(self._root, "_NET_ACTIVE_WINDOW", Xatom.WINDOW)
        if value is None or not len(value) or int(value[0]) == 0:
            return None
        active = int(value[0])
        for window in windows if windows is not None else self.windows():
            if window.window_id == active:
                return window
        return None

    def buttons_pressed(self) -> list[int]:
        """Mouse buttons (1-5) held down now: an action that pressed one must release it."""
        mask = self._root.query_pointer().mask
        return [number for number in range(1, 6) if mask & (X.Button1Mask << (number - 1))]

    def has_window_manager(self) -> bool:
        return self._property(self._root, "_NET_SUPPORTING_WM_CHECK", Xatom.WINDOW) is not None

    def screenshot(self) -> Image.Image:
        """The whole screen as an RGB image (screen pixels, no scaling)."""
        if self._grabber is None:
            factory = getattr(mss, "MSS", None) or mss.mss
            with xauthority_for_connecting(self._xauthority):
                self._grabber = factory(display=self.name)
        shot = self._grabber.grab(self._grabber.monitors[1])
        return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
