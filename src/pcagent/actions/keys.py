"""Key names: the friendly spellings a model may use, mapped to the X keysyms xdotool understands.

Kept apart from the keyboard actions because the table is long and is also what the desktop's
executor and the skills use (through :func:`normalize_key`) to press keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from pcagent.errors import InvalidActionError

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


def keysym_for_pydantic(name: str) -> str:
    """:func:`normalize_key`, raising the error type pydantic collects into its field errors."""
    try:
        return normalize_key(name)
    except InvalidActionError as error:
        raise PydanticCustomError("invalid_key", "{reason}", {"reason": str(error)}) from error


def _validated_key(name: str) -> str:
    """Pydantic hook: check a key name but keep the original spelling (what the model said)."""
    keysym_for_pydantic(name)
    return name


KeyName = Annotated[str, AfterValidator(_validated_key)]

"""A key name that must be known (see :func:`normalize_key`), kept as the model spelled it."""
