"""One local HTTP(S) server for all the offline websites, with a log of every request.

Chromium in the sandbox reaches it through ``--host-resolver-rules`` (every host name goes to this
one port, see :meth:`OfflineWeb.chromium_flags`); the ``Host`` header picks the site. The same port
also speaks TLS: hosts on Chromium's built-in HSTS preload list (www.imdb.com) are only ever
fetched over https. The first byte of each connection tells the two apart (0x16 starts a TLS
handshake), and the certificate for the requested name (SNI) is made on the fly and signed by a
CA created at :meth:`OfflineWeb.start`; :func:`trust_ca_in_home` makes a sandbox HOME trust it.

Checkers read :meth:`OfflineWeb.requests`; the same entries go, one JSON object per line, to
:attr:`OfflineWeb.log_path` as they happen.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import socket
import ssl
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal, Self
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import BaseModel, ConfigDict

from pcagent.bench.web.certificates import CA_NICKNAME, CertificateAuthority
from pcagent.bench.web.sites import SITES, PageRequest, PageResponse, find_site, respond
from pcagent.env import processes
from pcagent.env.ownership import give_to_owner
from pcagent.errors import BenchError
from pcagent.lifecycle import StartStop
from pcagent.scratch import scratch_folder

logger = logging.getLogger(__name__)

_CONNECTION_TIMEOUT = 15.0  # seconds a connection may stay silent (Chromium pre-connects)
_MAX_BODY = 1 << 20  # bytes of a POST body read; forms here are tiny


class OfflineWebError(BenchError):
    """The offline web server could not start, or its CA could not be installed in a HOME."""


class WebRequest(BaseModel):
    """One request the offline web answered. ``host`` is lower case without port; ``path`` is
    percent-decoded without the query; ``form`` holds url-encoded POST fields."""

    model_config = ConfigDict(frozen=True)

    time: float  # seconds since the epoch
    method: str
    scheme: Literal["http", "https"]
    host: str
    path: str
    query: dict[str, list[str]] = {}
    form: dict[str, list[str]] = {}
    status: int


# --- the HTTP server ---------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, web: OfflineWeb, tls: ssl.SSLContext) -> None:
        super().__init__(("127.0.0.1", web.requested_port), _Handler)
        self.web = web
        self.tls = tls

    def finish_request(self, request: Any, client_address: Any) -> None:
        """Serve one connection, as TLS when its first byte starts a handshake."""
        connection = request
        try:
            request.settimeout(_CONNECTION_TIMEOUT)
            if request.recv(1, socket.MSG_PEEK) == b"\x16":
                connection = self.tls.wrap_socket(request, server_side=True)
            self.RequestHandlerClass(connection, client_address, self)
        except (OSError, ssl.SSLError) as error:
            # A pre-connected socket that was never used, or a client refusing the certificate.
            logger.debug("offline web connection from %s ended: %s", client_address, error)
        finally:
            if connection is not request:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_WR)
                connection.close()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"
    server_version = "pcagent-offline-web/1"
    timeout = _CONNECTION_TIMEOUT

    def do_GET(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("offline web: " + format, *args)

    def _serve(self) -> None:
        scheme: Literal["http", "https"] = (
            "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
        )
        target = urlsplit(self.path)
        host = _host_name(self.headers.get("Host") or target.netloc)
        query = parse_qs(target.query, keep_blank_values=True)
        form: dict[str, list[str]] = {}
        if self.command == "POST":
            length = min(int(self.headers.get("Content-Length") or 0), _MAX_BODY)
            body = self.rfile.read(length) if length > 0 else b""
            if self.headers.get_content_type() == "application/x-www-form-urlencoded":
                form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        page_request = PageRequest(
            method=self.command,
            path=unquote(target.path) or "/",
            query=query,
            form=form,
            scheme=scheme,
        )
        try:
            response = respond(host, page_request)
        except Exception:  # a site bug must show as a 500 in the log, not kill the connection
            logger.exception("offline web: %s %s%s failed", self.command, host, self.path)
            response = PageResponse(500, b"Internal error in the offline web.", "text/plain")
        self.server.web._record(
            WebRequest(
                time=time.time(),
                method=self.command,
                scheme=scheme,
                host=host,
                path=page_request.path,
                query=query,
                form=form,
                status=response.status,
            )
        )
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        # Every visit must reach the log: no page may come from the browser's cache.
        self.send_header("Cache-Control", "no-store")
        for name, value in response.headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD" and response.status not in (204, 304):
            self.wfile.write(response.body)


def _site_names(host: str) -> frozenset[str]:
    """``host`` and every other name of its site (none but ``host`` for an unknown host)."""
    site = find_site(host)
    return frozenset({host} if site is None else {site.host, *site.aliases})


def _host_name(header: str) -> str:
    """``WWW.IMDb.com:443`` -> ``www.imdb.com``; ``[::1]:80`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.partition(":")[0].rstrip(".")


# --- the public object -------------------------------------------------------------------------


class OfflineWeb(StartStop):
    """The offline websites on one local port; start it, point Chromium at it, read the log.

    ``directory`` holds the CA, the host certificates and the request log; by default a temporary
    folder removed again by :meth:`stop`. ``port`` 0 picks a free port.
    """

    def __init__(self, directory: Path | None = None, port: int = 0) -> None:
        self._given_directory = directory
        self.requested_port = port
        self._directory: Path | None = None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._ca: CertificateAuthority | None = None
        self._requests: list[WebRequest] = []
        self._lock = threading.Lock()

    # --- life cycle

    def start(self) -> Self:
        if self._server is not None:
            return self
        if self._given_directory is not None:
            self._given_directory.mkdir(parents=True, exist_ok=True)
            self._directory = self._given_directory
        else:
            self._directory = scratch_folder("web")
        self._ca = CertificateAuthority(self._directory)
        self.log_path.write_bytes(b"")
        try:
            self._server = _Server(self, self._ca.server_context())
        except OSError as error:
            raise OfflineWebError(
                f"the offline web could not listen on 127.0.0.1:{self.requested_port}: {error}. "
                "Use port 0 to pick a free port."
            ) from error
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.2},
            name="pcagent-offline-web",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; safe to call more than once. A temporary folder is removed."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._given_directory is None and self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)

    # --- where it is

    @property
    def port(self) -> int:
        if self._server is None:
            raise OfflineWebError("the offline web is not running; call start() first")
        return int(self._server.server_address[1])

    @property
    def directory(self) -> Path:
        if self._directory is None:
            raise OfflineWebError("the offline web is not running; call start() first")
        return self._directory

    @property
    def ca_pem_path(self) -> Path:
        """The local CA's certificate (PEM) that signs every host certificate."""
        return self.directory / "ca.pem"

    @property
    def log_path(self) -> Path:
        """The request log: one :class:`WebRequest` as JSON per line, appended as requests come."""
        return self.directory / "requests.jsonl"

    def url(self, host: str, path: str = "/") -> str:
        """The address of a page as the sandbox's browser sees it (``https://www.imdb.com/``):
        the site's usual scheme, no port (the resolver rule supplies it)."""
        site = find_site(host.lower())
        scheme = site.scheme if site is not None else "http"
        return f"{scheme}://{host}{path}"

    def chromium_flags(self) -> list[str]:
        """Command-line flags that send every host name Chromium looks up to this server."""
        return [f"--host-resolver-rules=MAP * 127.0.0.1:{self.port}"]

    def trust_in_home(self, home: Path) -> None:
        """Make applications started with this HOME trust the CA (see :func:`trust_ca_in_home`)."""
        trust_ca_in_home(home, self.ca_pem_path)

    @staticmethod
    def hosts() -> list[str]:
        """The canonical host names of the sites served."""
        return list(SITES)

    # --- the log

    def requests(self, host: str | None = None) -> list[WebRequest]:
        """Every request since start (or the last :meth:`clear_log`), oldest first; only those to
        ``host``'s site when given (its aliases too: "booking.com" is www.booking.com, as a
        person who typed either visited the same site)."""
        with self._lock:
            entries = list(self._requests)
        if host is not None:
            names = _site_names(host.lower())
            entries = [entry for entry in entries if entry.host in names]
        return entries

    def clear_log(self) -> None:
        """Forget every request so far (between episodes), in memory and in the log file."""
        with self._lock:
            self._requests.clear()
            self.log_path.write_bytes(b"")

    def _record(self, entry: WebRequest) -> None:
        with self._lock:
            self._requests.append(entry)
            with self.log_path.open("a", encoding="utf-8") as log:
                log.write(entry.model_dump_json() + "\n")


def read_log(path: Path) -> list[WebRequest]:
    """The requests in a log file written by :class:`OfflineWeb` (for another process)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [WebRequest.model_validate(json.loads(line)) for line in lines if line.strip()]


def trust_ca_in_home(home: Path, ca_pem: Path) -> None:
    """Add ``ca_pem`` as a trusted CA to the NSS database under ``home`` (``~/.pki/nssdb``), which
    Chromium reads at start; creates the database when missing. Start the browser afterwards.

    Raises :class:`MissingProgramError` without ``certutil`` (package libnss3-tools) and
    :class:`OfflineWebError` when certutil fails.
    """
    processes.require_programs(["certutil"])
    database = home / ".pki" / "nssdb"
    database.mkdir(parents=True, exist_ok=True)
    commands = []
    if not (database / "cert9.db").exists():
        commands.append(["-N", "--empty-password"])
    commands.append(["-A", "-t", "C,,", "-n", CA_NICKNAME, "-i", str(ca_pem)])
    for arguments in commands:
        result = subprocess.run(
            ["certutil", "-d", f"sql:{database}", *arguments],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if result.returncode != 0:
            raise OfflineWebError(
                f"certutil {' '.join(arguments[:1])} failed for {database}: "
                f"{(result.stderr or result.stdout).strip()}"
            )
    give_to_owner(database, home)  # the browser runs as HOME's owner and opens it read-write
