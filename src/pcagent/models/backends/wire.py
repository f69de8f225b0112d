"""What the HTTP adapters share: their settings and API key, data URLs and error wording.

The OpenAI and Anthropic SDKs name their errors alike, so one translation into pcagent's typed
model errors serves both and keeps their messages the same.
"""

from __future__ import annotations

import base64
import os
from types import ModuleType
from typing import Any, ClassVar

from pcagent.errors import (
    MissingApiKeyError,
    ModelAuthenticationError,
    ModelRequestError,
    ModelTransientError,
)
from pcagent.models.backend import BackendInfo, prompt_too_long
from pcagent.models.messages import ImagePart


def image_base64(part: ImagePart) -> str:
    return base64.b64encode(part.data).decode("ascii")


def data_url(part: ImagePart) -> str:
    """``data:image/png;base64,...`` as OpenAI-style APIs take images inline."""
    return f"data:{part.media_type};base64,{image_base64(part)}"


def is_loopback(base_url: str) -> bool:
    """True for servers on this machine, which usually need no API key."""
    return any(host in base_url for host in ("://127.0.0.1", "://localhost", "://[::1]"))


def resolve_api_key(explicit: str, key_env: str, base_url: str, missing: str) -> str:
    """The key to send: ``explicit``, else the environment's; a placeholder for a configured
    server (local ones rarely check keys), and :class:`MissingApiKeyError` with ``missing`` for
    the provider's own API."""
    key = explicit or os.environ.get(key_env, "")
    if key:
        return key
    if not base_url:
        raise MissingApiKeyError(missing)
    return "not-needed"


def sdk_error(
    error: Exception,
    sdk: ModuleType,
    *,
    where: str,
    key_env: str,
    unreachable_hint: str,
    transient_statuses: tuple[int, ...],
    read_too_long: bool = False,
) -> Exception:
    """The pcagent error for an SDK's ``error``: transient (retry), authentication or request.

    ``sdk`` is the ``openai`` or ``anthropic`` module; their error classes share names.
    ``read_too_long`` reads the refusal's body for a prompt that does not fit the context.
    """
    if isinstance(error, sdk.APITimeoutError):
        return ModelTransientError(f"{where} did not answer in time: {error}")
    if isinstance(error, sdk.APIConnectionError):
        return ModelTransientError(f"cannot reach {where} ({error}); {unreachable_hint}")
    if isinstance(error, (sdk.AuthenticationError, sdk.PermissionDeniedError)):
        return ModelAuthenticationError(f"{where} rejected the API key from {key_env}: {error}")
    if isinstance(error, sdk.RateLimitError):
        return ModelTransientError(f"{where} is rate limiting: {error}")
    if isinstance(error, sdk.APIStatusError):
        status = error.status_code
        if status >= 500 or status in transient_statuses:
            return ModelTransientError(f"{where} failed (HTTP {status}): {error}")
        too_long = prompt_too_long(where, error.body) if read_too_long else None
        if too_long is not None:
            return too_long
        return ModelRequestError(f"{where} refused the request (HTTP {status}): {error}")
    return ModelRequestError(f"{where}: {error}")


class HttpAdapter:
    """The settings every hosted-API adapter takes, and its SDK client.

    ``api_key`` wins over ``api_key_env`` (default: the provider's variable). With neither set:
    an error for the provider's own API, and a placeholder key for a configured ``base_url``
    (local servers rarely check keys; one that does answers 401, reported as
    :class:`ModelAuthenticationError` naming the variable).
    """

    #: The provider's name as messages say it ("OpenAI").
    provider: ClassVar[str]
    default_key_env: ClassVar[str]
    #: What else the missing-key error suggests.
    key_advice: ClassVar[str] = ""

    def __init__(
        self,
        base_url: str = "",
        *,
        info: BackendInfo,
        model: str,
        api_key: str = "",
        api_key_env: str = "",
        timeout_s: float = 120.0,
        profile: str = "",
    ):
        self._model = model
        self._info = info
        self._key_env = api_key_env or self.default_key_env
        self._where = base_url or f"the {self.provider} API"
        self._setting = f"[models.profiles.{profile}]" if profile else "the model profile"
        key = resolve_api_key(
            api_key,
            self._key_env,
            base_url,
            f"{self._setting} uses the {self.provider} API but {self._key_env} is not set; "
            f"export {self._key_env}=...{self.key_advice}",
        )
        self._client = self._connect(key, base_url or None, timeout_s)

    def _connect(self, key: str, base_url: str | None, timeout_s: float) -> Any:
        """The SDK's client; it makes no retries of its own (the retry policy does)."""
        raise NotImplementedError

    @property
    def info(self) -> BackendInfo:
        return self._info

    def close(self) -> None:
        self._client.close()
