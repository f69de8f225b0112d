"""What an action may set off: the commands, drop targets and unlabelled controls it can reach.

The guard matches rules against :class:`Activation` s rather than against the one mark under a
click, because a command can be reached in many ways: a click on an icon inside its button, a drag
that starts, ends on or crosses it, Enter or Space while it has the focus or is the highlighted
menu entry, its mnemonic letter, or a window-manager button no mark shows. The rules themselves
are in :mod:`pcagent.runtime.safety.rules`; the whole policy is stated in
:mod:`pcagent.runtime.safety.guard`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from pcagent.actions import Action, Click, DoubleClick, Drag, Hotkey, Press, RightClick, TypeText
from pcagent.env.observation import Box, WindowInfo
from pcagent.perception.marks import Mark
from pcagent.runtime.safety.context import ActionContext
from pcagent.runtime.safety.label_folding import fold_label
from pcagent.runtime.safety.rules import (
    COMMAND_ROLES,
    CONTENT_ROLES,
    MENU_ITEM_ROLES,
    MODIFIERS,
    TEXT_INPUT_ROLES,
    UNMARKED_TOOLBAR,
    WINDOW_CLOSE,
    WINDOW_MENU,
    Control,
    normalize_label,
)

#: Keys that activate the focused control or the highlighted menu entry.
ACTIVATION_KEYS = frozenset({"return", "space"})
#: Height of the window manager's title bar above a window's client area, in pixels (xfwm4's
#: default theme draws about 29; a little more, to be safe).
TITLE_BAR_HEIGHT = 32
#: Width of the frame's side borders, in pixels.
FRAME_BORDER = 6
#: Width of the close button at the right end of the title bar, from the client area's right edge.
CLOSE_BUTTON_WIDTH = 28
#: Width of the window-menu icon at the left end of the title bar (a double-click on it closes).
MENU_ICON_WIDTH = 28
#: The share of a window's height, from its top, that holds its toolbar row.
TOOLBAR_SHARE = 0.15
_MENU_ROLES = MENU_ITEM_ROLES | {"menu"}
_PRESS_VERBS: dict[type, str] = {
    Click: "clicks",
    DoubleClick: "double-clicks",
    RightClick: "right-clicks",
    TypeText: "clicks",  # before typing
}


@dataclass(frozen=True)
class Activation:
    """One thing an action may set off, as rules match it.

    ``command``: a command with ``label`` and ``role`` (matched by a rule's ``labels``); ``drop``:
    what a drag ends on, content included (``drop_labels``); ``control``: an unlabelled control
    (``controls``). ``how`` says it for people: 'clicks "Send"'.
    """

    kind: Literal["command", "drop", "control"]
    how: str
    label: str = ""
    role: str = ""
    control: Control | None = None


def command_label(mark: Mark) -> str:
    """The mark's label if it may name a command; "" for content marks (a file called "delete
    me.txt", a typed "send"). OCR text stands in for controls without accessible text, so it
    always counts. A label of nothing but invisible characters is no label."""
    if mark.source == "accessibility" and mark.role in CONTENT_ROLES:
        return ""
    return normalize_label(mark.label) if fold_label(mark.label) else ""


def activations(action: Action, context: ActionContext) -> list[Activation]:
    """Everything ``action`` may set off on the screen ``context`` describes."""
    if isinstance(action, Drag):
        return _drag(action, context)
    verb = _PRESS_VERBS.get(type(action))
    points = action.points()
    if verb is not None and points:
        return _press(points[0], verb, context, first=True, right=isinstance(action, RightClick))
    found: list[Activation] = []
    for pressed, written, explicit in _key_events(action):
        found.extend(_keys(pressed, written, context, explicit=explicit))
    return found


def typing_into_text(context: ActionContext) -> bool:
    """Whether keys go to a text field: one has the focus and no menu entry is highlighted."""
    focused = _focused(context.marks)
    return (
        bool(focused)
        and all(mark.role in TEXT_INPUT_ROLES for mark in focused)
        and not _highlighted_menu_entries(context.marks)
    )


# --- pointer -------------------------------------------------------------------------------------


def _marks_under(context: ActionContext, point: tuple[int, int], first: bool) -> list[Mark]:
    under = [mark for mark in context.marks if mark.box.contains(*point)]
    if first and context.target is not None and context.target not in under:
        under.append(context.target)
    return under


def _command_at(under: list[Mark], how: str) -> list[Activation]:
    """The smallest command mark under the point; without a labelled one, every non-content mark
    there (a "Send" label or OCR word inside an unlabelled toolbar item)."""
    commands = [mark for mark in under if mark.role in COMMAND_ROLES]
    if commands:
        command = min(commands, key=lambda mark: mark.box.width * mark.box.height)
        label = command_label(command)
        if label:
            return [Activation("command", f'{how} "{label}"', label, command.role)]
    return [
        Activation("command", f'{how} "{label}"', label, mark.role)
        for mark in under
        if (label := command_label(mark))
    ]


def _press(
    point: tuple[int, int], verb: str, context: ActionContext, *, first: bool, right: bool = False
) -> list[Activation]:
    under = _marks_under(context, point, first)
    found = _command_at(under, verb)
    window = _window_at(context.windows, point)
    on_command = any(mark.role in COMMAND_ROLES for mark in under)
    if window is not None and not on_command and _in_title_bar(window.box, point):
        x = point[0]
        if right or x < window.box.x + MENU_ICON_WIDTH - FRAME_BORDER:
            found.append(
                Activation(
                    "control",
                    f'{verb} the title bar of "{window.title}" (its window menu can close it)',
                    control=WINDOW_MENU,
                )
            )
        elif x >= window.box.right - CLOSE_BUTTON_WIDTH:
            found.append(
                Activation(
                    "control",
                    f'{verb} the close button in the title bar of "{window.title}"',
                    control=WINDOW_CLOSE,
                )
            )
    # Nothing readable there: no mark, or only commands without a name (Send may be one).
    unmarked = all(mark.role in COMMAND_ROLES and not fold_label(mark.label) for mark in under)
    focused = context.window
    if unmarked and not right and focused is not None and _in_toolbar_row(focused.box, point):
        found.append(
            Activation(
                "control",
                f'{verb} an unnamed spot in the toolbar row of "{focused.title}"',
                control=UNMARKED_TOOLBAR,
            )
        )
    return found


def _drag(action: Drag, context: ActionContext) -> list[Activation]:
    """Both ends as presses (a short drag on a button presses it), the commands its path crosses,
    and what it drops onto."""
    start, end = (action.start_x, action.start_y), (action.end_x, action.end_y)
    found = _press(start, "drags from", context, first=True)
    found += _press(end, "drags onto", context, first=False)
    found += [
        Activation("command", f'drags across "{label}"', label, mark.role)
        for mark in context.marks
        if mark.role in COMMAND_ROLES
        and (label := command_label(mark))
        and _segment_crosses(start, end, mark.box)
    ]
    found += [
        Activation("drop", f'drops onto "{label}"', label, mark.role)
        for mark in _marks_under(context, end, first=False)
        if (label := normalize_label(mark.label))
    ]
    return found


def _frame(box: Box) -> Box:
    """The window's frame: the client box with the title bar and borders the window manager adds."""
    return Box(
        x=box.x - FRAME_BORDER,
        y=box.y - TITLE_BAR_HEIGHT,
        width=box.width + 2 * FRAME_BORDER,
        height=box.height + TITLE_BAR_HEIGHT + FRAME_BORDER,
    )


def _window_at(windows: Iterable[WindowInfo], point: tuple[int, int]) -> WindowInfo | None:
    """The topmost window whose frame holds the point."""
    for window in reversed(list(windows)):
        if _frame(window.box).contains(*point):
            return window
    return None


def _in_title_bar(box: Box, point: tuple[int, int]) -> bool:
    x, y = point
    return (
        box.y - TITLE_BAR_HEIGHT <= y < box.y
        and box.x - FRAME_BORDER <= x < box.right + FRAME_BORDER
    )


def _in_toolbar_row(box: Box, point: tuple[int, int]) -> bool:
    x, y = point
    return box.x <= x < box.right and box.y <= y < box.y + box.height * TOOLBAR_SHARE


def _segment_crosses(start: tuple[int, int], end: tuple[int, int], box: Box) -> bool:
    """Whether the straight path from ``start`` to ``end`` passes through ``box`` (Liang-Barsky)."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for step, distance in (
        (-dx, x0 - box.x),
        (dx, box.right - 1 - x0),
        (-dy, y0 - box.y),
        (dy, box.bottom - 1 - y0),
    ):
        if step == 0:
            if distance < 0:
                return False
            continue
        ratio = distance / step
        if step < 0:
            low = max(low, ratio)
        else:
            high = min(high, ratio)
        if low > high:
            return False
    return True


# --- keyboard ------------------------------------------------------------------------------------


def pressed_keys(action: Action) -> tuple[frozenset[str], str] | None:
    """The keys a hotkey or press action presses together (as lower-case keysyms) and as the
    agent wrote them; None for other actions."""
    if isinstance(action, Hotkey):
        return frozenset(keysym.lower() for keysym in action.keysyms()), "+".join(action.keys)
    if isinstance(action, Press):
        return frozenset({action.keysym().lower()}), action.key
    return None


def _key_events(action: Action) -> Iterator[tuple[frozenset[str], str, bool]]:
    """The key presses of a keyboard action: (keysyms, as written, pressed explicitly).

    Text typed at the focus (no point to click first) presses keys too: a newline is Return, a
    space is Space, a letter may be a mnemonic. Typed keys are not *explicit*: see :func:`_keys`.
    """
    pressed = pressed_keys(action)
    if pressed is not None:
        yield *pressed, True
    elif isinstance(action, TypeText) and action.x is None:
        typed = {"\n": "return", " ": "space"}
        keys = {typed.get(char, char.lower()) for char in action.text}
        for key in sorted(keys):
            if key in ACTIVATION_KEYS or (len(key) == 1 and key.isalnum()):
                shown = "a newline" if key == "return" else "a space" if key == "space" else key
                yield frozenset({key}), f"{shown} (typed)", False


def _focused(marks: Iterable[Mark]) -> list[Mark]:
    return [mark for mark in marks if "focused" in mark.states]


def _highlighted_menu_entries(marks: Iterable[Mark]) -> list[Mark]:
    """Menu entries Enter would pick: both ``selected`` and ``focused``, as GTK reports the
    highlight. Either state alone is not enough: Thunderbird keeps its combo boxes' chosen items
    ``selected`` while no menu is open, and GTK leaves a parent menu's first item ``focused``."""
    return [
        mark
        for mark in marks
        if mark.role in _MENU_ROLES and {"selected", "focused"} <= set(mark.states)
    ]


def _window_commands(context: ActionContext) -> list[Mark]:
    """The command marks of the focused window (all of them when it is unknown)."""
    window = context.window
    return [
        mark
        for mark in context.marks
        if mark.role in COMMAND_ROLES and (window is None or window.box.contains(*mark.center))
    ]


def _keys(
    pressed: frozenset[str], written: str, context: ActionContext, *, explicit: bool
) -> list[Activation]:
    """What one key press may activate.

    Enter or Space: the focused marks, the highlighted menu entries, every item of a menu open
    with none highlighted, and, for an explicit Enter when nothing on screen has the focus, every
    command of the focused window (the default button may be any of them; typed newlines are
    exempt, or a mail body could not be typed while the focus is unknown). A letter or digit:
    the open menu's items holding it (mnemonics and type-ahead), and with Alt, or while a button
    has the focus, every command of the focused window holding it.
    """
    main = pressed - MODIFIERS
    if len(main) != 1:
        return []
    (key,) = main
    modifiers = pressed & MODIFIERS
    marks = context.marks
    menu_items = [mark for mark in marks if mark.role in MENU_ITEM_ROLES]
    reached: list[tuple[Mark, str]] = []
    if key in ACTIVATION_KEYS:
        focused = _focused(marks)
        highlighted = _highlighted_menu_entries(marks)
        reached += [(mark, ' on the highlighted menu entry "{label}"') for mark in highlighted]
        reached += [(mark, ' on "{label}" (focused)') for mark in focused]
        if menu_items and not highlighted:
            reached += [
                (mark, ', with a menu open, which may pick "{label}"') for mark in menu_items
            ]
        if key == "return" and explicit and not focused and not highlighted:
            reached += [
                (mark, ', with no focus visible, which may activate "{label}"')
                for mark in _window_commands(context)
            ]
    elif len(key) == 1 and key.isalnum() and not modifiers & {"ctrl", "super"}:
        holding = [mark for mark in menu_items if key in fold_label(mark.label)]
        reached += [(mark, ', which may pick the menu item "{label}"') for mark in holding]
        focused = _focused(marks)
        button_focused = any(mark.role in COMMAND_ROLES for mark in focused)
        if "alt" in modifiers or (button_focused and not typing_into_text(context)):
            reached += [
                (mark, ', which may activate "{label}" by its mnemonic')
                for mark in _window_commands(context)
                if key in fold_label(mark.label)
            ]
    found: list[Activation] = []
    for mark, phrase in reached:
        label = command_label(mark)
        if label:
            how = f"presses {written}" + phrase.format(label=label)
            found.append(Activation("command", how, label, mark.role))
    return found
