"""``pcagent serve`` refuses what it must before it starts a desktop."""

from __future__ import annotations

from typer.testing import CliRunner

from pcagent.cli import app


def test_a_public_address_without_allow_remote_is_refused_before_anything_starts(
    environment: dict[str, str], desktop_starts: list[str]
) -> None:
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0"], env=environment)
    assert result.exit_code == 2
    assert "not a loopback address" in result.output
    assert "--allow-remote" in result.output
    assert desktop_starts == []


def test_half_a_tls_pair_and_bad_ports_are_refused(
    environment: dict[str, str], desktop_starts: list[str]
) -> None:
    for arguments, message in (
        (["--tls-cert", "cert.pem"], "together"),
        (["--port", "70000"], "not a port number"),
        (["--host", "192.0.2.1", "--allow-remote", "--tls-cert", "no.pem", "--tls-key", "k"],
         "no such file"),
    ):  # fmt: skip
        result = CliRunner().invoke(app, ["serve", *arguments], env=environment)
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert desktop_starts == []
