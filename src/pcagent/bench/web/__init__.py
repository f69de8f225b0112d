"""Offline websites for benchmark tasks: a search engine, movie ratings, a paper archive, maps,
flight search and booking, five shops and a facts site (one module each in
:mod:`pcagent.bench.web.sites`), all served by one local :class:`OfflineWeb` that logs every
request for the checkers in :mod:`pcagent.bench.checks_web`.

The true values a task asks for live in :mod:`pcagent.bench.web.data`.
"""

from pcagent.bench.web.server import (
    OfflineWeb,
    OfflineWebError,
    WebRequest,
    read_log,
    trust_ca_in_home,
)

__all__ = ["OfflineWeb", "OfflineWebError", "WebRequest", "read_log", "trust_ca_in_home"]
