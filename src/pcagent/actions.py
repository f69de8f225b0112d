"""The action space: every action an agent may emit, defined once.

Each action is one small frozen pydantic model with a ``kind`` discriminator, a one-line class
docstring (the description a model sees) and a ``Field(description=...)`` per parameter. The prompt
text (:func:`describe_actions`), the JSON schema (:func:`action_json_schema`) and validation
(:func:`parse_action`) are all derived from these classes, so adding an action means adding one
class here and listing it in :data:`Action`.

Coordinate contract: every ``x``/``y`` is a pixel of the *environment's screen* (origin at the top
left, x to the right, y down), never of a downscaled image shown to a model; whoever downscales
maps back before building an action. :func:`check_on_screen` checks a point against the screen.

Key names: :data:`KEY_NAMES` maps friendly, case-insensitive names ("ctrl", "enter", "pagedown",
"+") to the X keysyms xdotool understands; :func:`normalize_key` applies it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal, Self, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pcagent import app_actions as app
from pcagent.action_base import ActionBase as _ActionBase
from pcagent.action_base import ActionSite
from pcagent.action_base import Int as _Int
from pcagent.errors import InvalidActionError

__all__ = [
    "ACTION_TYPES",
    "APP_ACTION_KINDS",
    "KEY_NAMES",
    "MAX_TYPED_CHARACTERS",
    "Action",
    "ActionParseError",
    "ActionSite",
    "Answer",
    "AskHuman",
    "Click",
    "ClickElement",
    "Done",
    "DoubleClick",
    "Drag",
    "Fail",
    "Hotkey",
    "OpenApp",
    "Press",
    "RightClick",
    "Scroll",
    "SelectText",
    "TypeText",
    "UseSkill",
    "Wait",
    "action_json_schema",
    "action_points",
    "app_kinds_for",
    "check_on_screen",
    "describe_actions",
    "is_terminal",
    "normalize_key",
    "parse_action",
]


class ActionParseError(InvalidActionError):
    """:func:`parse_action` rejected its input.

    ``details`` holds one dict per problem, shaped like pydantic's errors (``type``, ``loc``,
    ``msg``, ``input``; JSON-serialisable for JSON input), so a model layer can feed them back.
    """

    def __init__(self, message: str, details: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.details = details


# --- key names -----------------------------------------------------------------------------------

_NAMED_KEYS: dict[str, str] = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "alt": "alt",
    "shift": "shift",
    "super": "super",
    "win": "super",
    "meta": "super",
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "backspace": "BackSpace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "space": "space",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "page_up": "Prior",
    "pagedown": "Next",
    "page_down": "Next",
    "menu": "Menu",
    "printscreen": "Print",
    "capslock": "Caps_Lock",
    **{f"f{number}": f"F{number}" for number in range(1, 25)},
}

# xdotool resolves key names with XStringToKeysym, which knows "plus" but not "+".
_CHARACTER_KEYSYMS: dict[str, str] = {
    " ": "space",
    "!": "exclam",
    '"': "quotedbl",
    "#": "numbersign",
    "$": "dollar",
    "%": "percent",
    "&": "ampersand",
    "'": "apostrophe",
    "(": "parenleft",
    ")": "parenright",
    "*": "asterisk",
    "+": "plus",
    ",": "comma",
    "-": "minus",
    ".": "period",
    "/": "slash",
    ":": "colon",
    ";": "semicolon",
    "<": "less",
    "=": "equal",
    ">": "greater",
    "?": "question",
    "@": "at",
    "[": "bracketleft",
    "\\": "backslash",
    "]": "bracketright",
    "^": "asciicircum",
    "_": "underscore",
    "`": "grave",
    "{": "braceleft",
    "|": "bar",
    "}": "braceright",
    "~": "asciitilde",
}

KEY_NAMES: Mapping[str, str] = MappingProxyType(
    {
        # Exact keysyms ("Return", "BackSpace", "plus") are accepted too, case-insensitively.
        **{keysym.lower(): keysym for keysym in _NAMED_KEYS.values()},
        **{keysym.lower(): keysym for keysym in _CHARACTER_KEYSYMS.values()},
        **_NAMED_KEYS,
    }
)
"""Lower-case multi-character key name -> X keysym. Single characters are handled separately."""

_KEY_EXAMPLES = (
    "ctrl, alt, shift, super, enter, esc, tab, backspace, delete, space, up, down, left, right, "
    "home, end, pageup, pagedown, f1..f24, or one character such as 'a', '7', '+'"
)


def normalize_key(name: str) -> str:
    """Return the X keysym (as xdotool understands it) for a friendly key name.

    Case-insensitive; surrounding spaces are ignored. A single printable character is its own key
    (letters are lowercased, so "S" presses the s key without shift; punctuation becomes its keysym
    name, "+" -> "plus"). Raises :class:`InvalidActionError` for anything else, listing examples.
    """
    if len(name) == 1:
        if name in _CHARACTER_KEYSYMS:
            return _CHARACTER_KEYSYMS[name]
        if name.isprintable():
            lowered = name.lower()
            return lowered if len(lowered) == 1 else name
        raise InvalidActionError(f"key {name!r} is not a printable character; use {_KEY_EXAMPLES}")
    stripped = name.strip()
    if "+" in stripped and len(stripped) > 1:
        parts = [part.strip() for part in stripped.split("+")]
        raise InvalidActionError(
            f"key {name!r} names several keys; split {name!r} into {parts!r} "
            "(one key per item; use a hotkey action to press keys together)"
        )
    if len(stripped) == 1:
        return normalize_key(stripped)
    keysym = KEY_NAMES.get(stripped.lower())
    if keysym is None:
        raise InvalidActionError(f"unknown key {name!r}; use {_KEY_EXAMPLES}")
    return keysym


def _keysym_for_pydantic(name: str) -> str:
    """:func:`normalize_key`, raising the error type pydantic collects into its field errors."""
    try:
        return normalize_key(name)
    except InvalidActionError as error:
        raise PydanticCustomError("invalid_key", "{reason}", {"reason": str(error)}) from error


def _validated_key(name: str) -> str:
    """Pydantic hook: check a key name but keep the original spelling (what the model said)."""
    _keysym_for_pydantic(name)
    return name


_KeyName = Annotated[str, AfterValidator(_validated_key)]


# --- actions -------------------------------------------------------------------------------------

#: Longest text one ``type`` action may type (about three pages; 100 kB took 36 s to type, and a
#: model that produces that much is rambling, not typing).
MAX_TYPED_CHARACTERS = 10_000


class OpenApp(_ActionBase):
    """Open an application (or bring it to the front) by its logical name."""

    settles: ClassVar[bool] = False  # opening waits for the window and settles by itself
    kind: Literal["open_app"] = Field("open_app", description='Always "open_app".')
    app: str = Field(min_length=1, description='Logical application name, e.g. "text_editor".')


class ClickElement(_ActionBase):
    """Left-click the centre of the listed element with this label (copy the label exactly)."""

    # Turned into a click at the element's centre by the Decision agent, from the marks it was
    # shown; the guard, the desktop and the record only ever see that click.
    runs_on: ClassVar[ActionSite] = "perception"
    kind: Literal["click_element"] = Field("click_element", description='Always "click_element".')
    label: str = Field(
        min_length=1,
        max_length=200,
        description='The element\'s label as listed, e.g. "Save"; a label listed twice is '
        'followed by # and the mark\'s number, e.g. "Close #7".',
    )


class Click(_ActionBase):
    """Left-click at screen pixel (x, y)."""

    kind: Literal["click"] = Field("click", description='Always "click".')
    x: _Int = Field(ge=0, description="Screen pixel column, 0 at the left edge.")
    y: _Int = Field(ge=0, description="Screen pixel row, 0 at the top edge.")

    def points(self) -> list[tuple[int, int]]:
        return [(self.x, self.y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        x, y = transform(self.x, self.y)
        return type(self)(**{**dict(self), "x": x, "y": y})


class DoubleClick(_ActionBase):
    """Double-click with the left button at screen pixel (x, y)."""

    kind: Literal["double_click"] = Field("double_click", description='Always "double_click".')
    x: _Int = Field(ge=0, description="Screen pixel column, 0 at the left edge.")
    y: _Int = Field(ge=0, description="Screen pixel row, 0 at the top edge.")

    def points(self) -> list[tuple[int, int]]:
        return [(self.x, self.y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        x, y = transform(self.x, self.y)
        return type(self)(**{**dict(self), "x": x, "y": y})


class RightClick(_ActionBase):
    """Right-click at screen pixel (x, y), e.g. to open a context menu."""

    kind: Literal["right_click"] = Field("right_click", description='Always "right_click".')
    x: _Int = Field(ge=0, description="Screen pixel column, 0 at the left edge.")
    y: _Int = Field(ge=0, description="Screen pixel row, 0 at the top edge.")

    def points(self) -> list[tuple[int, int]]:
        return [(self.x, self.y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        x, y = transform(self.x, self.y)
        return type(self)(**{**dict(self), "x": x, "y": y})


class TypeText(_ActionBase):
    """Type text at the keyboard focus, clicking (x, y) first if given; no Enter is added."""

    kind: Literal["type"] = Field("type", description='Always "type".')
    text: str = Field(
        min_length=1, max_length=MAX_TYPED_CHARACTERS, description="Exact text to type."
    )
    x: _Int | None = Field(None, ge=0, description="Column to click first; give with y or omit.")
    y: _Int | None = Field(None, ge=0, description="Row to click first; give with x or omit.")

    @model_validator(mode="after")
    def _both_coordinates_or_neither(self) -> TypeText:
        if (self.x is None) != (self.y is None):
            given = "x" if self.y is None else "y"
            raise PydanticCustomError(
                "coordinates_incomplete",
                "give both x and y (the point to click before typing) or neither; got only {given}",
                {"given": given},
            )
        return self

    def points(self) -> list[tuple[int, int]]:
        if self.x is None or self.y is None:
            return []
        return [(self.x, self.y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        if self.x is None or self.y is None:
            return self
        x, y = transform(self.x, self.y)
        return type(self)(**{**dict(self), "x": x, "y": y})


class SelectText(_ActionBase):
    """Select the on-screen text span described by target (located by OCR, then dragged over)."""

    # Executed by the perception layer, which turns it into a drag; the desktop never sees it.
    runs_on: ClassVar[ActionSite] = "perception"
    kind: Literal["select_text"] = Field("select_text", description='Always "select_text".')
    target: str = Field(
        min_length=1, description='The text span to select, e.g. "the second paragraph".'
    )


class Drag(_ActionBase):
    """Press the left button at (start_x, start_y), move to (end_x, end_y) and release."""

    kind: Literal["drag"] = Field("drag", description='Always "drag".')
    start_x: _Int = Field(ge=0, description="Screen pixel column where the drag starts.")
    start_y: _Int = Field(ge=0, description="Screen pixel row where the drag starts.")
    end_x: _Int = Field(ge=0, description="Screen pixel column where the drag ends.")
    end_y: _Int = Field(ge=0, description="Screen pixel row where the drag ends.")

    @model_validator(mode="after")
    def _moves(self) -> Drag:
        if (self.start_x, self.start_y) == (self.end_x, self.end_y):
            raise PydanticCustomError(
                "drag_without_motion",
                "a drag must end somewhere else than it starts; to press at one point, click",
            )
        return self

    def points(self) -> list[tuple[int, int]]:
        return [(self.start_x, self.start_y), (self.end_x, self.end_y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        start_x, start_y = transform(self.start_x, self.start_y)
        end_x, end_y = transform(self.end_x, self.end_y)
        moved = {"start_x": start_x, "start_y": start_y, "end_x": end_x, "end_y": end_y}
        return type(self)(**{**dict(self), **moved})


class Scroll(_ActionBase):
    """Turn the mouse wheel by amount clicks in direction, with the pointer at (x, y)."""

    kind: Literal["scroll"] = Field("scroll", description='Always "scroll".')
    x: _Int = Field(ge=0, description="Screen pixel column of the pointer while scrolling.")
    y: _Int = Field(ge=0, description="Screen pixel row of the pointer while scrolling.")
    direction: Literal["up", "down", "left", "right"] = Field(
        description="Which way the content moves into view."
    )
    amount: _Int = Field(3, ge=1, le=50, description="Number of wheel clicks, 1 to 50.")

    def points(self) -> list[tuple[int, int]]:
        return [(self.x, self.y)]

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        x, y = transform(self.x, self.y)
        return type(self)(**{**dict(self), "x": x, "y": y})


class Hotkey(_ActionBase):
    """Press keys together as one chord, e.g. ["ctrl", "shift", "s"]."""

    kind: Literal["hotkey"] = Field("hotkey", description='Always "hotkey".')
    # A tuple, not a list, so the frozen action stays hashable (page-graph edges, sets).
    keys: tuple[str, ...] = Field(
        min_length=1, description='Key names, one per item, modifiers first, e.g. ["ctrl", "s"].'
    )

    @field_validator("keys")
    @classmethod
    def _known_distinct_keys(cls, keys: tuple[str, ...]) -> tuple[str, ...]:
        # One check over the whole tuple: per-item validators make pydantic add a confusing
        # "at least 1 item" error when the only item is bad.
        seen: dict[str, str] = {}
        for name in keys:
            keysym = _keysym_for_pydantic(name)
            if keysym in seen:
                raise PydanticCustomError(
                    "repeated_key",
                    "{key} repeats {first} in the chord; list each key once",
                    {"key": repr(name), "first": repr(seen[keysym])},
                )
            seen[keysym] = name
        return keys

    def keysyms(self) -> list[str]:
        """The keys as X keysyms, in order, ready for ``xdotool key``."""
        return [normalize_key(name) for name in self.keys]


class Press(_ActionBase):
    """Press and release one key, times times in a row."""

    kind: Literal["press"] = Field("press", description='Always "press".')
    key: _KeyName = Field(description='Key name, e.g. "enter", "tab", "down", "f5", "a".')
    times: _Int = Field(1, ge=1, le=100, description="How many times to press it, 1 to 100.")

    def keysym(self) -> str:
        """The key as an X keysym, ready for ``xdotool key``."""
        return normalize_key(self.key)


class Wait(_ActionBase):
    """Do nothing for the given seconds, e.g. while a window opens (at most 60)."""

    settles: ClassVar[bool] = False
    kind: Literal["wait"] = Field("wait", description='Always "wait".')
    seconds: float = Field(
        gt=0, le=60, allow_inf_nan=False, description="Seconds to wait, more than 0, at most 60."
    )


class UseSkill(_ActionBase):
    """Call a skill by name with its arguments (see the skills listed); it does the work and
    checks its effect."""

    runs_on: ClassVar[ActionSite] = "skill"
    # A skill waits for what it does, action by action.
    settles: ClassVar[bool] = False
    kind: Literal["use_skill"] = Field("use_skill", description='Always "use_skill".')
    skill: str = Field(min_length=1, max_length=40, description="The skill's name.")
    args: dict[str, Any] = Field(
        default_factory=dict, description="The skill's arguments by parameter name."
    )

    def __hash__(self) -> int:
        # Frozen actions are hashable (page-graph edges, sets); the arguments are JSON.
        return hash((self.kind, self.skill, json.dumps(self.args, sort_keys=True, default=str)))


class Answer(_ActionBase):
    """Report a value the task asked for (the run goes on; finish with done)."""

    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["answer"] = Field("answer", description='Always "answer".')
    text: str = Field(description="The value or answer, as the task asked for it.")


class AskHuman(_ActionBase):
    """Ask the person at the computer for help; their reply comes back as guidance."""

    # Put to the person at the computer (only in the passive and proactive modes); the desktop
    # never sees it.
    runs_on: ClassVar[ActionSite] = "human"
    kind: Literal["ask_human"] = Field("ask_human", description='Always "ask_human".')
    question: str = Field(min_length=1, description="What you need to know, in one sentence.")


class Done(_ActionBase):
    """Declare the task finished successfully."""

    terminal: ClassVar[bool] = True
    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["done"] = Field("done", description='Always "done".')
    summary: str = Field("", description="Optional short account of what was done.")


class Fail(_ActionBase):
    """Give up on the task, saying why."""

    terminal: ClassVar[bool] = True
    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["fail"] = Field("fail", description='Always "fail".')
    reason: str = Field(min_length=1, description="Why the task cannot be completed.")


Action = Annotated[
    OpenApp
    | app.WriterOpen
    | app.WriterRead
    | app.WriterInsert
    | app.WriterFormat
    | app.WriterSave
    | app.SheetOpen
    | app.SheetRead
    | app.SheetSet
    | app.SheetSort
    | app.SheetSave
    | app.EditorOpen
    | app.EditorSaveAs
    | app.FilesList
    | app.FilesMakeFolder
    | app.FilesCopy
    | app.FilesMove
    | app.FilesRename
    | app.FilesOpen
    | app.MailCompose
    | app.MailSend
    | app.MailRead
    | app.MailSaveAttachment
    | app.BrowserOpen
    | app.BrowserRead
    | app.BrowserClick
    | app.BrowserFill
    | app.CalculatorEvaluate
    | app.ClockAddAlarm
    | app.ClockAddWorldClock
    | ClickElement
    | Click
    | DoubleClick
    | RightClick
    | TypeText
    | SelectText
    | Drag
    | Scroll
    | Hotkey
    | Press
    | Wait
    | UseSkill
    | Answer
    | AskHuman
    | Done
    | Fail,
    Field(discriminator="kind"),
]
"""Any action, GUI or application (:mod:`pcagent.app_actions`); validate with
:func:`parse_action`."""


def _kind_of(action_class: type[_ActionBase]) -> str:
    (kind,) = get_args(action_class.model_fields["kind"].annotation)
    return kind


ACTION_TYPES: Mapping[str, type[_ActionBase]] = MappingProxyType(
    {_kind_of(action_class): action_class for action_class in get_args(get_args(Action)[0])}
)
if not set(app.APP_ACTION_CLASSES) <= set(
    ACTION_TYPES.values()
):  # pragma: no cover - a listing slip
    raise RuntimeError("an application action is missing from the Action union")
"""Kind -> action class, in the order of :data:`Action` (the order used in prompts and schemas:
``open_app``, then the application actions, which a role should reach for first, then the GUI)."""

APP_ACTION_KINDS: frozenset[str] = frozenset(
    kind for kind, action_class in ACTION_TYPES.items() if action_class.belongs_to is not None
)
"""The kinds of the application actions (:mod:`pcagent.app_actions`)."""


def app_kinds_for(apps: Iterable[str]) -> frozenset[str]:
    """The application actions that belong to one of ``apps`` (logical application names)."""
    wanted = set(apps)
    return frozenset(kind for kind in APP_ACTION_KINDS if ACTION_TYPES[kind].belongs_to in wanted)


# --- parsing -------------------------------------------------------------------------------------


def _select_kinds(kinds: Iterable[str] | None) -> tuple[str, ...]:
    """Validate a subset of kinds (e.g. a role's action domain), in canonical order."""
    if kinds is None:
        return tuple(ACTION_TYPES)
    wanted = set(kinds)
    unknown = sorted(wanted - ACTION_TYPES.keys())
    if unknown:
        raise InvalidActionError(
            f"unknown action kinds {unknown}; valid kinds: {', '.join(ACTION_TYPES)}"
        )
    if not wanted:
        raise InvalidActionError("no action kinds given; name at least one")
    return tuple(kind for kind in ACTION_TYPES if kind in wanted)


@cache
def _union_adapter(kinds: tuple[str, ...]) -> TypeAdapter[Any]:
    """Built on first use (and per subset), so importing this module stays cheap."""
    classes = tuple(ACTION_TYPES[kind] for kind in kinds)
    if len(classes) == 1:
        return TypeAdapter(classes[0])
    return TypeAdapter(Annotated[Union[classes], Field(discriminator="kind")])  # noqa: UP007


def _short_repr(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _reject(message: str, error_type: str, loc: tuple[Any, ...], value: Any) -> ActionParseError:
    return ActionParseError(
        message, [{"type": error_type, "loc": loc, "msg": message, "input": value}]
    )


def parse_action(data: Mapping[str, Any] | str, *, kinds: Iterable[str] | None = None) -> Action:
    """Validate a dict, or a JSON object in a string, into an action.

    ``kinds`` limits the accepted kinds (a role's action domain). Raises :class:`ActionParseError`
    (an :class:`InvalidActionError`) for anything else, never pydantic or JSON errors; its message
    names the field and the problem and shows the expected signature, and ``details`` holds the
    individual errors for feeding back to a model.
    """
    allowed = _select_kinds(kinds)
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise _reject(
                f"action is not valid JSON ({error.msg} at line {error.lineno} column "
                f"{error.colno}); send one JSON object such as "
                '{"kind": "click", "x": 10, "y": 20}',
                "json_invalid",
                (),
                error.doc,
            ) from None
        except RecursionError:
            raise _reject("action JSON is nested too deeply", "json_invalid", (), None) from None
    if not isinstance(data, Mapping):
        raise _reject(
            f"an action must be a JSON object with a 'kind' field, not {type(data).__name__} "
            f"{_short_repr(data)}",
            "model_type",
            (),
            data,
        )
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in allowed:
        if "kind" not in data:
            problem = "the action has no 'kind' field"
        elif isinstance(kind, str) and kind in ACTION_TYPES:
            problem = f"action kind {kind!r} is not allowed here"
        else:
            problem = f"unknown action kind {_short_repr(kind)}"
            close = difflib.get_close_matches(str(kind).lower(), allowed, n=1)
            if close:
                problem += f" (did you mean {close[0]!r}?)"
        raise _reject(
            f"{problem}; valid kinds: {', '.join(allowed)}", "union_tag_invalid", ("kind",), kind
        )
    action_class = ACTION_TYPES[kind]
    try:
        return action_class.model_validate(dict(data))
    except ValidationError as error:
        details = error.errors(include_url=False, include_context=False)
        problems = "; ".join(_describe_error(detail) for detail in details)
        raise ActionParseError(
            f"invalid {kind!r} action: {problems}. Expected {_signature(action_class)}", details
        ) from None


def _describe_error(detail: Mapping[str, Any]) -> str:
    if not detail["loc"]:  # a check across fields (e.g. type's x and y)
        return str(detail["msg"])
    where = ".".join(str(part) for part in detail["loc"])
    text = f"{where}: {detail['msg']}"
    shown = _short_repr(detail["input"])
    if detail["type"] not in {"missing", "extra_forbidden"} and shown not in text:
        text += f" (got {shown})"
    return text


# --- derived views -------------------------------------------------------------------------------


def action_json_schema(kinds: Iterable[str] | None = None) -> dict[str, Any]:
    """JSON schema of the action union, or of the union of only ``kinds`` (in canonical order)."""
    return _union_adapter(_select_kinds(kinds)).json_schema()


def _type_text(annotation: Any) -> str:
    """Render a field annotation the way a prompt should show it (JSON-minded: tuples are lists)."""
    origin = get_origin(annotation)
    arguments = get_args(annotation)
    if origin is Annotated:
        return _type_text(arguments[0])
    if origin is Literal:
        return "|".join(json.dumps(choice) for choice in arguments)
    if origin in {tuple, list}:
        return f"list[{_type_text(arguments[0])}]"
    if arguments:  # a union such as int | None
        return " | ".join(_type_text(argument) for argument in arguments)
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", str(annotation))


def _signature(action_class: type[_ActionBase]) -> str:
    parameters = []
    for name, field in action_class.model_fields.items():
        if name == "kind":
            continue
        text = f"{name}: {_type_text(field.annotation)}"
        if not field.is_required():
            default = field.default
            if isinstance(default, tuple):
                default = list(default)
            shown = json.dumps(default) if isinstance(default, str | list) else repr(default)
            text += " = " + shown
        parameters.append(text)
    return f"{_kind_of(action_class)}({', '.join(parameters)})"


def describe_actions(kinds: Iterable[str] | None = None) -> str:
    """Prompt text, one line per action: ``click(x: int, y: int) — Left-click at ...``."""
    lines = []
    for kind in _select_kinds(kinds):
        action_class = ACTION_TYPES[kind]
        description = " ".join((action_class.__doc__ or "").split())
        lines.append(f"{_signature(action_class)} — {description}")
    return "\n".join(lines)


def action_points(action: Action) -> list[tuple[int, int]]:
    """Every screen point (x, y) the action touches, in order; empty for keyboard/meta actions."""
    return action.points()


def check_on_screen(action: Action, width: int, height: int) -> None:
    """Raise :class:`InvalidActionError` unless every point lies in [0, width) x [0, height)."""
    if width <= 0 or height <= 0:
        raise ValueError(f"screen size must be positive, got {width}x{height}")
    for x, y in action_points(action):
        if not (0 <= x < width and 0 <= y < height):
            raise InvalidActionError(
                f"point ({x}, {y}) of the {action.kind} action is outside the {width}x{height} "
                f"screen; x must be 0..{width - 1} and y 0..{height - 1}"
            )


def is_terminal(action: Action) -> bool:
    """True for done and fail, which end the run; answer reports a value and the run goes on."""
    return action.terminal
