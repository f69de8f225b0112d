"""The action space: every action an agent may emit, defined once.

Each action is one small frozen pydantic model with a ``kind`` discriminator, a one-line class
docstring (the description a model sees) and a ``Field(description=...)`` per parameter. The prompt
text (:func:`describe_actions`), the JSON schema (:func:`action_json_schema`) and validation
(:func:`parse_action`) are all derived from these classes, so adding an action means adding one
class to the module of its family and listing it in :data:`Action` (:mod:`.union`).

The package is split by family: :mod:`.pointer` (clicks, scroll, drag, on one base for their
coordinates), :mod:`.keyboard` and :mod:`.keys` (typing, keys and key names), :mod:`.control`
(opening applications, waiting, skills, questions, answers and the run's endings), :mod:`.union`
(the union and the kind table) and :mod:`.parsing` (validation, schema and prompt text). Every
public name is importable from ``pcagent.actions`` itself.

Coordinate contract: every ``x``/``y`` is a pixel of the *environment's screen* (origin at the top
left, x to the right, y down), never of a downscaled image shown to a model; whoever downscales
maps back before building an action. :func:`check_on_screen` checks a point against the screen.

Key names: :data:`KEY_NAMES` maps friendly, case-insensitive names ("ctrl", "enter", "pagedown",
"+") to the X keysyms xdotool understands; :func:`normalize_key` applies it.
"""

from __future__ import annotations

from pcagent.action_base import ActionSite
from pcagent.actions.control import Answer, AskHuman, Done, Fail, OpenApp, UseSkill, Wait
from pcagent.actions.keyboard import MAX_TYPED_CHARACTERS, Hotkey, Press, TypeText
from pcagent.actions.keys import KEY_NAMES, normalize_key
from pcagent.actions.parsing import (
    ActionParseError,
    action_json_schema,
    describe_actions,
    parse_action,
    skill_call_as_action,
)
from pcagent.actions.pointer import (
    Click,
    ClickElement,
    DoubleClick,
    Drag,
    PointAction,
    PointerAction,
    RightClick,
    Scroll,
    SelectText,
)
from pcagent.actions.union import (
    ACTION_TYPES,
    APP_ACTION_KINDS,
    Action,
    action_points,
    app_kinds_for,
    check_on_screen,
    is_terminal,
)

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
    "PointAction",
    "PointerAction",
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
    "skill_call_as_action",
]
