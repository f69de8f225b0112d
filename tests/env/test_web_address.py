"""What the address bar makes of an agent's words: an address, or a search (no desktop)."""

from __future__ import annotations

import pytest

from pcagent.env.web_address import is_address, web_address
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
