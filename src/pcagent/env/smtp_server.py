"""The life cycle shared by pcagent's two SMTP servers on this machine: the sandbox's mail relay
(:mod:`pcagent.env.mail_relay`, which holds messages) and the benchmark's sink
(:mod:`pcagent.bench.mail`, which stores them for checkers).

Both bind their socket before the server starts, so ``port=0`` picks any free port and no other
program can take it between choosing and listening; both run aiosmtpd in its own thread and free
the port before :meth:`LocalSmtpServer.stop` returns; both keep each message as a file that is
written whole before it appears under its name. What differs (the handler, what happens before
listening, the wording of errors) is left to the subclass.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path
from typing import Any, ClassVar, Self

from aiosmtpd.controller import Controller

from pcagent.lifecycle import StartStop

__all__ = ["LocalSmtpServer", "write_whole"]


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a hidden ``.part`` file beside it, so a reader (or a
    crash) never sees half a message under the real name."""
    temporary = path.with_name(f".{path.name}.part")
    temporary.write_bytes(data)
    temporary.replace(path)


class _BoundController(Controller):
    """A :class:`Controller` serving on a socket bound beforehand, so port 0 (any free port)
    works and no other program can take the port between choosing and listening."""

    def __init__(self, handler: Any, listening: socket.socket, **kwargs: Any) -> None:
        host, port = listening.getsockname()[:2]
        super().__init__(handler, hostname=host, port=port, **kwargs)
        self._listening = listening

    def _create_server(self) -> Any:
        return self.loop.create_server(self._factory_invoker, sock=self._listening)


class LocalSmtpServer(StartStop):
    """An aiosmtpd server on ``host:port`` in a thread of its own; subclasses give the handler
    (:meth:`_handler`), what to do before listening (:meth:`_prepare`), the error type they raise
    (:attr:`error`) and how its messages name the server (:attr:`label`)."""

    #: The error this server raises when it has no port, cannot listen or does not start.
    error: ClassVar[type[Exception]]
    #: The server as its error messages name it ("the mail relay").
    label: ClassVar[str]

    def __init__(self, *, host: str, port: int) -> None:
        self.host = host
        self._requested_port = port
        self._port: int | None = None
        self._controller: _BoundController | None = None
        self._listening: socket.socket | None = None

    # --- what a subclass gives -------------------------------------------------------------------

    def _handler(self) -> object:
        """The aiosmtpd handler that receives each message."""
        raise NotImplementedError

    def _prepare(self) -> None:
        """Called by :meth:`start` before the socket is bound (read or create the folder)."""

    def _no_port_error(self) -> Exception:
        return self.error(f"{self.label} has no port until start() is called")

    def _listen_error(self, error: OSError) -> Exception:
        return self.error(
            f"{self.label} cannot listen on {self.host}:{self._requested_port}: {error}; "
            "another program has the port (pass port=0 to use any free port)"
        )

    def _start_error(self, error: Exception) -> Exception:
        return self.error(f"{self.label} did not start: {error}")

    # --- life cycle ------------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port the server listens on; the subclass's error before :meth:`start`."""
        if self._port is None:
            raise self._no_port_error()
        return self._port

    @property
    def running(self) -> bool:
        return self._controller is not None

    def start(self) -> Self:
        """Listen; returns self. Starting a running server does nothing."""
        if self._controller is not None:
            return self
        self._prepare()
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listening.bind((self.host, self._requested_port))
            listening.listen()
        except OSError as error:
            listening.close()
            raise self._listen_error(error) from None
        controller = _BoundController(self._handler(), listening, loop=asyncio.new_event_loop())
        try:
            controller.start()
        except BaseException as error:
            with contextlib.suppress(Exception):
                controller.stop(no_assert=True)
            listening.close()
            if not controller.loop.is_closed():
                controller.loop.close()
            if isinstance(error, Exception):
                raise self._start_error(error) from error
            raise
        self._controller, self._listening = controller, listening
        self._port = listening.getsockname()[1]
        return self

    def stop(self) -> None:
        """Stop listening, end the server thread (waits for it) and free the port. The stored
        files stay. Stopping twice is fine."""
        controller, self._controller = self._controller, None
        listening, self._listening = self._listening, None
        if controller is None:
            return
        server = controller.server
        if server is not None:
            # Closed in the loop's own thread, before the loop stops, so the port is free when
            # stop() returns rather than when the socket object is collected.
            controller.loop.call_soon_threadsafe(server.close)
        controller.stop()
        if listening is not None:
            listening.close()
        if not controller.loop.is_closed():
            controller.loop.close()
