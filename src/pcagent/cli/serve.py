"""``pcagent serve``: one environment (a fresh sandbox, or an existing display) over HTTP, for a
run on another machine (:func:`pcagent.env.remote_client.connect`).

The checks that need nothing started (the address, TLS) come first; then the desktop starts,
the token is written, and the server runs until Ctrl+C or SIGTERM, after which the sandbox is
closed by its context manager.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from pcagent.cli.errors import reports_errors
from pcagent.config import data_dir, load_config
from pcagent.env.protocol import LocalHome
from pcagent.env.remote_api import API_PREFIX
from pcagent.env.remote_security import check_bind, is_loopback, new_token
from pcagent.errors import RemoteServeError

console = Console(stderr=True)

#: The port ``pcagent serve`` listens on unless told otherwise.
DEFAULT_PORT = 8765


def serve_folder() -> Path:
    """Where the server keeps its token, audit log and session certificate."""
    return data_dir() / "serve"


HostOption = Annotated[
    str,
    typer.Option(help="Address to listen on. Anything but loopback needs --allow-remote and TLS."),
]
PortOption = Annotated[int, typer.Option(help="Port to listen on.")]
DisplayOption = Annotated[
    str | None,
    typer.Option(
        "--display",
        help="Serve this existing X display (e.g. :0) instead of a fresh sandbox "
        "(default: desktop.display).",
    ),
]
AllowRemoteOption = Annotated[
    bool,
    typer.Option(
        "--allow-remote",
        help="Allow a non-loopback --host (with TLS: the given certificate, or one made for "
        "the session).",
    ),
]
TlsCertOption = Annotated[Path | None, typer.Option("--tls-cert", help="TLS certificate (PEM).")]
TlsKeyOption = Annotated[Path | None, typer.Option("--tls-key", help="TLS private key (PEM).")]
TokenFileOption = Annotated[
    Path | None,
    typer.Option(
        "--token-file", help="Where to write the new token (default: DATA_DIR/serve/token)."
    ),
]
AuditLogOption = Annotated[
    Path | None,
    typer.Option("--audit-log", help="JSON-lines audit log (default: DATA_DIR/serve/audit.jsonl)."),
]
ActionTimeoutOption = Annotated[float, typer.Option(help="Longest one action may run, in seconds.")]
BusyWaitOption = Annotated[
    float,
    typer.Option(help="How long a request waits while another uses the desktop (then 429)."),
]


@reports_errors
def serve_command(
    host: HostOption = "127.0.0.1",
    port: PortOption = DEFAULT_PORT,
    display: DisplayOption = None,
    allow_remote: AllowRemoteOption = False,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    token_file: TokenFileOption = None,
    audit_log: AuditLogOption = None,
    action_timeout: ActionTimeoutOption = 120.0,
    busy_wait: BusyWaitOption = 5.0,
) -> None:
    """Serve one desktop over HTTP for a run on another machine (token, loopback by default)."""
    from pcagent.assembly import RunChoices, open_environment
    from pcagent.env.host_check import AllowedHosts
    from pcagent.env.remote_guard import AuditLog, ServerLimits
    from pcagent.env.remote_server import create_app, uvicorn_server

    if not 1 <= port <= 65535:
        raise RemoteServeError(f"--port {port} is not a port number (1..65535)")
    if action_timeout <= 0 or busy_wait < 0:
        raise RemoteServeError("--action-timeout must be positive and --busy-wait not negative")
    folder = serve_folder()
    tls = check_bind(
        host, allow_remote=allow_remote, tls_cert=tls_cert, tls_key=tls_key, tls_folder=folder
    )
    choices = RunChoices.of(load_config(), display=display)
    limits = ServerLimits(action_timeout=action_timeout, busy_wait=busy_wait)
    token_path = (token_file or folder / "token").expanduser()
    audit = AuditLog((audit_log or folder / "audit.jsonl").expanduser())
    with open_environment(choices, log=lambda note: console.print(note)) as environment:
        token = new_token(token_path)
        description = f"attached display {choices.display}" if choices.attached else "sandbox"
        # Only a client on this machine can use the HOME path (the benchmark writes fixtures
        # there and its checkers read it); elsewhere it would tell a stranger about this
        # machine's folders. An attached display's HOME is the user's own: never told.
        share_home = (
            is_loopback(host) and not choices.attached and isinstance(environment, LocalHome)
        )
        app, gate = create_app(
            environment,
            token=token,
            audit=audit,
            limits=limits,
            description=description,
            share_home=share_home,
            hosts=AllowedHosts.for_bind(host),
        )
        server = uvicorn_server(
            app,
            host,
            port,
            certificate=tls.certificate if tls else None,
            key=tls.key if tls else None,
        )
        scheme = "https" if tls else "http"
        console.print(f"serving {description} on {scheme}://{host}:{port}{API_PREFIX}")
        console.print(f"  token (new for this start): {token_path}")
        console.print(f"  audit log: {audit.path}")
        if share_home:
            console.print(
                f"  HOME (told to clients on this machine): {environment.home}", soft_wrap=True
            )
        if tls is not None:
            console.print(f"  TLS certificate: {tls.certificate} (SHA-256 {tls.fingerprint})")
        console.print("  stop with Ctrl+C")
        try:
            _run_until_stopped(server, host, port)
        finally:
            gate.close()
            token_path.unlink(missing_ok=True)  # the token dies with the server


def _run_until_stopped(server: Any, host: str, port: int) -> None:
    """Serve until Ctrl+C or SIGTERM (how a server is meant to stop: exit status 0); a server
    that could not listen is a clear error, and the sandbox is still closed on the way out."""
    try:
        server.run()
    except KeyboardInterrupt:
        console.print("stopped")
    except SystemExit:
        if server.started:
            raise
        raise RemoteServeError(
            f"could not listen on {host}:{port} (in use, or not an address of this machine); "
            "choose another --port or --host"
        ) from None
