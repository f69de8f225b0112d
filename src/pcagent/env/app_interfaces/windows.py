"""Raising one particular window of an application (a compose window behind the main window, a
document's window among several), which ``DesktopHandle.bring_to_front`` cannot: it raises an
application's topmost window."""

from __future__ import annotations

import contextlib
import subprocess
from typing import TYPE_CHECKING

from pcagent.env.observation import WindowInfo
from pcagent.errors import AppInterfaceError

if TYPE_CHECKING:
    from pcagent.env.desktop_handle import DesktopHandle


def raise_window(sandbox: DesktopHandle, window: WindowInfo) -> None:
    """Bring ``window`` to the front and wait for the screen to settle; :class:`AppInterfaceError`
    when it is not in front afterwards."""
    # A window manager slow to answer is no failure: whether the window is in front is checked
    # next.
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(
            ["xdotool", "windowactivate", "--sync", str(window.window_id)],
            env=sandbox.env,
            capture_output=True,
            timeout=10,
            check=False,
        )
    focused = sandbox.x11.focused_window()
    if focused is None or focused.window_id != window.window_id:
        raise AppInterfaceError(f"the window {window.title!r} could not be brought to the front")
    sandbox.wait_settled()
