"""One offline web server per test module, with an empty request log for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pcagent.bench.web import OfflineWeb


@pytest.fixture(scope="module")
def web() -> Iterator[OfflineWeb]:
    with OfflineWeb() as server:
        yield server


@pytest.fixture(autouse=True)
def _fresh_log(web: OfflineWeb) -> None:
    web.clear_log()
