"""Serving the viewer on this machine only: the address check, the listening socket, uvicorn.

The viewer shows everything a run recorded (screens, typed text, prompts), so it listens on
127.0.0.1 and nowhere else, every request needs the token made at start, and a request whose
``Host`` header names anything but this machine's loopback interface and the viewer's port (a
page of another site that rebound its name to 127.0.0.1) is refused first
(:mod:`pcagent.env.host_check`).
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from pcagent.env.host_check import AllowedHosts, RejectOtherHosts
from pcagent.errors import ConfigurationError
from pcagent.viewer.layout import error_page

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765
_WRONG_HOST_PAGE = error_page(
    "Refused",
    "This viewer answers only the addresses of this machine's loopback interface (127.0.0.1, "
    "localhost) with its own port: open the address `pcagent view` printed.",
)


def loopback_host(host: str) -> str:
    """``127.0.0.1`` for ``127.0.0.1`` or ``localhost``; ConfigurationError for anything else."""
    if host.strip().lower() in (LOOPBACK, "localhost"):
        return LOOPBACK
    raise ConfigurationError(
        f"the viewer listens on {LOOPBACK} only, not on {host!r}: it shows everything the runs "
        "recorded (screens, typed text, prompts). Use --host 127.0.0.1 and reach it from "
        "another machine through an SSH tunnel (ssh -L 8765:127.0.0.1:8765 HOST)."
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host`` (checked by :func:`loopback_host`) and ``port``
    (0: any free port). Raises ConfigurationError when the port is taken."""
    address = loopback_host(host)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: without it a small answer on a kept-alive connection
    # waits ~40 ms for the client's delayed ACK (Nagle), longer than rendering most pages.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        listener.bind((address, port))
    except OSError as error:
        listener.close()
        raise ConfigurationError(
            f"cannot listen on {address}:{port} ({error.strerror}); choose another --port "
            "(--port 0 picks a free one)"
        ) from error
    listener.listen(64)
    listener.set_inheritable(True)
    return listener


@dataclass
class ViewerServer:
    """uvicorn serving ``app`` on an already bound ``listener``.

    :meth:`run` blocks until :meth:`stop` (from another thread) or Ctrl+C.
    """

    app: FastAPI
    listener: socket.socket

    def __post_init__(self) -> None:
        checked = RejectOtherHosts(
            self.app,
            AllowedHosts.for_bind(LOOPBACK),
            body=_WRONG_HOST_PAGE.encode(),
            media_type="text/html; charset=utf-8",
        )
        config = uvicorn.Config(
            checked,
            log_level="warning",
            access_log=False,
            # Live pages keep a stream open; shutting down must not wait for it.
            timeout_graceful_shutdown=1,
            lifespan="on",
        )
        self._server = uvicorn.Server(config)

    @property
    def port(self) -> int:
        return int(self.listener.getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def started(self) -> bool:
        return bool(self._server.started)

    def run(self) -> None:
        self._server.run(sockets=[self.listener])

    def stop(self) -> None:
        self._server.should_exit = True
