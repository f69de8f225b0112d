"""The routes of a served environment: observe, act, reset, and the optional capabilities.

Each family of routes is registered by its own function over the environment, the
:class:`~pcagent.env.remote_guard.EnvironmentGate` its calls go through and the server's bounds;
a route turns every failure into a typed :class:`~pcagent.env.remote_guard.Refusal`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool

from pcagent.actions import ActionParseError, parse_action
from pcagent.env.app_interfaces.paths import in_home
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
from pcagent.env.remote_guard import HEALTH_PATH, EnvironmentGate, Refusal, ServerLimits, T
from pcagent.env.remote_screenshots import MEDIA_TYPES, RecentScreenshots, encode_screenshot
from pcagent.errors import (
    ActionExecutionError,
    InvalidActionError,
    PcAgentError,
    UnsupportedActionError,
)

ModelT = TypeVar("ModelT", bound=BaseModel)


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _check_json_request(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refusal(
            415,
            "unsupported_media_type",
            f"send JSON with 'Content-Type: application/json' (got {media or 'none'!r}); "
            "nothing but typed JSON is accepted",
        )


def _parse_json(body: bytes) -> Any:
    try:
        return parse_json_body(body)
    except UnreadableBody as error:
        raise Refusal(422, "invalid_json", str(error)) from None


async def _json_body(request: Request, model: type[ModelT]) -> ModelT:
    """The request's JSON body as ``model``; a JSON 422 for anything else."""
    _check_json_request(request)
    data = _parse_json(await request.body())
    try:
        return model.model_validate(data)
    except ValidationError as error:
        details = _json_safe([dict(item) for item in error.errors(include_input=False)])
        raise Refusal(422, "invalid_request", _problems(details), details) from None


def _problems(details: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg')}"
        for item in details
    )


def _json_safe(details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    safe: list[dict[str, Any]] = json.loads(json.dumps(details, default=repr))
    return safe


@dataclass(frozen=True)
class ServedEnvironment:
    """The environment a server serves, the gate its calls go through, and the optional
    capabilities it has (None, or no kinds: not offered)."""

    environment: Environment
    gate: EnvironmentGate
    limits: ServerLimits
    catalog: ApplicationCatalog | None
    text: TextAccess | None
    home: Path | None
    app_kinds: Collection[str]

    @classmethod
    def of(
        cls, environment: Environment, gate: EnvironmentGate, limits: ServerLimits
    ) -> ServedEnvironment:
        """What ``environment`` offers, read from the protocols it implements."""
        return cls(
            environment,
            gate,
            limits,
            catalog=environment if isinstance(environment, ApplicationCatalog) else None,
            text=environment if isinstance(environment, TextAccess) else None,
            home=environment.home if isinstance(environment, LocalHome) else None,
            app_kinds=(
                environment.app_action_kinds()
                if isinstance(environment, ApplicationInterfaces)
                else ()
            ),
        )


def environment_api(served: ServedEnvironment, *, description: str, share_home: bool) -> FastAPI:
    """The routes serving ``served`` (without the guard: see
    :func:`pcagent.env.remote_server.create_app`)."""
    api = FastAPI(
        title="pcagent environment",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,  # nothing about the API is told to a client without the token
    )
    _answer_refusals(api)
    _add_observation_routes(api, served, description=description, share_home=share_home)
    _add_action_routes(api, served)
    _add_text_routes(api, served)
    return api


def _answer_refusals(api: FastAPI) -> None:
    """Every refusal, bad parameter, unknown route or wrong method as a typed JSON error."""

    @api.exception_handler(Refusal)
    async def refused(request: Request, refusal: Refusal) -> Response:
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
        return Refusal(422, "invalid_request", _problems(details), details).response()

    @api.exception_handler(404)
    async def not_found(request: Request, error: Exception) -> Response:
        return Refusal(404, "not_found", f"no such route: {request.url.path}").response()

    @api.exception_handler(405)
    async def wrong_method(request: Request, error: Exception) -> Response:
        return Refusal(
            405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
        ).response()


def _add_observation_routes(
    api: FastAPI, served: ServedEnvironment, *, description: str, share_home: bool
) -> None:
    """``health``, ``capabilities``, ``observe`` and an observation's screenshot."""
    environment, gate, limits = served.environment, served.gate, served.limits
    catalog, home = served.catalog, served.home
    screenshots = RecentScreenshots()

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
                app_action_kinds=sorted(served.app_kinds),
                text_access=served.text is not None,
                home_paths=home is not None,
                served_home=str(home) if share_home and home is not None else None,
                environment=description,
            )
        )

    @api.get(f"{API_PREFIX}/observe")
    def observe() -> Response:
        observation = gate.run(environment.observe, limits.call_timeout, "observing")
        window_apps = (
            {window.window_id: catalog.app_of_window(window) for window in observation.windows}
            if catalog is not None
            else {}
        )
        kept_as = screenshots.keep(observation.screenshot)
        return _json(ObservationPayload.of(observation, kept_as, window_apps))

    @api.get(f"{API_PREFIX}/observations/{{observation_id}}/screenshot")
    def screenshot(observation_id: str, format: ImageFormat = "png", quality: int = 80) -> Response:
        if not 1 <= quality <= 95:
            raise Refusal(422, "invalid_request", "quality must be 1..95")
        image = screenshots.get(observation_id)
        data = encode_screenshot(image, format, quality)
        headers = {"X-Width": str(image.width), "X-Height": str(image.height)}
        return Response(data, media_type=MEDIA_TYPES[format], headers=headers)


def _add_action_routes(api: FastAPI, served: ServedEnvironment) -> None:
    """``execute`` (an action, its paths checked against HOME), ``reset`` and
    ``app-of-window``."""
    environment, gate, limits, home = served.environment, served.gate, served.limits, served.home

    @api.post(f"{API_PREFIX}/execute")
    async def execute(request: Request) -> Response:
        _check_json_request(request)
        data = _parse_json(await request.body())
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            request.state.action_kind = data["kind"][:60]
        try:
            action = parse_action(data, kinds=ENVIRONMENT_KINDS)
        except ActionParseError as error:
            raise Refusal(422, "invalid_action", str(error), _json_safe(error.details)) from None
        for path in action_paths(action):
            _check_in_home(home, action.kind, path)
        # The environment call blocks; run it off the event loop so other requests (health,
        # refusals) are still answered meanwhile.
        return await run_in_threadpool(_execute, action)

    def _execute(action: Any) -> Response:
        try:
            result = gate.run(
                lambda: environment.execute(action), limits.action_timeout, action.kind
            )
        except UnsupportedActionError as error:
            raise Refusal(422, "unsupported_action", str(error)) from None
        except InvalidActionError as error:
            raise Refusal(422, "invalid_action", str(error)) from None
        except ActionExecutionError as error:
            raise Refusal(500, "execution_failed", str(error)) from None
        except PcAgentError as error:
            raise Refusal(500, "environment_error", str(error)) from None
        return _json(result)

    @api.post(f"{API_PREFIX}/reset")
    def reset() -> Response:
        started = time.perf_counter()
        try:
            gate.run(environment.reset, limits.reset_timeout, "the reset")
        except PcAgentError as error:
            raise Refusal(500, "environment_error", str(error)) from None
        return _json(ResetResult(duration_ms=(time.perf_counter() - started) * 1000))

    @api.post(f"{API_PREFIX}/app-of-window")
    async def app_of_window(request: Request) -> Response:
        if served.catalog is None:
            raise Refusal(404, "not_offered", "this environment has no application catalog")
        window = await _json_body(request, WindowInfo)
        return _json(AppOfWindow(app=served.catalog.app_of_window(window)))


def _check_in_home(home: Path | None, kind: str, path: str) -> None:
    """A path an application action names must lie inside the environment's HOME."""
    if home is None:
        raise Refusal(
            422,
            "path_outside_home",
            f"{kind} names a file, and this environment has no HOME to hold it",
        )
    try:
        in_home(home, path)
    except InvalidActionError as error:
        raise Refusal(422, "path_outside_home", str(error)) from None


def _add_text_routes(api: FastAPI, served: ServedEnvironment) -> None:
    """The text of an element, its characters' boxes, selecting a range, and the primary
    selection; each a 404 when the environment offers no text access."""

    def require_text() -> TextAccess:
        if served.text is None:
            raise Refusal(404, "not_offered", "this environment offers no text access")
        return served.text

    def text_call(call: Callable[[], T]) -> T:
        try:
            return served.gate.run(call, served.limits.call_timeout, "the text operation")
        except PcAgentError as error:
            raise Refusal(422, "text_failed", str(error)) from None

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
