"""A small HTTP(S) client for tests of the offline web: every host name goes to 127.0.0.1, as
Chromium's resolver rule sends it, and https is verified against the server's own CA."""

from __future__ import annotations

import html
import http.client
import re
import socket
import ssl
from urllib.parse import urlencode, urlsplit

from pcagent.bench.web import OfflineWeb


class MappedHTTPConnection(http.client.HTTPConnection):
    """Connects to 127.0.0.1 whatever the host name, as Chromium's resolver rule does."""

    def connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)


class MappedHTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def fetch(
    web: OfflineWeb, url: str, form: dict[str, str] | None = None
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """GET (or POST ``form``) ``url`` on the offline web; https verified against its CA."""
    parts = urlsplit(url)
    assert parts.hostname is not None
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=str(web.ca_pem_path))
        connection = MappedHTTPSConnection(parts.hostname, web.port, context=context, timeout=10)
    else:
        connection = MappedHTTPConnection(parts.hostname, web.port, timeout=10)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        if form is None:
            connection.request("GET", target)
        else:
            connection.request(
                "POST",
                target,
                body=urlencode(form),
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def html_title(body: bytes) -> str:
    match = re.search(rb"<title>(.*?)</title>", body)
    assert match, body[:200]
    return html.unescape(match[1].decode())


def page_text(body: bytes) -> str:
    """The text a reader sees: tags dropped, entities decoded, runs of spaces made one."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", body.decode()))
    return " ".join(text.split())


def search_links(body: bytes) -> list[str]:
    """The result links of a search.local page, best first."""
    return [html.unescape(url) for url in re.findall(r'<a href="([^"]+)"><h3>', body.decode())]
