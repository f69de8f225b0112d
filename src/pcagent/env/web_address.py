"""What the browser's address bar makes of what an agent wrote: an address to load, or words
to search for with the browser's own search engine.

Kept apart from the browser's interface (Playwright, DevTools) so that a skill can tell an
address from words before anything runs: ``open_page`` takes addresses only.
"""

from __future__ import annotations

from urllib.parse import SplitResult, quote_plus, urlsplit

from pcagent.env.browser_profile import SEARCH_URL
from pcagent.errors import InvalidActionError


def search_address(words: str) -> str:
    """The browser's own search engine's page of results for ``words``, whatever they look
    like: a search for "memo.txt" is a search, not the site memo.txt."""
    return SEARCH_URL.replace("{searchTerms}", quote_plus(words.strip()))


def web_address(text: str) -> str:
    """The address to load for what an agent wrote, as the address bar takes it: words that are
    no address (a space, or no dot, colon or slash: "labour day 2025") are a search with the
    browser's own search engine; ``example.test/a`` becomes http; http, https and about:blank
    are kept; other schemes are refused."""
    address = text.strip()
    if address == "about:blank":
        return address
    if _search_words(address):
        return search_address(address)
    parts = address_parts(address)
    if parts is None:
        raise InvalidActionError(
            f"{address!r} is no web address: its host cannot be read (an unclosed bracket, or "
            "characters no host name holds): open the site's address, or search for words"
        )
    scheme = parts.scheme.lower() if "://" in address else ""
    # "host:8080/path" parses as a scheme too: only these schemes without // are taken as one.
    prefix = address.split(":", 1)[0].lower()
    if not scheme and prefix in ("javascript", "data", "chrome", "about", "view-source", "blob"):
        scheme = prefix
    if not scheme:
        return f"http://{address}"
    if scheme in ("http", "https"):
        return address
    raise InvalidActionError(
        f"browser_open loads http(s) addresses and files in HOME, not {scheme}: addresses"
    )


def address_parts(address: str) -> SplitResult | None:
    """``address`` split into scheme, host, path and query; None where it cannot be. Why: an
    address with a bracket in its host ("https://[booking.com/..."), which a small model may
    write and a page may link to, makes ``urlsplit`` raise, and a whole run ended in an
    internal error in the middle of a benchmark run (a rewording of pc25, 2026-12-05)."""
    try:
        return urlsplit(address)
    except ValueError:
        return None


def host_of(address: str) -> str | None:
    """The host name of ``address`` (lower case), None where it has none or cannot be split."""
    parts = address_parts(address)
    return parts.hostname if parts is not None else None


def path_of(address: str) -> str:
    """The path of ``address`` ("" where it has none or cannot be split)."""
    parts = address_parts(address)
    return parts.path if parts is not None else ""


def is_address(text: str) -> bool:
    """Whether the address bar takes ``text`` as an address rather than words to search for:
    "example.org/news", "http://host", "localhost" are addresses; "Chromium" or "travel time"
    are searched for."""
    address = text.strip()
    return address == "about:blank" or not _search_words(address)


def _search_words(text: str) -> bool:
    if any(character.isspace() for character in text):
        return not text.lower().startswith(("http://", "https://"))
    return not any(mark in text for mark in ".:/") and text.lower() != "localhost"
