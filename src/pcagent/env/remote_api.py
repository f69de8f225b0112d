"""What ``pcagent serve`` and :class:`~pcagent.env.remote_client.RemoteEnvironment` say to each
other: the wire models of the HTTP API (version 1), shared by both sides so they cannot drift.

Everything on the wire is JSON of these pydantic models, or the bytes of a screenshot; actions
travel as the JSON of :data:`pcagent.actions.Action` and are validated by
:func:`pcagent.actions.parse_action` on arrival. Nothing else is accepted: no pickles, no code.
"""

from __future__ import annotations

from typing import Any, Literal

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field

from pcagent.actions import ACTION_TYPES
from pcagent.app_actions import AppAction, HomePath
from pcagent.env.observation import Element, Observation, TextState, WindowInfo
from pcagent.env.protocol import AppInfo

API_VERSION = 1
API_PREFIX = f"/v{API_VERSION}"

#: The header that carries the token: ``Authorization: Bearer <token>``.
AUTH_HEADER = "authorization"

ImageFormat = Literal["raw", "png", "jpeg"]
"""How a screenshot travels: ``raw`` is the RGB pixels row by row (no encoding cost, the fastest on
a fast link: 3 bytes per pixel), ``png`` is lossless and about ten times smaller, ``jpeg`` is
lossy and smaller still."""

#: The kinds the environment itself carries out; the others (answer, done, fail, ask_human,
#: click_element, select_text) belong to the client's run loop or perception layer.
ENVIRONMENT_KINDS: frozenset[str] = frozenset(
    kind
    for kind, action_class in ACTION_TYPES.items()
    if action_class.runs_on in ("desktop", "application")
)

#: Fields of application actions that name files but are not typed :data:`HomePath`.
_EXTRA_PATH_FIELDS = {"attachments"}


class _Wire(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ObservationPayload(_Wire):
    """An observation without its screenshot, which is fetched by ``observation_id`` (so the
    image can travel as bytes, not base64)."""

    observation_id: str
    width: int
    height: int
    elements: list[Element]
    windows: list[WindowInfo]
    focused_window: WindowInfo | None
    #: The logical application of each window (``window_id`` -> name, "" for none), so the client
    #: answers ``app_of_window`` without a round trip.
    window_apps: dict[int, str] = Field(default_factory=dict)
    timestamp: float
    timings_ms: dict[str, float] = Field(default_factory=dict)

    @classmethod
    def of(
        cls, observation: Observation, observation_id: str, window_apps: dict[int, str]
    ) -> ObservationPayload:
        """What the server sends of ``observation``, whose screenshot it keeps as
        ``observation_id``."""
        width, height = observation.screen_size
        return cls(
            observation_id=observation_id,
            width=width,
            height=height,
            window_apps=window_apps,
            **{name: getattr(observation, name) for name in _SENT_AS_THEY_ARE},
        )

    def observation(self, screenshot: Image.Image) -> Observation:
        """The observation the client makes of this payload and its fetched screenshot."""
        return Observation(
            screenshot=screenshot, **{name: getattr(self, name) for name in _SENT_AS_THEY_ARE}
        )


#: What an observation and its payload share, under the same names.
_SENT_AS_THEY_ARE = ("elements", "windows", "focused_window", "timestamp", "timings_ms")


class Capabilities(_Wire):
    """What the environment behind the server offers besides look, act and reset."""

    api_version: int = API_VERSION
    screen_width: int
    screen_height: int
    #: The applications ``open_app`` accepts; None when the environment has no catalog.
    applications: list[AppInfo] | None = None
    #: Application actions (:mod:`pcagent.app_actions`) the environment carries out.
    app_action_kinds: list[str] = Field(default_factory=list)
    #: Whether exact text operations (``/text/...``, ``/selection``) are available.
    text_access: bool = False
    #: Whether application actions may name files (only in a HOME on the server's machine).
    home_paths: bool = False
    #: The environment's HOME folder on the server's machine, told only by a server that listens
    #: on loopback (client and server then share the machine): the benchmark writes a task's
    #: fixture files there and its checkers read it. None otherwise.
    served_home: str | None = None
    #: A short description for the client's run record ("sandbox", "attached display").
    environment: str = ""


class ErrorBody(_Wire):
    """Every refusal: a short code, a message for a person, and per-field problems if any."""

    error: str
    message: str
    details: list[dict[str, Any]] = Field(default_factory=list)


class ResetResult(_Wire):
    ok: bool = True
    duration_ms: float = 0.0


class AppOfWindow(_Wire):
    app: str


class CharacterBoxesRequest(_Wire):
    offsets: list[int] = Field(max_length=10_000)


class SelectRangeRequest(_Wire):
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class SelectRangeResult(_Wire):
    selected: bool


class SelectionResult(_Wire):
    text: str


class TextStatePayload(_Wire):
    state: TextState


def action_paths(action: AppAction | Any) -> list[str]:
    """Every file path an action names (empty strings left out: they mean "where it is").

    A field is a path when it is typed :data:`pcagent.app_actions.HomePath`, or is a tuple of
    paths such as ``mail_compose``'s attachments. GUI actions name no paths.
    """
    if not isinstance(action, AppAction):
        return []
    found: list[str] = []
    for name, field in type(action).model_fields.items():
        value = getattr(action, name, None)
        # A HomePath field keeps HomePath's validator among its metadata.
        is_path = any(meta in HomePath.__metadata__ for meta in field.metadata)
        if name in _EXTRA_PATH_FIELDS and isinstance(value, tuple):
            found.extend(item for item in value if item)
        elif is_path and isinstance(value, str) and value:
            found.append(value)
    return found
