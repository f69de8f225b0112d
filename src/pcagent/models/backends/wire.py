"""Small helpers shared by the HTTP adapters: data URLs, API keys and error wording.

The OpenAI and Anthropic SDKs name their errors alike, so one translation into pcagent's typed
model errors serves both and keeps their messages the same.
"""

from __future__ import annotations

import base64
import os
from types import ModuleType

from pcagent.errors import (
    MissingApiKeyError,
    ModelAuthenticationError,
    ModelRequestError,
    ModelTransientError,
)
from pcagent.models.backend import prompt_too_long
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
