"""The HTTP connection to one ``pcagent serve``: its token, time limits, retries, and the
server's refusals turned into typed errors.

Kept apart from :mod:`pcagent.env.remote_client` so that what a refusal means (an invalid action
the run re-asks, a busy server, a wrong token) is decided in one place. Only reads are retried:
an action or a reset may have happened before the connection broke.
"""

from __future__ import annotations

import ssl
import time
from typing import Any

import httpx

from pcagent.env.remote_api import API_PREFIX, ErrorBody
from pcagent.errors import (
    RemoteActionExecutionError,
    RemoteAuthError,
    RemoteBusyError,
    RemoteEnvironmentError,
    RemoteInvalidActionError,
    RemoteRequestError,
    RemoteUnreachableError,
    RemoteUnsupportedActionError,
)

#: Server refusals (``ErrorBody.error``) that mean "this action was refused before it ran".
_INVALID_ACTION_CODES = {"invalid_action", "path_outside_home", "invalid_json"}


class Connection:
    """HTTP to one server: the token, time limits, retries of reads, and refusals as errors."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float,
        action_timeout: float,
        retries: int,
        verify: ssl.SSLContext | bool,
    ) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.action_timeout = action_timeout
        self.retries = retries
        self._client = httpx.Client(
            base_url=self.url + API_PREFIX,
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            verify=verify,
            follow_redirects=False,
            trust_env=False,  # a proxy from the environment must not see the token
        )

    def close(self) -> None:
        self._client.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        idempotent: bool,
        json_body: Any = None,
        content: bytes | None = None,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        """The server's answer to one request; an ``idempotent`` one is retried on a broken
        connection. A refusal raises its typed :class:`~pcagent.errors.RemoteEnvironmentError`."""
        attempts = 1 + (self.retries if idempotent else 0)
        headers = {"Content-Type": "application/json"} if content is not None else None
        for attempt in range(attempts):
            try:
                response = self._client.request(
                    method,
                    path,
                    json=json_body,
                    content=content,
                    params=params,
                    headers=headers,
                    timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
                )
            except httpx.TransportError as error:
                if attempt + 1 < attempts:
                    time.sleep(0.2 * (attempt + 1))
                    continue
                what = f"{method} {self.url}{API_PREFIX}{path}"
                if not idempotent and not isinstance(error, httpx.ConnectError):
                    raise RemoteUnreachableError(
                        f"{what} failed ({type(error).__name__}: {error}); the action may or may "
                        "not have happened: observe before going on"
                    ) from error
                raise RemoteUnreachableError(
                    f"{what} failed after {attempts} attempt(s) ({type(error).__name__}: "
                    f"{error}); is `pcagent serve` running there, and is the address right?"
                ) from error
            if response.is_success:
                return response
            raise _refusal_error(response)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def _refusal_error(response: httpx.Response) -> RemoteEnvironmentError:
    try:
        body = ErrorBody.model_validate_json(response.content)
        code, message = body.error, body.message
    except ValueError:
        code, message = "", response.text[:500] or response.reason_phrase
    status = response.status_code
    text = f"the server refused the request ({status} {code}): {message}"
    if status == 401:
        return RemoteAuthError(
            f"the server refused the token ({message}); use the token file the server printed "
            "at its start (a new one is made every time it starts)"
        )
    if status in (429, 504):
        return RemoteBusyError(text, status=status, code=code)
    if code in _INVALID_ACTION_CODES:
        return RemoteInvalidActionError(text, status=status, code=code)
    if code == "unsupported_action":
        return RemoteUnsupportedActionError(text, status=status, code=code)
    if code == "execution_failed":
        return RemoteActionExecutionError(text, status=status, code=code)
    return RemoteRequestError(text, status=status, code=code)
