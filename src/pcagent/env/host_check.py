"""Which ``Host`` header a local HTTP server answers: a defence against DNS rebinding.

A web page from anywhere can make the browser of someone on this machine send requests to
``127.0.0.1``: it only needs a name of its own that first resolves to its server, then to
``127.0.0.1`` (DNS rebinding). The browser then believes it talks to the page's own site and lets
the page read the answers. What gives such a request away is its ``Host`` header, which still
names the page's site. ``pcagent serve`` and ``pcagent view`` therefore answer only requests whose
``Host`` names the address they listen on (for a loopback address, any name of the loopback
interface: ``127.0.0.1``, ``localhost``, ``[::1]``) with the port they listen on; anything else,
a missing header included, is refused with 421 (Misdirected Request) before any other check.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import KW_ONLY, dataclass
from typing import Any

from pcagent.env.remote_security import LOOPBACK_NAMES, is_loopback

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Names of the loopback interface a client on this machine may use for a loopback server.
LOOPBACK_HOSTS = frozenset({*LOOPBACK_NAMES, "127.0.0.1", "::1"})
#: Addresses that mean "every interface of this machine".
WILDCARD_ADDRESSES = frozenset({"", "0.0.0.0", "::"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _canonical(name: str) -> str:
    """A host name or address as compared: lower case, no trailing dot, no IPv6 brackets, an
    address in its shortest form."""
    text = name.strip().strip("[]").rstrip(".").lower()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


def split_host_header(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header value (``port`` None when it names none); None when
    the value is not a host and an optional port."""
    text = value.strip()
    if text.startswith("["):  # an IPv6 address: [::1]:8765
        address, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        name, port_text = address, rest[1:] if rest else ""
    else:
        name, colon, port_text = text.rpartition(":") if ":" in text else (text, "", "")
        if colon and not port_text:
            return None
    if not name or any(char.isspace() or char in "/@?#" for char in name):
        return None
    if port_text and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        return None
    return _canonical(name), int(port_text) if port_text else None


@dataclass(frozen=True)
class AllowedHosts:
    """The names a request's ``Host`` may give for a server listening on one address."""

    #: Canonical names and addresses (see :func:`_canonical`).
    names: frozenset[str]
    #: The server listens on every interface: the address a connection came in on also counts.
    any_local_address: bool = False

    @classmethod
    def for_bind(cls, host: str) -> AllowedHosts:
        """What a server bound to ``host`` answers: the loopback names for a loopback address;
        the address itself, this machine's name and, for a wildcard address, whichever local
        address a connection arrives at."""
        names = {_canonical(host)} - {""}
        if is_loopback(host):
            return cls(frozenset(names | LOOPBACK_HOSTS))
        # This machine's name, unless it is only another name of the loopback interface.
        names |= {_canonical(socket.gethostname())} - LOOPBACK_HOSTS
        if host.strip().strip("[]") in WILDCARD_ADDRESSES:
            return cls(frozenset(names | LOOPBACK_HOSTS), any_local_address=True)
        return cls(frozenset(names))

    def allows(self, scope: Scope) -> bool:
        """Whether the ASGI request ``scope`` names this server, and its port, in one ``Host``."""
        values = [value for name, value in scope.get("headers", []) if name == b"host"]
        if len(values) != 1:
            return False
        parsed = split_host_header(values[0].decode("latin-1"))
        if parsed is None:
            return False
        name, port = parsed
        server = scope.get("server")
        if server is not None:
            local_address, local_port = server[0], server[1]
            if port is None:  # a client leaves out the scheme's default port only
                port = _DEFAULT_PORTS.get(scope.get("scheme", "http"))
            if port != local_port:
                return False
            if self.any_local_address and name == _canonical(str(local_address)):
                return True
        return name in self.names

    def describe(self) -> str:
        """The accepted names, for an error message."""
        return ", ".join(sorted(self.names))


@dataclass(eq=False)
class RejectOtherHosts:
    """ASGI middleware: requests whose ``Host`` :class:`AllowedHosts` refuses get ``status`` with
    ``body`` (of ``media_type``) and a closed connection; everything else, lifespan events
    included, goes on to ``app``."""

    app: ASGIApp
    allowed: AllowedHosts
    _: KW_ONLY
    body: bytes
    media_type: str
    status: int = 421

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.allowed.allows(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        headers = [
            (b"content-type", self.media_type.encode()),
            (b"content-length", str(len(self.body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": self.body})
