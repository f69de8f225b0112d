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

What guards it, in the order a request meets them (:class:`RequestGuard`, then the routes): the
``Host`` header (the address and port the server listens on, against DNS rebinding; see
:mod:`pcagent.env.host_check`), the token (``Authorization: Bearer``, compared in constant time), the body's size (announced and
actual, refused before it is all read) and the time it may take to arrive, the action's
parsing (any body Python cannot read is a JSON 422, see :mod:`pcagent.env.remote_body`) and
validation, the paths an application action names (inside HOME or refused), one environment call
at a time (a second waits a bounded time, then 429), and a time limit per call (504). Every
request, refused or not, is one line of the audit log; the token never is.
"""

from __future__ import annotations

import asyncio
import hmac
import io
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from PIL import Image
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool

from pcagent.actions import ActionParseError, parse_action
from pcagent.env.app_interfaces.paths import in_home
from pcagent.env.host_check import AllowedHosts
from pcagent.env.observation import WindowInfo
from pcagent.env.protocol import (
    ApplicationCatalog,
    ApplicationInterfaces,
    Environment,
    LocalHome,
    TextAccess,
)
from pcagent.env.remote_api import (
    API_PREFIX,
    ENVIRONMENT_KINDS,
    AppOfWindow,
    Capabilities,
    CharacterBoxesRequest,
    ErrorBody,
    ImageFormat,
    ObservationPayload,
    ResetResult,
    SelectionResult,
    SelectRangeRequest,
    SelectRangeResult,
    TextStatePayload,
    action_paths,
)
from pcagent.env.remote_body import UnreadableBody, parse_json_body
from pcagent.errors import (
    ActionExecutionError,
    InvalidActionError,
    PcAgentError,
    UnsupportedActionError,
)

T = TypeVar("T")
ModelT = TypeVar("ModelT", bound=BaseModel)

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


class _Refusal(Exception):
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
            except _Refusal as refusal:
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
            raise _Refusal(
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
            raise _Refusal(
                401,
                "unauthorized",
                "missing or wrong token: send the server's token as 'Authorization: Bearer "
                "<token>' (pcagent serve printed the file that holds it)",
                headers={"WWW-Authenticate": "Bearer"},
            )

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self.limits.max_body_bytes
        too_large = _Refusal(
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
                    raise _Refusal(
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
                raise _Refusal(
                    408,
                    "body_timeout",
                    f"the request body did not arrive within {self.limits.body_timeout:g} s",
                    headers={"Connection": "close"},
                ) from None
            if message["type"] == "http.disconnect":
                raise _Refusal(400, "disconnected", "the client went away while sending")
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
            raise _Refusal(
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
            raise _Refusal(
                504,
                "timeout",
                f"{what} did not finish within {timeout:g} s; it goes on, and the environment "
                "stays busy until it ends",
            ) from None

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


# --- the application -----------------------------------------------------------------------------


class _RecentScreenshots:
    """The screenshots of the latest few observations, fetched by id (a few, so that two clients
    observing in turn each still find their own)."""

    def __init__(self, keep: int = 4) -> None:
        self._lock = threading.Lock()
        self._keep = keep
        self._images: OrderedDict[str, Image.Image] = OrderedDict()

    def keep(self, image: Image.Image) -> str:
        with self._lock:
            observation_id = secrets.token_hex(8)
            self._images[observation_id] = image
            while len(self._images) > self._keep:
                self._images.popitem(last=False)
            return observation_id

    def get(self, observation_id: str) -> Image.Image:
        with self._lock:
            image = self._images.get(observation_id)
        if image is None:
            raise _Refusal(
                404,
                "no_such_observation",
                f"only the latest {self._keep} observations' screenshots are kept; observe again",
            )
        return image


def encode_screenshot(image: Image.Image, image_format: ImageFormat, quality: int) -> bytes:
    """The screenshot's bytes in ``image_format`` (``raw``: RGB, 3 bytes per pixel, rows top
    down). PNG is written at compression level 1: on a screen of flat colours it is nearly as
    small as level 6 and several times faster."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if image_format == "raw":
        return rgb.tobytes()
    buffer = io.BytesIO()
    if image_format == "png":
        rgb.save(buffer, format="PNG", compress_level=1)
    else:
        rgb.save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


_MEDIA_TYPES = {"raw": "application/octet-stream", "png": "image/png", "jpeg": "image/jpeg"}


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _check_json_request(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise _Refusal(
            415,
            "unsupported_media_type",
            f"send JSON with 'Content-Type: application/json' (got {media or 'none'!r}); "
            "nothing but typed JSON is accepted",
        )


def _parse_json(body: bytes) -> Any:
    try:
        return parse_json_body(body)
    except UnreadableBody as error:
        raise _Refusal(422, "invalid_json", str(error)) from None


async def _json_body(request: Request, model: type[ModelT]) -> ModelT:
    """The request's JSON body as ``model``; a JSON 422 for anything else."""
    _check_json_request(request)
    data = _parse_json(await request.body())
    try:
        return model.model_validate(data)
    except ValidationError as error:
        details = _json_safe([dict(item) for item in error.errors(include_input=False)])
        raise _Refusal(422, "invalid_request", _problems(details), details) from None


def _problems(details: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg')}"
        for item in details
    )


def _json_safe(details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    safe: list[dict[str, Any]] = json.loads(json.dumps(details, default=repr))
    return safe


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
    screenshots = _RecentScreenshots()
    catalog = environment if isinstance(environment, ApplicationCatalog) else None
    text = environment if isinstance(environment, TextAccess) else None
    home = environment.home if isinstance(environment, LocalHome) else None
    app_kinds = (
        environment.app_action_kinds() if isinstance(environment, ApplicationInterfaces) else ()
    )

    api = FastAPI(
        title="pcagent environment",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,  # nothing about the API is told to a client without the token
    )

    @api.exception_handler(_Refusal)
    async def refused(request: Request, refusal: _Refusal) -> Response:
        request.state.error = refusal.body.error
        return refusal.response()

    @api.exception_handler(RequestValidationError)
    async def invalid_parameters(request: Request, error: RequestValidationError) -> Response:
        # Without the inputs: the client has them, and a long one would only come back to it.
        details = _json_safe(
            [
                {key: value for key, value in item.items() if key != "input"}
                for item in error.errors()
            ]
        )
        return _Refusal(422, "invalid_request", _problems(details), details).response()

    @api.exception_handler(404)
    async def not_found(request: Request, error: Exception) -> Response:
        return _Refusal(404, "not_found", f"no such route: {request.url.path}").response()

    @api.exception_handler(405)
    async def wrong_method(request: Request, error: Exception) -> Response:
        return _Refusal(
            405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
        ).response()

    @api.get(HEALTH_PATH)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    def screen_size() -> tuple[int, int]:
        size = getattr(environment, "screen_size", None)
        if isinstance(size, tuple):
            return size
        return environment.observe().screen_size

    @api.get(f"{API_PREFIX}/capabilities")
    def capabilities() -> Response:
        width, height = gate.run(screen_size, limits.call_timeout, "reading the screen size")
        return _json(
            Capabilities(
                screen_width=width,
                screen_height=height,
                applications=list(catalog.applications()) if catalog is not None else None,
                app_action_kinds=sorted(app_kinds),
                text_access=text is not None,
                home_paths=home is not None,
                served_home=str(home) if share_home and home is not None else None,
                environment=description,
            )
        )

    @api.get(f"{API_PREFIX}/observe")
    def observe() -> Response:
        observation = gate.run(environment.observe, limits.call_timeout, "observing")
        width, height = observation.screen_size
        window_apps = (
            {window.window_id: catalog.app_of_window(window) for window in observation.windows}
            if catalog is not None
            else {}
        )
        payload = ObservationPayload(
            observation_id=screenshots.keep(observation.screenshot),
            width=width,
            height=height,
            elements=observation.elements,
            windows=observation.windows,
            focused_window=observation.focused_window,
            window_apps=window_apps,
            timestamp=observation.timestamp,
            timings_ms=observation.timings_ms,
        )
        return _json(payload)

    @api.get(f"{API_PREFIX}/observations/{{observation_id}}/screenshot")
    def screenshot(observation_id: str, format: ImageFormat = "png", quality: int = 80) -> Response:
        if not 1 <= quality <= 95:
            raise _Refusal(422, "invalid_request", "quality must be 1..95")
        image = screenshots.get(observation_id)
        data = encode_screenshot(image, format, quality)
        headers = {"X-Width": str(image.width), "X-Height": str(image.height)}
        return Response(data, media_type=_MEDIA_TYPES[format], headers=headers)

    @api.post(f"{API_PREFIX}/execute")
    async def execute(request: Request) -> Response:
        _check_json_request(request)
        data = _parse_json(await request.body())
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            request.state.action_kind = data["kind"][:60]
        try:
            action = parse_action(data, kinds=ENVIRONMENT_KINDS)
        except ActionParseError as error:
            raise _Refusal(422, "invalid_action", str(error), _json_safe(error.details)) from None
        for path in action_paths(action):
            if home is None:
                raise _Refusal(
                    422,
                    "path_outside_home",
                    f"{action.kind} names a file, and this environment has no HOME to hold it",
                )
            try:
                in_home(home, path)
            except InvalidActionError as error:
                raise _Refusal(422, "path_outside_home", str(error)) from None
        # The environment call blocks; run it off the event loop so other requests (health,
        # refusals) are still answered meanwhile.
        return await run_in_threadpool(_execute, action)

    def _execute(action: Any) -> Response:
        try:
            result = gate.run(
                lambda: environment.execute(action), limits.action_timeout, action.kind
            )
        except UnsupportedActionError as error:
            raise _Refusal(422, "unsupported_action", str(error)) from None
        except InvalidActionError as error:
            raise _Refusal(422, "invalid_action", str(error)) from None
        except ActionExecutionError as error:
            raise _Refusal(500, "execution_failed", str(error)) from None
        except PcAgentError as error:
            raise _Refusal(500, "environment_error", str(error)) from None
        return _json(result)

    @api.post(f"{API_PREFIX}/reset")
    def reset() -> Response:
        started = time.perf_counter()
        try:
            gate.run(environment.reset, limits.reset_timeout, "the reset")
        except PcAgentError as error:
            raise _Refusal(500, "environment_error", str(error)) from None
        return _json(ResetResult(duration_ms=(time.perf_counter() - started) * 1000))

    @api.post(f"{API_PREFIX}/app-of-window")
    async def app_of_window(request: Request) -> Response:
        if catalog is None:
            raise _Refusal(404, "not_offered", "this environment has no application catalog")
        window = await _json_body(request, WindowInfo)
        return _json(AppOfWindow(app=catalog.app_of_window(window)))

    def require_text() -> TextAccess:
        if text is None:
            raise _Refusal(404, "not_offered", "this environment offers no text access")
        return text

    def text_call(call: Callable[[], T]) -> T:
        try:
            return gate.run(call, limits.call_timeout, "the text operation")
        except PcAgentError as error:
            raise _Refusal(422, "text_failed", str(error)) from None

    @api.get(f"{API_PREFIX}/text/{{element_id}}")
    def text_state(element_id: int) -> Response:
        access = require_text()
        return _json(TextStatePayload(state=text_call(lambda: access.text_state(element_id))))

    @api.post(f"{API_PREFIX}/text/{{element_id}}/boxes")
    async def character_boxes(element_id: int, request: Request) -> Response:
        access = require_text()
        body = await _json_body(request, CharacterBoxesRequest)
        boxes = await run_in_threadpool(
            text_call, lambda: access.character_boxes(element_id, body.offsets)
        )
        return Response(
            json.dumps([box.model_dump() if box is not None else None for box in boxes]),
            media_type="application/json",
        )

    @api.post(f"{API_PREFIX}/text/{{element_id}}/select")
    async def select_text_range(element_id: int, request: Request) -> Response:
        access = require_text()
        body = await _json_body(request, SelectRangeRequest)
        selected = await run_in_threadpool(
            text_call, lambda: access.select_text_range(element_id, body.start, body.end)
        )
        return _json(SelectRangeResult(selected=selected))

    @api.get(f"{API_PREFIX}/selection")
    def primary_selection() -> Response:
        access = require_text()
        return _json(SelectionResult(text=text_call(access.primary_selection)))

    guarded = RequestGuard(api, token=token, limits=limits, audit=audit, hosts=hosts)
    return guarded, gate


# --- running it ----------------------------------------------------------------------------------


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
