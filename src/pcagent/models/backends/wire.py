"""Small helpers shared by the HTTP adapters: data URLs and error wording."""

from __future__ import annotations

import base64

from pcagent.models.messages import ImagePart


def image_base64(part: ImagePart) -> str:
    return base64.b64encode(part.data).decode("ascii")


def data_url(part: ImagePart) -> str:
    """``data:image/png;base64,...`` as OpenAI-style APIs take images inline."""
    return f"data:{part.media_type};base64,{image_base64(part)}"


def is_loopback(base_url: str) -> bool:
    """True for servers on this machine, which usually need no API key."""
    return any(host in base_url for host in ("://127.0.0.1", "://localhost", "://[::1]"))
