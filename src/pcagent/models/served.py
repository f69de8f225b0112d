"""A model on an OpenAI-compatible server, named on the command line or added to the
configuration: its profile, and whether it sees images as the server tells.

Why ask the server: a profile's ``vision`` defaults to false, and a vision model given no
screenshots works half blind without any error. Servers that say what a model takes are
believed: llama.cpp lists ``architecture.input_modalities`` in ``/v1/models`` and
``modalities.vision`` in ``/props``; Ollama lists ``capabilities``. A server that says nothing
(vLLM, OpenAI) leaves the choice to the person (``--vision``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field

from pcagent.config import ModelProfile
from pcagent.errors import ConfigurationError, ModelUnavailableError

#: The profile name of a model given with --model-url, in the run's configuration.
COMMAND_LINE_PROFILE = "command-line"
#: Seconds each question to the server may take; it answers from memory.
PROBE_TIMEOUT_S = 10.0


class ServedModel(BaseModel):
    """A model behind an OpenAI-compatible server: where, which, and whether it sees images."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(min_length=1)
    name: str = Field(min_length=1)
    #: None: as the server says, else text only.
    vision: bool | None = None
    api_key_env: str = ""

    def profile(self, vision: bool) -> ModelProfile:
        """The profile every role uses for this model."""
        return ModelProfile(
            backend="openai",
            model=self.name,
            base_url=self.url,
            api_key_env=self.api_key_env,
            vision=vision,
        )


@dataclass(frozen=True)
class VisionAnswer:
    """What the server said about the model's images: True, False, or None (said nothing),
    and where it said it."""

    sees_images: bool | None
    source: str = ""


@dataclass(frozen=True)
class VisionChoice:
    """Whether the profile sends images, and a sentence saying why when it is not simply the
    person's own choice."""

    vision: bool
    note: str = ""


def checked_url(url: str) -> str:
    """``url`` when it is an http(s) address; :class:`ConfigurationError` otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigurationError(
            f"--model-url {url!r} is not an http(s) address; give the server's OpenAI-compatible "
            "base, e.g. http://127.0.0.1:8080/v1"
        )
    return url.rstrip("/")


def _server_root(url: str) -> str:
    """The server's own address without its API prefix (``/v1``), where llama.cpp answers
    ``/props``."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    path = path.removesuffix("/v1")
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _entry_for(entries: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The listed model called ``name`` (its id, name or an alias), or the only one listed."""
    for entry in entries:
        names = {entry.get("id"), entry.get("name"), entry.get("model"), *entry.get("aliases", [])}
        if name in names:
            return entry
    return entries[0] if len(entries) == 1 else None


def _from_model_list(listing: dict[str, Any], name: str) -> VisionAnswer:
    entry = _entry_for([e for e in listing.get("data", []) if isinstance(e, dict)], name)
    modalities = (entry or {}).get("architecture", {}).get("input_modalities")
    if isinstance(modalities, list):
        return VisionAnswer("image" in modalities, "input_modalities in /v1/models")
    entry = _entry_for([e for e in listing.get("models", []) if isinstance(e, dict)], name)
    capabilities = (entry or {}).get("capabilities")
    if isinstance(capabilities, list) and capabilities:
        seen = bool({"vision", "multimodal"} & set(capabilities))
        return VisionAnswer(seen, "capabilities in /v1/models")
    return VisionAnswer(None)


def ask_server_about_vision(served: ServedModel) -> VisionAnswer:
    """Ask the server whether ``served.name`` takes images.

    Raises :class:`ModelUnavailableError` when nothing answers at the address (a run would fail
    on its first model call; better to say so before a desktop starts).
    """
    headers = {}
    key = os.environ.get(served.api_key_env, "") if served.api_key_env else ""
    if key:
        headers["Authorization"] = f"Bearer {key}"
    with httpx.Client(timeout=PROBE_TIMEOUT_S, headers=headers) as client:
        try:
            listed = client.get(f"{served.url}/models")
        except httpx.HTTPError as error:
            raise ModelUnavailableError(
                f"cannot reach the model server at {served.url} ({error}); is it running, and "
                "is --model-url its OpenAI-compatible base (e.g. http://127.0.0.1:8080/v1)?"
            ) from error
        if listed.status_code == 200:
            answer = _from_model_list(_json_object(listed), served.name)
            if answer.sees_images is not None:
                return answer
        try:
            props = client.get(f"{_server_root(served.url)}/props")
        except httpx.HTTPError:
            return VisionAnswer(None)
    vision = _json_object(props).get("modalities", {}).get("vision") if props.is_success else None
    if isinstance(vision, bool):
        return VisionAnswer(vision, "modalities in /props")
    return VisionAnswer(None)


def _json_object(reply: httpx.Response) -> dict[str, Any]:
    """The reply's JSON object; {} for anything else (a proxy's HTML page, a list)."""
    try:
        data = reply.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def choose_vision(served: ServedModel, answer: VisionAnswer) -> VisionChoice:
    """Whether to send images: the server's word where it gave one, except that --no-vision
    keeps screenshots out of a model that could take them (said, never silently); the flag
    where the server said nothing (off when not given either)."""
    name, source = served.name, answer.source
    if answer.sees_images is None:
        return VisionChoice(bool(served.vision))
    if answer.sees_images:
        if served.vision is False:
            return VisionChoice(
                False,
                f"the server says {name} takes images ({source}); --no-vision sends it the "
                "screen as text only",
            )
        note = "" if served.vision else f"the server says {name} takes images ({source}): vision on"
        return VisionChoice(True, note)
    if served.vision:
        return VisionChoice(
            False,
            f"the server says {name} takes no images ({source}); it gets the screen as text, "
            "--vision is overruled",
        )
    return VisionChoice(False)


def profile_for(served: ServedModel) -> tuple[ModelProfile, VisionChoice]:
    """The profile for ``served``, its vision as the server tells (asked now), and why."""
    choice = choose_vision(served, ask_server_about_vision(served))
    return served.profile(choice.vision), choice
