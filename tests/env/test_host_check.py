"""Reading a Host header, and which ones a server bound to an address answers."""

from __future__ import annotations

import pytest

from pcagent.env.host_check import AllowedHosts, split_host_header


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("LocalHost.:8765", ("localhost", 8765)),
        ("[::1]:8765", ("::1", 8765)),
        ("[0:0:0:0:0:0:0:1]", ("::1", None)),
        ("example.org", ("example.org", None)),
        ("127.0.0.1:", None),
        ("127.0.0.1:87a5", None),
        ("127.0.0.1:８７６５", None),  # full-width digits are not a port
        ("127.0.0.1:8765@evil.example", None),
        ("evil.example/127.0.0.1:8765", None),
        ("[::1", None),
        ("[::1]x", None),
        ("", None),
    ],
)
def test_host_headers_are_split_into_a_canonical_name_and_a_port(
    value: str, expected: tuple[str, int | None] | None
) -> None:
    assert split_host_header(value) == expected


def scope(host: bytes | None, port: int = 8765, scheme: str = "http") -> dict[str, object]:
    headers = [] if host is None else [(b"host", host)]
    return {"type": "http", "headers": headers, "server": ("127.0.0.1", port), "scheme": scheme}


def test_a_loopback_server_answers_its_port_under_every_loopback_name() -> None:
    allowed = AllowedHosts.for_bind("127.0.0.1")
    for host in (
        b"127.0.0.1:8765",
        b"localhost:8765",
        b"[::1]:8765",
        b"localhost.localdomain:8765",
    ):
        assert allowed.allows(scope(host)), host
    for host in (b"evil.example:8765", b"127.0.0.1:8766", b"127.0.0.1", b"127.0.0.2:8765", None):
        assert not allowed.allows(scope(host)), host
    # the scheme's own port may be left out
    assert allowed.allows(scope(b"localhost", port=80))
    assert allowed.allows(scope(b"localhost", port=443, scheme="https"))
    assert not allowed.allows(scope(b"localhost", port=443))
    # two Host headers: which one would a proxy have read?
    double = scope(b"localhost:8765")
    double["headers"] = [(b"host", b"localhost:8765"), (b"host", b"evil.example:8765")]
    assert not allowed.allows(double)


def test_a_server_on_another_address_answers_that_address_only() -> None:
    allowed = AllowedHosts.for_bind("192.0.2.7")
    remote = {"type": "http", "headers": [(b"host", b"192.0.2.7:8765")],
              "server": ("192.0.2.7", 8765), "scheme": "https"}  # fmt: skip
    assert allowed.allows(remote)
    remote["headers"] = [(b"host", b"localhost:8765")]
    assert not allowed.allows(remote)
    everywhere = AllowedHosts.for_bind("0.0.0.0")
    remote["headers"] = [(b"host", b"192.0.2.7:8765")]
    assert everywhere.allows(remote)  # the address the connection came in on
    remote["headers"] = [(b"host", b"evil.example:8765")]
    assert not everywhere.allows(remote)
