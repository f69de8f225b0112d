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
    #: The SDK module (``openai`` or ``anthropic``): their error classes share names.
    sdk: ClassVar[ModuleType]
    #: What a message about an unreachable API asks to check (``{setting}``: the profile).
    unreachable_hint: ClassVar[str]
    #: HTTP statuses under 500 by which the API says "try again".
    transient_statuses: ClassVar[tuple[int, ...]] = (408, 409)
    #: Whether a refusal's body may say that the prompt does not fit the model's context.
    reports_too_long: ClassVar[bool] = False

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

    def sdk_failure(self, error: Exception) -> Exception:
        """The pcagent error for an SDK's ``error``: transient (retry), authentication or
        request (or the prompt too long, where :attr:`reports_too_long`)."""
        sdk, where = self.sdk, self._where
        if isinstance(error, sdk.APITimeoutError):
            return ModelTransientError(f"{where} did not answer in time: {error}")
        if isinstance(error, sdk.APIConnectionError):
            hint = self.unreachable_hint.format(setting=self._setting)
            return ModelTransientError(f"cannot reach {where} ({error}); {hint}")
        if isinstance(error, (sdk.AuthenticationError, sdk.PermissionDeniedError)):
            return ModelAuthenticationError(
                f"{where} rejected the API key from {self._key_env}: {error}"
            )
        if isinstance(error, sdk.RateLimitError):
            return ModelTransientError(f"{where} is rate limiting: {error}")
        if isinstance(error, sdk.APIStatusError):
            status = error.status_code
            if status >= 500 or status in self.transient_statuses:
                return ModelTransientError(f"{where} failed (HTTP {status}): {error}")
            too_long = prompt_too_long(where, error.body) if self.reports_too_long else None
            if too_long is not None:
                return too_long
            return ModelRequestError(f"{where} refused the request (HTTP {status}): {error}")
        return ModelRequestError(f"{where}: {error}")

    def close(self) -> None:
        self._client.close()
