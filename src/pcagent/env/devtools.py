"""A DevTools client for the sandbox's running Chromium, through Playwright's ``connect_over_cdp``.

The browser is started with ``--remote-debugging-port=0`` (:mod:`pcagent.env.apps`): Chromium
picks a free port, listens on 127.0.0.1 only, and writes the port to ``DevToolsActivePort`` in
its profile folder, which is where this client looks for it. No port is chosen here, so two
sandboxes never collide, and a browser restarted on a new port is found again.

Playwright's synchronous API belongs to the thread that started it (another thread gets
greenlet's "Cannot switch to a different thread") and refuses to start in a thread that runs an
asyncio loop. A run may drive its sandbox from any thread (the benchmark runs one worker thread
per sandbox), so every Playwright call happens in one thread owned by this client: callers hand
it a job and wait for the answer.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pcagent.errors import AppInterfaceError
from pcagent.text import first_line

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

T = TypeVar("T")

#: File Chromium writes into its user-data folder: the port, then the browser's WebSocket path.
PORT_FILE = "DevToolsActivePort"


def read_port(profile: Path) -> int | None:
    """The DevTools port the browser using ``profile`` announced, or None when there is none."""
    try:
        first_line = (profile / PORT_FILE).read_text(encoding="utf-8").split("\n", 1)[0]
    except OSError:
        return None
    return int(first_line) if first_line.strip().isdigit() else None


class DevToolsClient:
    """One Playwright connection to the browser whose profile folder is ``profile``.

    ``run`` carries out a job on the connected :class:`~playwright.sync_api.Browser` in the
    client's own thread; the connection is made on first use and made again when the browser
    was restarted (another port) or the connection dropped. Failures of Playwright or the
    connection are :class:`AppInterfaceError`; other errors of the job pass through unchanged.
    """

    def __init__(self, profile: Path, connect_timeout: float = 10.0) -> None:
        self.profile = profile
        self.connect_timeout = connect_timeout
        self._worker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="pcagent-devtools"
        )
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._port: int | None = None

    def run(self, job: Callable[[Browser], T], timeout: float = 60.0) -> T:
        """``job(browser)`` in the client's thread; AppInterfaceError after ``timeout`` seconds
        (the job may still finish later; the next job waits for it)."""
        future = self._worker.submit(self._run_in_worker, job)
        try:
            return future.result(timeout=timeout)
        except concurrent.futures.TimeoutError as error:
            raise AppInterfaceError(f"the browser did not answer within {timeout:.0f}s") from error

    def close(self) -> None:
        """Drop the connection and stop Playwright's driver; the browser keeps running."""
        future = self._worker.submit(self._stop_in_worker)
        # Closing goes on whatever happened: the sandbox is being reset or closed, and a browser
        # that already ended makes the disconnect fail. Playwright's driver is our child process
        # and ends with our side of its pipe.
        with contextlib.suppress(Exception):
            future.result(timeout=15)
        self._worker.shutdown(wait=False, cancel_futures=True)

    # --- in the worker thread ---------------------------------------------------------------------

    def _run_in_worker(self, job: Callable[[Browser], T]) -> T:
        try:
            from playwright.sync_api import Error as PlaywrightError
        except ImportError as error:
            raise AppInterfaceError(
                "the Python package playwright is not installed (pip install playwright)"
            ) from error
        browser = self._connected()
        try:
            return job(browser)
        except PlaywrightError as error:
            message = f"the browser's DevTools interface failed: {first_line(error)}"
            raise AppInterfaceError(message) from error

    def _connected(self) -> Browser:
        """The connected browser, connecting (again) when needed."""
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        deadline = time.monotonic() + self.connect_timeout
        last_problem = f"the browser wrote no {PORT_FILE} into {self.profile}"
        while True:
            port = read_port(self.profile)
            browser = self._browser
            if port is not None and port == self._port and browser and browser.is_connected():
                return browser
            if port is not None:
                self._disconnect()
                try:
                    if self._playwright is None:
                        self._playwright = sync_playwright().start()
                    self._browser = self._playwright.chromium.connect_over_cdp(
                        f"http://127.0.0.1:{port}", timeout=self.connect_timeout * 1000
                    )
                    self._port = port
                    _keep_own_downloads(self._browser)
                    return self._browser
                except PlaywrightError as error:
                    # A port file left by a browser that has ended: the new one rewrites it.
                    last_problem = f"port {port}: {first_line(error)}"
            if time.monotonic() >= deadline:
                raise AppInterfaceError(f"cannot reach the browser's DevTools ({last_problem})")
            time.sleep(0.2)

    def _disconnect(self) -> None:
        browser, self._browser, self._port = self._browser, None, None
        if browser is not None and browser.is_connected():
            # Over CDP, close() only drops this client's connection: the browser stays open.
            browser.close()

    def _stop_in_worker(self) -> None:
        try:
            self._disconnect()
        finally:
            playwright, self._playwright = self._playwright, None
            if playwright is not None:
                playwright.stop()


def _keep_own_downloads(browser: Browser) -> None:
    """Give downloads back to the browser's own settings (the profile's ~/Downloads, no
    prompt): a DevTools client that connects makes them land in a temporary folder of its own
    (Playwright's), which a person never sees and which is deleted when the client goes."""
    session = browser.new_browser_cdp_session()
    try:
        session.send("Browser.setDownloadBehavior", {"behavior": "default"})
    finally:
        session.detach()
