"""``pcagent view``: a local web viewer of run records, benchmark results and page graphs.

Server-rendered pages (:mod:`.run_pages`, :mod:`.other_pages`) over the run store, served by
FastAPI and uvicorn on 127.0.0.1 with a token (:mod:`.app`, :mod:`.server`). See
``docs/viewer.md``.
"""

from pcagent.viewer.app import check_sources, create_app
from pcagent.viewer.app_state import ViewerSources
from pcagent.viewer.server import ViewerServer, bind, loopback_host

__all__ = [
    "ViewerServer",
    "ViewerSources",
    "bind",
    "check_sources",
    "create_app",
    "loopback_host",
]
