"""An environment on another machine, driven through ``pcagent serve``'s HTTP API.

:func:`connect` asks the server what the environment offers and returns a
:class:`RemoteEnvironment` that implements :class:`~pcagent.env.protocol.Environment` plus exactly
those optional capabilities (:class:`~pcagent.env.protocol.ApplicationCatalog`,
:class:`~pcagent.env.protocol.ApplicationInterfaces`, :class:`~pcagent.env.protocol.TextAccess`),
so the run layer's ``isinstance`` checks see what is really there. Each object holds its own
connection and nothing is shared between them: a task may hold several, one per machine.

Calls that only read (observe, capabilities, health, text reads) are retried on a broken
connection; actions and resets never are, since they may have happened. Errors are typed
(:class:`~pcagent.errors.RemoteEnvironmentError` and its family); an action the server refused
raises :class:`~pcagent.errors.RemoteInvalidActionError`, an ``InvalidActionError`` like a local
refusal, so the run loop re-asks the same way.
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from PIL import Image

from pcagent.actions import Action
from pcagent.env.observation import ActionResult, Box, Observation, TextState, WindowInfo
from pcagent.env.protocol import AppInfo
from pcagent.env.remote_api import (
    AppOfWindow,
    Capabilities,
    ImageFormat,
    ObservationPayload,
    SelectionResult,
    SelectRangeResult,
    TextStatePayload,
)
from pcagent.env.remote_connection import Connection
from pcagent.env.remote_security import is_loopback, read_token
from pcagent.errors import (
    RemoteAuthError,
    RemoteEnvironmentError,
)
from pcagent.lifecycle import Closes


class RemoteEnvironment(Closes):
    """The environment behind one ``pcagent serve``; made by :func:`connect`.

    ``observe`` returns an :class:`Observation` whose screenshot is a PIL image of the remote
    screen (its pixels, so actions' coordinates keep meaning the remote screen's pixels).
    """

    def __init__(
        self, connection: Connection, capabilities: Capabilities, image_format: ImageFormat
    ) -> None:
        self._connection = connection
        self.capabilities = capabilities
        self.image_format: ImageFormat = image_format
        self.jpeg_quality = 85
        self._window_apps: dict[int, str] = {}
        self._closed = False

    @property
    def url(self) -> str:
        return self._connection.url

    @property
    def screen_size(self) -> tuple[int, int]:
        return (self.capabilities.screen_width, self.capabilities.screen_height)

    def _request(self, method: str, path: str, **options: Any) -> httpx.Response:
        if self._closed:
            raise RemoteEnvironmentError("this remote environment was closed; connect again")
        return self._connection.request(method, path, **options)

    # --- Environment ----------------------------------------------------------------------------

    def observe(self) -> Observation:
        response = self._request("GET", "/observe", idempotent=True)
        payload = ObservationPayload.model_validate_json(response.content)
        screenshot = self._screenshot(payload)
        self._window_apps = dict(payload.window_apps)
        return payload.observation(screenshot)

    def _screenshot(self, payload: ObservationPayload) -> Image.Image:
        params: dict[str, Any] = {"format": self.image_format}
        if self.image_format == "jpeg":
            params["quality"] = self.jpeg_quality
        response = self._request(
            "GET",
            f"/observations/{payload.observation_id}/screenshot",
            idempotent=True,
            params=params,
        )
        size = (payload.width, payload.height)
        if self.image_format == "raw":
            if len(response.content) != size[0] * size[1] * 3:
                raise RemoteEnvironmentError(
                    f"the screenshot has {len(response.content)} bytes, not {size[0]}x{size[1]} "
                    "RGB pixels"
                )
            return Image.frombytes("RGB", size, response.content)
        import io

        image = Image.open(io.BytesIO(response.content))
        image.load()
        return image if image.mode == "RGB" else image.convert("RGB")

    def execute(self, action: Action) -> ActionResult:
        """Send one action; never retried (it may have run). Raises
        :class:`~pcagent.errors.RemoteInvalidActionError` when the server refused it before
        running it, :class:`~pcagent.errors.RemoteBusyError` when another client held the
        environment too long or the action ran past the server's limit."""
        response = self._request(
            "POST",
            "/execute",
            idempotent=False,
            content=action.model_dump_json().encode(),
            timeout=self._connection.action_timeout,
        )
        return ActionResult.model_validate_json(response.content)

    def reset(self) -> None:
        self._request("POST", "/reset", idempotent=False, timeout=self._connection.action_timeout)
        self._window_apps = {}

    def close(self) -> None:
        """Close the connection; the remote environment keeps running (its server owns it)."""
        if not self._closed:
            self._closed = True
            self._connection.close()

    # --- always there ---------------------------------------------------------------------------

    def health(self) -> bool:
        response = self._request("GET", "/health", idempotent=True)
        return bool(response.json().get("status") == "ok")

    def describe(self) -> dict[str, object]:
        return {"remote": self.url, "environment": self.capabilities.environment}


class _Catalog:
    """:class:`~pcagent.env.protocol.ApplicationCatalog` over the server's list and the window
    applications of the latest observation."""

    capabilities: Capabilities
    _window_apps: dict[int, str]
    _request: Any

    def applications(self) -> Sequence[AppInfo]:
        return tuple(self.capabilities.applications or ())

    def app_of_window(self, window: WindowInfo) -> str:
        known = self._window_apps.get(window.window_id)
        if known is not None:
            return known
        response = self._request(
            "POST",
            "/app-of-window",
            idempotent=True,
            content=window.model_dump_json().encode(),
        )
        return AppOfWindow.model_validate_json(response.content).app


class _Interfaces:
    """:class:`~pcagent.env.protocol.ApplicationInterfaces`: the kinds the server carries out."""

    capabilities: Capabilities

    def app_action_kinds(self) -> frozenset[str]:
        return frozenset(self.capabilities.app_action_kinds)


class _Text:
    """:class:`~pcagent.env.protocol.TextAccess` through the server."""

    _request: Any

    def text_state(self, element_id: int) -> TextState:
        response = self._request("GET", f"/text/{int(element_id)}", idempotent=True)
        return TextStatePayload.model_validate_json(response.content).state

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        response = self._request(
            "POST",
            f"/text/{int(element_id)}/boxes",
            idempotent=True,
            json_body={"offsets": list(offsets)},
        )
        return [Box.model_validate(box) if box is not None else None for box in response.json()]

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        response = self._request(
            "POST",
            f"/text/{int(element_id)}/select",
            idempotent=False,
            json_body={"start": start, "end": end},
        )
        return SelectRangeResult.model_validate_json(response.content).selected

    def primary_selection(self) -> str:
        response = self._request("GET", "/selection", idempotent=True)
        return SelectionResult.model_validate_json(response.content).text


@functools.cache
def _environment_class(catalog: bool, interfaces: bool, text: bool) -> type[RemoteEnvironment]:
    """RemoteEnvironment with the capability classes the server offers mixed in."""
    parts: list[type] = []
    names = []
    for offered, part, name in (
        (catalog, _Catalog, "Catalog"),
        (interfaces, _Interfaces, "Interfaces"),
        (text, _Text, "Text"),
    ):
        if offered:
            parts.append(part)
            names.append(name)
    if not parts:
        return RemoteEnvironment
    return type(f"RemoteEnvironmentWith{''.join(names)}", (RemoteEnvironment, *parts), {})


def _verify(url: str, certificate: Path | None) -> ssl.SSLContext | bool:
    if not url.startswith("https://"):
        return True
    if certificate is None:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=str(certificate.expanduser()))


def connect(
    url: str,
    *,
    token: str | None = None,
    token_file: Path | None = None,
    certificate: Path | None = None,
    timeout: float = 30.0,
    action_timeout: float = 150.0,
    retries: int = 2,
    image_format: ImageFormat | None = None,
) -> RemoteEnvironment:
    """Connect to ``pcagent serve`` at ``url`` (``http://127.0.0.1:8765``) and return the
    environment, with the capabilities the server reports.

    The token is ``token`` or the contents of ``token_file``. ``certificate`` is the server's
    certificate (or its authority) for ``https://`` addresses, e.g. the self-signed one the
    server made. ``timeout`` bounds each read call, ``action_timeout`` each action and reset
    (more than the server's own limit, so the server's 504 arrives first). ``image_format``
    defaults to ``raw`` on the loopback interface (no encoding cost) and ``png`` elsewhere.

    Raises :class:`~pcagent.errors.RemoteAuthError` for a refused token,
    :class:`~pcagent.errors.RemoteUnreachableError` when nothing answers.
    """
    if token is None:
        if token_file is None:
            raise RemoteAuthError("give the server's token, or the file that holds it")
        token = read_token(token_file)
    if not url.startswith(("http://", "https://")):
        raise RemoteEnvironmentError(f"{url!r} is not an http:// or https:// address")
    if url.startswith("http://") and not is_loopback(httpx.URL(url).host):
        raise RemoteEnvironmentError(
            f"{url} is plain HTTP to another machine: the token and the screen would cross the "
            "network unencrypted; use https:// (pcagent serve --allow-remote serves TLS)"
        )
    connection = Connection(
        url,
        token,
        timeout=timeout,
        action_timeout=action_timeout,
        retries=retries,
        verify=_verify(url, certificate),
    )
    try:
        response = connection.request("GET", "/capabilities", idempotent=True)
        capabilities = Capabilities.model_validate_json(response.content)
    except BaseException:
        connection.close()
        raise
    if image_format is None:
        image_format = "raw" if is_loopback(httpx.URL(url).host) else "png"
    environment_class = _environment_class(
        capabilities.applications is not None,
        bool(capabilities.app_action_kinds),
        capabilities.text_access,
    )
    return environment_class(connection, capabilities, image_format)
