"""What the address bar makes of an agent's words: an address, or a search (no desktop)."""

from __future__ import annotations

import pytest

from pcagent.env.web_address import host_of, is_address, path_of, web_address
from pcagent.errors import InvalidActionError


def test_addresses_are_loaded_and_words_searched_for() -> None:
    assert web_address("search.local/?q=x") == "http://search.local/?q=x"
    assert web_address("https://www.imdb.com/") == "https://www.imdb.com/"
    assert web_address("localhost:8080/a") == "http://localhost:8080/a"
    # words, as the address bar takes them, search with the browser's own engine
    assert web_address("labour day 2025") == "http://search.local/?q=labour+day+2025"
    assert web_address("kyoto") == "http://search.local/?q=kyoto"
    assert web_address("localhost") == "http://localhost"
    for refused in ("javascript:alert(1)", "chrome://settings", "ftp://host/file", "data:,x"):
        with pytest.raises(InvalidActionError):
            web_address(refused)


def test_is_address_says_what_the_bar_would_load() -> None:
    for address in ("maps.local", " http://a b ", "localhost", "about:blank", "imdb.com/x"):
        assert is_address(address), address
    for words in ("Chromium", "the maps site", "labour day 2025", ""):
        assert not is_address(words), words


def test_an_address_with_a_bracket_in_its_host_is_refused_not_a_crash() -> None:
    """A rewording of pc25 (2026-12-05): an address with an unclosed "[" in its host made the
    address bar's parsing raise ValueError, and the whole run ended in an internal error."""
    for broken in ("https://[booking.com/flights", "https://booking.com]/x"):
        with pytest.raises(InvalidActionError, match="no web address"):
            web_address(broken)
        assert host_of(broken) is None and path_of(broken) == ""
    assert web_address("http://[::1]:8080/a") == "http://[::1]:8080/a"
    assert host_of("https://www.Booking.com/?from=[NYC]") == "www.booking.com"
    assert path_of("https://arxiv.org/abs/1706.03762") == "/abs/1706.03762"
