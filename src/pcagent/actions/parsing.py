"""From a model's JSON to a validated action, and the text and schema that tell a model how.

Validation, the JSON schema (:func:`action_json_schema`) and the prompt lines
(:func:`describe_actions`) are all derived from the action classes of :data:`Action`, so adding an
action means adding one class and listing it in the union.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import Field, TypeAdapter, ValidationError

from pcagent.action_base import ActionBase
from pcagent.actions.control import UseSkill
from pcagent.actions.union import ACTION_TYPES, Action, kind_of, select_kinds
from pcagent.errors import InvalidActionError


class ActionParseError(InvalidActionError):
    """:func:`parse_action` rejected its input.

    ``details`` holds one dict per problem, shaped like pydantic's errors (``type``, ``loc``,
    ``msg``, ``input``; JSON-serialisable for JSON input), so a model layer can feed them back.
    """

    def __init__(self, message: str, details: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.details = details


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
    allowed = select_kinds(kinds)
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


def action_json_schema(kinds: Iterable[str] | None = None) -> dict[str, Any]:
    """JSON schema of the action union, or of the union of only ``kinds`` (in canonical order)."""
    return _union_adapter(select_kinds(kinds)).json_schema()


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


def _signature(action_class: type[ActionBase]) -> str:
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
    return f"{kind_of(action_class)}({', '.join(parameters)})"


def describe_actions(kinds: Iterable[str] | None = None) -> str:
    """Prompt text, one line per action: ``click(x: int, y: int) — Left-click at ...``."""
    lines = []
    for kind in select_kinds(kinds):
        action_class = ACTION_TYPES[kind]
        description = " ".join((action_class.__doc__ or "").split())
        lines.append(f"{_signature(action_class)} — {description}")
    return "\n".join(lines)


def skill_call_as_action(action: Action, kinds: Iterable[str]) -> Action:
    """A ``use_skill`` that names one of the ``kinds`` offered instead of a skill, as that
    action with the call's arguments; any other action, or one whose arguments do not fit, as it
    is. Why: the 1.5B Decision agent wrote ``use_skill(skill="editor_open", ...)`` three times in
    a row for the editor's action of that name (a rewording of pc01, 2026-11-28), each refused
    as no skill; the names are the catalog's, so taking the action meant is exact."""
    offered = set(kinds) - {"use_skill"}
    if not isinstance(action, UseSkill) or action.skill not in offered:
        return action
    try:
        return parse_action({**action.args, "kind": action.skill}, kinds=offered)
    except InvalidActionError:
        return action
