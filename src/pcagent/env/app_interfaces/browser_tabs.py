"""The live tabs of the running Chromium, as the browser actions see them: which tab is in
front, what changed after a click or an Enter, and how the site answered the page it led to.

Kept apart from :mod:`pcagent.env.app_interfaces.browser`, which carries out the actions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pcagent.env.app_interfaces.web_page import (
    PAGE_SCRIPT,
    SIGNATURE_SCRIPT,
    PageView,
    normalise_lines,
)
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ElementHandle, Page

#: Milliseconds a page may take to load after an address, a click or Enter.
LOAD_TIMEOUT_MS = 30_000
#: Milliseconds a click or Enter has to show an effect (a new address, new content, a new tab).
CHANGE_TIMEOUT_MS = 8_000
#: Milliseconds Playwright waits for an element to be clickable or editable.
ACTION_TIMEOUT_MS = 5_000


#: Most characters of a page's text returned with ``browser_open`` and ``browser_click`` (what
#: the run shows as read, so that a search's results can be reported without a ``browser_read``
#: first: the small model searched, then clicked "Search" again and again instead of reading).
OPENED_TEXT_LIMIT = 1500


def page_text(page: Page) -> str:
    """The page's visible text, cut to :data:`OPENED_TEXT_LIMIT` characters."""
    text = normalise_lines(page_view(page).text)
    return text[:OPENED_TEXT_LIMIT] + " [...]" if len(text) > OPENED_TEXT_LIMIT else text


#: Characters of an error page's text quoted in the failure (the site's reasons come first).
REFUSAL_QUOTE = 300


def landed(page: Page, url: str, message: str) -> ActionResult:
    """The result of a click or a submission that led to ``page`` (at ``url``): a failure where
    the site answered the new page with an HTTP error. Why: a flight search whose cities were
    dates was answered "400: Unknown city or airport" and the run said "finished" on it (a
    rewording of pc25, 2026-12-04); a site's refusal is what a person reads first."""
    text = page_text(page)
    status = document_status(page)
    refused = status >= 400
    if refused:
        reasons = " ".join(text.split())[:REFUSAL_QUOTE]
        message += f"; the site answered HTTP {status}, refusing what was sent: {reasons!r}"
    return ActionResult(
        ok=not refused,
        message=message,
        output=f"{page.title()}\n{url}\n{text}",
        verified=not refused,
    )


def document_status(page: Page) -> int:
    """The HTTP status the page's document came with (Chromium's navigation timing); 0 where
    it has none (a file, a blank page, a page changed by its script alone)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        status = page.evaluate(
            "() => performance.getEntriesByType('navigation')[0]?.responseStatus ?? 0"
        )
    except PlaywrightError:
        return 0
    return status if isinstance(status, int) else 0


def front_page(browser: Browser, window_title: str) -> Page:
    """The tab the user sees: the one whose title the browser's window shows.

    Neither ``document.visibilityState`` nor ``document.hasFocus()`` tells: with Playwright
    connected every tab reports itself focused, and a tab left behind by a new one still said
    "visible" (measured). The window's title is the active tab's title; when several tabs share
    it, or none does (a page without a title), a visible one is taken, else the newest.
    """
    from playwright.sync_api import Error as PlaywrightError

    pages = [page for context in browser.contexts for page in context.pages]
    if not pages:
        raise AppInterfaceError("the browser has no open tab")
    shown_title = window_title.removesuffix(" - Chromium")
    titled = [page for page in pages if _title(page) == shown_title]
    if len(titled) == 1:
        return titled[0]
    for page in reversed(titled or pages):
        try:
            if page.evaluate("() => document.visibilityState") == "visible":
                return page
        except PlaywrightError:
            continue  # a tab that is closing or between two documents
    return (titled or pages)[-1]


def _title(page: Page) -> str | None:
    from playwright.sync_api import Error as PlaywrightError

    try:
        return page.title()
    except PlaywrightError:
        return None


def page_view(page: Page) -> PageView:
    return PageView.from_script(page.evaluate(PAGE_SCRIPT, {"list": "targets", "index": None}))


def element_at(page: Page, list_name: str, index: int) -> ElementHandle:
    """The element :data:`PAGE_SCRIPT` listed at ``index`` (the page may have changed since)."""
    element = page.evaluate_handle(PAGE_SCRIPT, {"list": list_name, "index": index}).as_element()
    if element is None:
        raise AppInterfaceError("the page changed before the element could be reached")
    return element


def page_state(browser: Browser, page: Page) -> tuple[frozenset[Page], list[object]]:
    """The open tabs and the page's signature, to compare with after a click or Enter."""
    tabs = frozenset(p for context in browser.contexts for p in context.pages)
    return tabs, page.evaluate(SIGNATURE_SCRIPT)


def finished_downloads(folder: Path) -> frozenset[str]:
    """Names of the files in the downloads folder, leaving out downloads still under way.

    Chromium writes a download first to a hidden file (".org.chromium.Chromium.XXXXXX"), then
    to "NAME.crdownload", and renames it to NAME when done; a click once reported the hidden
    name as the file it downloaded (2026-12-02), so neither counts until the rename."""
    if not folder.is_dir():
        return frozenset()
    return frozenset(
        p.name
        for p in folder.iterdir()
        if p.is_file() and not p.name.startswith(".") and not p.name.endswith(".crdownload")
    )


def wait_for_change(
    browser: Browser,
    page: Page,
    before: tuple[frozenset[Page], list[object]],
    downloaded: Callable[[], list[str]] = list,
) -> Page | list[str] | None:
    """The page that shows a change (a new tab, or ``page`` with another address or other
    content), loaded; or the names of files that ``downloaded`` reports finished (a link to a
    file changes no page); None when nothing changed within :data:`CHANGE_TIMEOUT_MS`."""
    from playwright.sync_api import Error as PlaywrightError

    tabs_before, signature_before = before
    waited = 0
    while waited <= CHANGE_TIMEOUT_MS:
        files = downloaded()
        if files:
            return files
        new_tabs = [p for c in browser.contexts for p in c.pages if p not in tabs_before]
        if new_tabs:
            new_tabs[-1].wait_for_load_state("load", timeout=LOAD_TIMEOUT_MS)
            return new_tabs[-1]
        try:
            changed = page.evaluate(SIGNATURE_SCRIPT) != signature_before
        except PlaywrightError:
            changed = False  # between two documents: the next look sees the new one
        if changed:
            page.wait_for_load_state("load", timeout=LOAD_TIMEOUT_MS)
            return page
        # Playwright's own wait: it lets the connection deliver events (new tabs) meanwhile.
        page.wait_for_timeout(100)
        waited += 100
    return None
