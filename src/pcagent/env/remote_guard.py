"""What stands in front of a served environment: the request guard, the audit log, the bounds,
and the gate that lets one environment call through at a time.

Every request meets :class:`RequestGuard` first (``Host``, token, body size and time), and every
environment call goes through :class:`EnvironmentGate`; a request they refuse gets a
:class:`Refusal`, a typed JSON error, and one line in the :class:`AuditLog`. See
:mod:`pcagent.env.remote_server` for the order in which they apply.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from fastapi.responses import JSONResponse

from pcagent.env.host_check import AllowedHosts
from pcagent.env.remote_api import (
    API_PREFIX,
    ErrorBody,
)

T = TypeVar("T")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HEALTH_PATH = f"{API_PREFIX}/health"


@dataclass(frozen=True)
class ServerLimits:
    """The server's bounds. Times in seconds, sizes in bytes."""

    #: Largest request body; an action is a few hundred bytes, ten thousand typed characters
    #: about 60 kB.
    max_body_bytes: int = 1_000_000
    #: The whole body must have arrived within this (a client that trickles it is refused).
    body_timeout: float = 10.0
    #: How long a request waits for the environment while another request uses it.
    busy_wait: float = 5.0
    #: Longest an action may run (a wait is at most 60 s; opening LibreOffice takes seconds).
    action_timeout: float = 120.0
    #: Longest an observation, a reset or a text call may take.
    call_timeout: float = 60.0
    #: Longest a reset may take (it ends every application and restores HOME).
    reset_timeout: float = 120.0


class Refusal(Exception):
    """A request refused with an HTTP status and an :class:`ErrorBody`."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = ErrorBody(error=code, message=message, details=details or [])
        self.headers = headers or {}

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.body.model_dump(mode="json"), status_code=self.status, headers=self.headers
        )


# --- audit log -----------------------------------------------------------------------------------


class AuditLog:
    """One JSON line per request: time, client, method, path, status, action kind, error code,
    duration. Created with mode 0600; lines are appended and flushed one by one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600, exist_ok=True)
        path.chmod(0o600)
        self._lock = threading.Lock()

    def write(self, entry: dict[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False, default=str)
        # A path or action kind that is not text (a lone surrogate) is escaped, not a failure.
        with self._lock, self.path.open("a", encoding="utf-8", errors="backslashreplace") as file:
            file.write(line + "\n")


# --- the guard in front of every route -----------------------------------------------------------


class RequestGuard:
    """ASGI middleware: audit, ``Host``, token, body size and body time, before any route runs.

    The body is read here, up to the limit, and handed to the route from memory; a body
    announced (``Content-Length``) or found larger is refused with 413 without reading the rest,
    and one that does not arrive within ``body_timeout`` with 408. Both close the connection.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str,
        limits: ServerLimits,
        audit: AuditLog,
        hosts: AllowedHosts,
    ) -> None:
        self.app = app
        self._token = token.encode()
        self.limits = limits
        self.audit = audit
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        state: dict[str, Any] = scope.setdefault("state", {})
        status = {"code": 0}
        logged = False

        def log() -> None:
            nonlocal logged
            logged = True
            client = scope.get("client")
            self.audit.write(
                {
                    "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                    "client": f"{client[0]}:{client[1]}" if client else "",
                    "method": scope.get("method", ""),
                    "path": scope.get("path", ""),
                    "status": status["code"],
                    "action": state.get("action_kind", ""),
                    "error": state.get("error", ""),
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                }
            )

        async def send_logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                log()  # before the last byte leaves: a client that got its answer finds the line
            await send(message)

        try:
            try:
                self._check_host(scope)
                self._check_token(scope)
                body = await self._read_body(scope, receive)
            except Refusal as refusal:
                state["error"] = refusal.body.error
                await refusal.response()(scope, receive, send_logged)
                return
            delivered = False

            async def replay() -> Message:
                nonlocal delivered
                if not delivered:
                    delivered = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send_logged)
        finally:
            if not logged:  # no answer went out (the client left, or the route failed)
                log()

    def _check_host(self, scope: Scope) -> None:
        if not self.hosts.allows(scope):
            raise Refusal(
                421,
                "wrong_host",
                "the Host header must name the address and port this server listens on "
                f"({self.hosts.describe()}); a page of another site cannot use this server",
                headers={"Connection": "close"},
            )

    def _check_token(self, scope: Scope) -> None:
        if scope.get("path") == HEALTH_PATH:
            return
        presented = b""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                presented = value
                break
        scheme, _, token = presented.partition(b" ")
        # compare_digest on the whole token whatever the scheme says: no early exit reveals how
        # much of a guess was right.
        matches = hmac.compare_digest(token.strip(), self._token)
        if scheme.lower() != b"bearer" or not matches:
            raise Refusal(
                401,
                "unauthorized",
                "missing or wrong token: send the server's token as 'Authorization: Bearer "
                "<token>' (pcagent serve printed the file that holds it)",
                headers={"WWW-Authenticate": "Bearer"},
            )

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self.limits.max_body_bytes
        too_large = Refusal(
            413,
            "body_too_large",
            f"the request body is larger than {limit} bytes; send one action per request",
            headers={"Connection": "close"},
        )
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    raise Refusal(
                        400, "bad_request", "Content-Length is not a number",
                        headers={"Connection": "close"},
                    ) from None  # fmt: skip
                if announced > limit:
                    raise too_large
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.limits.body_timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise TimeoutError
                message = await asyncio.wait_for(receive(), remaining)
            except TimeoutError:
                raise Refusal(
                    408,
                    "body_timeout",
                    f"the request body did not arrive within {self.limits.body_timeout:g} s",
                    headers={"Connection": "close"},
                ) from None
            if message["type"] == "http.disconnect":
                raise Refusal(400, "disconnected", "the client went away while sending")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


# --- one environment call at a time --------------------------------------------------------------


class EnvironmentGate:
    """Runs the environment's calls one at a time, on one thread of their own.

    A caller waits at most ``busy_wait`` for the environment (then 429) and at most its call's
    time limit for the result (then 504); a call that runs past its limit keeps the environment
    busy until it ends, so the next caller gets 429 rather than a desktop in the middle of
    something.
    """

    def __init__(self, busy_wait: float) -> None:
        self.busy_wait = busy_wait
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pcagent-environment")

    def run(self, call: Callable[[], T], timeout: float, what: str) -> T:
        if not self._lock.acquire(timeout=self.busy_wait):
            raise Refusal(
                429,
                "busy",
                f"the environment is busy with another request (waited {self.busy_wait:g} s); "
                "try again when it has finished",
                headers={"Retry-After": "1"},
            )
        try:
            future: Future[T] = self._worker.submit(call)
        except BaseException:
            self._lock.release()
            raise
        future.add_done_callback(lambda _: self._lock.release())
        try:
            return future.result(timeout)
        except FutureTimeout:
            raise Refusal(
                504,
                "timeout",
                f"{what} did not finish within {timeout:g} s; it goes on, and the environment "
                "stays busy until it ends",
            ) from None

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


# --- the application -----------------------------------------------------------------------------
