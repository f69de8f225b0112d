"""Serving one environment over HTTP (``pcagent serve``): look, act, reset, nothing else.

The API (JSON, prefix ``/v1``; see ``docs/remote.md``):

- ``GET /v1/health`` — ``{"status": "ok"}``; the only route without the token, and it says
  nothing else.
- ``GET /v1/capabilities`` — :class:`~pcagent.env.remote_api.Capabilities`.
- ``GET /v1/observe`` — :class:`~pcagent.env.remote_api.ObservationPayload`; its screenshot comes
  from ``GET /v1/observations/{id}/screenshot?format=raw|png|jpeg&quality=NN`` as bytes.
- ``POST /v1/execute`` — one action as JSON, validated by :func:`pcagent.actions.parse_action`;
  returns the :class:`~pcagent.env.observation.ActionResult`.
- ``POST /v1/reset`` — the environment's reset.
- ``POST /v1/app-of-window``, ``GET /v1/text/{id}``, ``POST /v1/text/{id}/boxes``,
  ``POST /v1/text/{id}/select``, ``GET /v1/selection`` — the optional capabilities, when the
  environment has them.

What guards it, in the order a request meets them (the
:class:`~pcagent.env.remote_guard.RequestGuard`, then the routes of
:mod:`pcagent.env.remote_routes`): the ``Host`` header (the address and port the server listens
on, against DNS rebinding; see :mod:`pcagent.env.host_check`), the token (``Authorization:
Bearer``, compared in constant time), the body's size (announced and actual, refused before it
is all read) and the time it may take to arrive, the action's parsing (any body Python cannot
read is a JSON 422, see :mod:`pcagent.env.remote_body`) and validation, the paths an application
action names (inside HOME or refused), one environment call at a time (a second waits a bounded
time, then 429), and a time limit per call (504). Every request, refused or not, is one line of
the audit log; the token never is.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcagent.env.host_check import AllowedHosts
from pcagent.env.protocol import (
    Environment,
)
from pcagent.env.remote_guard import ASGIApp, AuditLog, EnvironmentGate, RequestGuard, ServerLimits
from pcagent.env.remote_routes import ServedEnvironment, environment_api


def create_app(
    environment: Environment,
    *,
    token: str,
    audit: AuditLog,
    limits: ServerLimits | None = None,
    description: str = "",
    share_home: bool = False,
    hosts: AllowedHosts,
) -> tuple[ASGIApp, EnvironmentGate]:
    """The ASGI application serving ``environment``, behind its :class:`RequestGuard`, and the
    gate its calls go through (close it after the server stopped).

    ``token`` is what clients must present; ``description`` goes into the capabilities.
    ``share_home`` tells clients the environment's HOME path (``served_home``); give it only for
    a loopback server, whose clients are on the same machine. ``hosts`` are the ``Host`` names
    answered (:meth:`AllowedHosts.for_bind` of the address the server listens on).
    """
    limits = limits or ServerLimits()
    gate = EnvironmentGate(limits.busy_wait)
    served = ServedEnvironment.of(environment, gate, limits)
    api = environment_api(served, description=description, share_home=share_home)
    guarded = RequestGuard(api, token=token, limits=limits, audit=audit, hosts=hosts)
    return guarded, gate


@dataclass(frozen=True)
class ServerFiles:
    """Where a server keeps its token and its audit log."""

    token: Path
    audit_log: Path


def uvicorn_server(
    app: ASGIApp,
    host: str,
    port: int,
    *,
    certificate: Path | None = None,
    key: Path | None = None,
    max_connections: int = 32,
) -> Any:
    """A :class:`uvicorn.Server` for ``app`` (not started). ``max_connections`` bounds the
    connections and requests open at once (beyond it: 503); idle connections close after 5 s,
    and request headers may not exceed 16 kB."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ssl_certfile=str(certificate) if certificate is not None else None,
        ssl_keyfile=str(key) if key is not None else None,
        log_level="warning",
        access_log=False,  # the audit log records every request
        limit_concurrency=max_connections,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,
        lifespan="off",
        ws="none",  # HTTP only: no WebSocket upgrade reaches the application
        server_header=False,
    )
    return uvicorn.Server(config)


class BackgroundServer:
    """A server for one environment on a thread of this process (tests, benchmarks, a program
    that serves while it does something else). Use as a context manager; ``url`` is known once
    it is entered (``port=0`` takes a free port)."""

    def __init__(
        self,
        environment: Environment,
        *,
        files: ServerFiles,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: ServerLimits | None = None,
        certificate: Path | None = None,
        key: Path | None = None,
        start_timeout: float = 10.0,
    ) -> None:
        from pcagent.env.remote_security import is_loopback, new_token

        self.token = new_token(files.token)
        self.files = files
        app, self._gate = create_app(
            environment,
            token=self.token,
            audit=AuditLog(files.audit_log),
            limits=limits,
            share_home=is_loopback(host),
            hosts=AllowedHosts.for_bind(host),
        )
        self._server = uvicorn_server(app, host, port, certificate=certificate, key=key)
        self._thread = threading.Thread(target=self._server.run, name="pcagent-serve", daemon=True)
        self._scheme = "https" if certificate is not None else "http"
        self._host = host
        self._start_timeout = start_timeout
        self.url = ""

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        deadline = time.monotonic() + self._start_timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self._server.should_exit = True
                raise RuntimeError(f"the server did not start on {self._host}")
            time.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.url = f"{self._scheme}://{self._host}:{port}"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._gate.close()
