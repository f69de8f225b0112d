"""The browser actions (open, read, click, fill) through the running Chromium's DevTools.

They act on the tab the user sees, in the browser the sandbox started: ``browser_open`` loads the
address in that tab, ``browser_click`` clicks with the mouse events Chromium would get from a
person, ``browser_fill`` types into the field; the window shows each change. Each reads its
effect back from the live page: the address after the load (and after redirects), the value now
in the field, the page having changed after a click or Enter. A click or an Enter that changes
nothing is a failed action, since nothing shows it did what was asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote

from pcagent.action_handlers import handles
from pcagent.app_actions import BrowserClick, BrowserFill, BrowserOpen, BrowserRead
from pcagent.env.app_interfaces import Interface
from pcagent.env.app_interfaces.browser_tabs import (
    ACTION_TIMEOUT_MS,
    LOAD_TIMEOUT_MS,
    element_at,
    finished_downloads,
    front_page,
    landed,
    page_state,
    page_text,
    page_view,
    wait_for_change,
)
from pcagent.env.app_interfaces.web_page import (
    Field,
    Target,
    choose,
    describe,
)
from pcagent.env.browser_profile import PROFILE
from pcagent.env.devtools import DevToolsClient
from pcagent.env.observation import ActionResult, WindowInfo
from pcagent.env.web_address import address_parts, web_address
from pcagent.errors import AppInterfaceError, InvalidActionError
from pcagent.text import date_as_hinted

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from pcagent.env.desktop_handle import DesktopHandle


class BrowserInterface(Interface):
    """The four browser actions over one DevTools connection, made on first use."""

    #: Seconds to wait for the browser's DevTools port to answer.
    connect_timeout = 10.0

    def __init__(self, sandbox: DesktopHandle) -> None:
        super().__init__(sandbox)
        self._client: DevToolsClient | None = None

    # --- the actions: each finds its window, then works on its page in the DevTools thread -----

    @handles(BrowserOpen)
    def _open_action(self, action: BrowserOpen) -> ActionResult:
        address = self._file_or_web_address(action.url)
        window = self.front("browser")  # the window the user sees; started when not open
        return self._on_page(window, lambda _browser, page: self._open(page, address, action.url))

    @handles(BrowserRead)
    def _read_action(self, action: BrowserRead) -> ActionResult:
        return self._on_page(self._open_window(), lambda _browser, page: self._read(page))

    @handles(BrowserClick)
    def _click_action(self, action: BrowserClick) -> ActionResult:
        return self._on_page(
            self._open_window(), lambda browser, page: self._click(browser, page, action.text)
        )

    @handles(BrowserFill)
    def _fill_action(self, action: BrowserFill) -> ActionResult:
        return self._on_page(
            self._open_window(), lambda browser, page: self._fill(browser, page, action)
        )

    def _open_window(self) -> WindowInfo:
        """The browser's window, brought to the front; an empty browser started now would have
        no page to read, click or fill."""
        found = self.sandbox.bring_to_front("browser")
        if found is None:
            raise AppInterfaceError("the browser is not open; open a page with browser_open first")
        return found

    def _on_page(
        self, window: WindowInfo, work: Callable[[Browser, Page], ActionResult]
    ) -> ActionResult:
        """``work`` on the page that ``window`` shows, over the DevTools connection."""
        if self._client is None:
            self._client = DevToolsClient(self.home / PROFILE, self.connect_timeout)
        return self._client.run(lambda browser: work(browser, front_page(browser, window.title)))

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    def _file_or_web_address(self, text: str) -> str:
        """Files (``file:`` addresses, absolute or ``~`` paths, and a path relative to HOME that
        names a file there) must lie in HOME. Why the last: a program opened
        "Documents/travel_plan2.txt" in the browser, which loaded the site "documents" three
        times (a rewording of pc06, 2026-11-28)."""
        stripped = text.strip()
        if stripped.lower().startswith("file:"):
            if (parts := address_parts(stripped)) is None:
                raise InvalidActionError(f"{stripped!r} is no file address")
            return self.path(unquote(parts.path)).as_uri()
        if stripped.startswith(("/", "~")):
            return self.path(stripped).as_uri()
        if "://" not in stripped and stripped and (self.home / stripped).is_file():
            return self.path(stripped).as_uri()
        return web_address(stripped)

    # --- the work of the actions, in the DevTools thread ------------------------------------------

    def _open(self, page: Page, address: str, asked: str) -> ActionResult:
        from playwright.sync_api import Error as PlaywrightError

        try:
            response = page.goto(address, wait_until="load", timeout=LOAD_TIMEOUT_MS)
        except PlaywrightError as error:
            reason = str(error).strip().splitlines()[0]
            raise AppInterfaceError(f"{address} did not load ({reason})") from error
        now = page.evaluate("() => location.href")
        failed = response is not None and not response.ok
        status = f" (HTTP {response.status})" if response is not None and failed else ""
        title = page.title()
        if now.rstrip("/") == address.rstrip("/"):
            message = f"opened {now}{status}: {title!r}"
        else:
            message = f"asked for {asked}; after redirects the page is {now}{status}: {title!r}"
        if failed:
            # The browser shows the site's error page; as a result, a failure the agent can
            # act on (another address, a search) rather than a success to build on.
            message += "; the site answered with an error: try another address or search for it"
        return ActionResult(
            ok=not failed,
            message=message,
            output=f"{title}\n{now}\n{page_text(page)}",
            verified=not failed,
        )

    def _read(self, page: Page) -> ActionResult:
        view = page_view(page)
        return ActionResult(
            ok=True,
            message=f"read {view.url}: {len(view.text)} characters of text, "
            f"{len(view.targets)} links and buttons, {len(view.fields)} fields",
            output=describe(view),
            verified=True,
        )

    def _click(self, browser: Browser, page: Page, text: str) -> ActionResult:
        view = page_view(page)
        target: Target = choose(
            text,
            view.targets,
            names=lambda t: (t.text,),
            identity=lambda t: t.href or t.index,
            what="link or button",
            whats="links or buttons",
            closest=True,
        )
        element = element_at(page, "targets", target.index)
        before = page_state(browser, page)
        downloads = self.home / "Downloads"
        files_before = finished_downloads(downloads)
        element.click(timeout=ACTION_TIMEOUT_MS)
        changed = wait_for_change(
            browser, page, before, lambda: sorted(finished_downloads(downloads) - files_before)
        )
        if isinstance(changed, list):
            names = ", ".join(changed)
            return ActionResult(
                ok=True,
                message=f'clicked {target.kind} "{target.text}"; downloaded {names} into Downloads',
                output=f"downloaded: {names}",
                verified=True,
            )
        if changed is None:
            raise AppInterfaceError(f'clicked "{target.text}" but the page did not change')
        url = changed.evaluate("() => location.href")
        tab = " in a new tab" if changed is not page else ""
        clicked = f'clicked {target.kind} "{target.text}"; the page{tab} is now {url}'
        return landed(changed, url, clicked)

    def _fill(self, browser: Browser, page: Page, action: BrowserFill) -> ActionResult:
        field: Field = choose(
            action.label,
            page_view(page).fields,
            names=lambda f: f.names,
            identity=lambda f: f.index,
            what="field",
            whats="fields",
            word_starts=True,
        )
        name = field.names[0] if field.names else field.type
        if field.type == "file":
            raise InvalidActionError(f'the field "{name}" takes a file, not text')
        element = element_at(page, "fields", field.index)
        note = ""
        if field.type in ("checkbox", "radio"):
            wanted = _ticked(action.value, field.type, name)
            if wanted or field.type == "checkbox":
                element.set_checked(wanted, timeout=ACTION_TIMEOUT_MS)
            elif element.is_checked():
                raise InvalidActionError(
                    f'"{name}" is a radio button: it is cleared by ticking another of its group; '
                    'give "true" to the one you want'
                )
            value = "checked" if element.is_checked() else "unchecked"
            filled = value == ("checked" if wanted else "unchecked")
        elif field.type == "select":
            options = element.evaluate("(el) => [...el.options].map((o) => o.text.trim())")
            if action.value.strip() not in options:
                listed = ", ".join(repr(option) for option in options[:30])
                raise InvalidActionError(
                    f'"{name}" has no option {action.value!r}; it has {listed}'
                )
            chosen = element.select_option(label=action.value, timeout=ACTION_TIMEOUT_MS)
            value = element.evaluate("(el) => el.selectedOptions[0]?.text || ''")
            filled = bool(chosen) and value.strip() == action.value.strip()
        else:
            text = _as_field_asks(action.value, field)
            element.fill(text, timeout=ACTION_TIMEOUT_MS)
            value = element.input_value()
            filled = value == text
            if text != action.value:
                note = f" (the date {action.value!r} written as the field asks)"
        if not filled:
            raise AppInterfaceError(f'the field "{name}" holds {value!r} after filling it')
        if not action.submit:
            return ActionResult(
                ok=True, message=f'"{name}" now holds {value!r}{note}', output=value, verified=True
            )
        before = page_state(browser, page)
        element.press("Enter", timeout=ACTION_TIMEOUT_MS)
        changed = wait_for_change(browser, page, before)
        if changed is None:
            raise AppInterfaceError(f'"{name}" holds {value!r}, but Enter did not change the page')
        url = changed.evaluate("() => location.href")
        sent = f'"{name}" filled with {value!r}{note} and submitted; the page is now {url}'
        return landed(changed, url, sent)


def _ticked(value: str, kind: str, name: str) -> bool:
    """Whether a checkbox or radio button is asked to be ticked (``true``/``yes``/``checked``)
    or left clear (``false``...). A radio button cannot be cleared on its own, only left clear:
    a planner that names every button of a group says which one it wants with "true" and the
    others with "false"."""
    word = value.strip().lower()
    if word in ("true", "yes", "on", "checked", "check", "1", "x"):
        return True
    if word in ("false", "no", "off", "unchecked", "uncheck", "0", ""):
        return False
    raise InvalidActionError(f'"{name}" is a {kind}: give "true" to tick it or "false" to clear it')


def _as_field_asks(value: str, field: Field) -> str:
    """A date written the way the field asks for dates (its placeholder says "YYYY-MM-DD"; a
    date input takes only that); any other value as given. A date copied from a mail ("14
    March 2025") was refused by a booking form that asked for 2025-03-14 (pc16,
    2026-11-28)."""
    hints = ("YYYY-MM-DD",) if field.type == "date" else field.names
    return date_as_hinted(value, hints) or value
