"""Moves the run makes by rule to correct a text file: open it, replace its text, save it.

"Open it in the code editor, fix the error in the Python code, and save it" (after a subtask
saved a mail's attachment homework.py) asks for three things the words settle, around one that
needs language:

1. the file "it" is the one the subtasks before named and HOME holds (:func:`earlier_file`),
   opened with the editor's own action when the subtask names no file itself;
2. its text is selected (Ctrl+A, :func:`select_all_move`), so that the Composer's corrected
   text, written from the file's text the opening read back, replaces it when typed
   (:func:`~pcagent.runtime.rule_moves.compose_kind` lets a correcting subtask compose once the
   text is selected);
3. "save it" saves it where it was opened (:func:`opened_path`, used by
   :func:`~pcagent.runtime.rule_moves.save_move`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.runtime.named_files import last_named

#: Words with which a subtask asks for a text to be corrected.
FIXES = re.compile(r"\b(?:fix|fixes|correct|corrects|repair|repairs|debug)\b", re.I)
#: "open it", "open the file", "open that script": a file to open that the words do not name.
_OPENS_UNNAMED = re.compile(r"\bopen\s+(?:it|that|this|the)\b", re.I)
#: An open action's line in a subtask's history: "3: editor_open(path='Documents/a.py') -> success".
_OPENED = re.compile(r": (?:editor_open|files_open)\(path='(?P<path>[^']+)'\) -> success$")
#: The keys that select a text field's whole text.
SELECT_ALL = ("ctrl", "a")


def earlier_file(words: str, earlier: Sequence[str], documents: Mapping[str, str]) -> str:
    """The file in HOME a subtask that says "open it" means: the last one named by ``earlier``
    (the words of the subtasks before it, in order) that ``documents`` (name -> path relative
    to HOME) holds; "" when its words name no unnamed file to open, or none is found."""
    if not _OPENS_UNNAMED.search(words):
        return ""
    return last_named(earlier, lambda name: documents.get(PurePosixPath(name).name, ""))


def opened_path(history: Sequence[str]) -> str:
    """The path the subtask's latest successful open action opened; "" when none did."""
    for line in reversed(history):
        match = _OPENED.search(line)
        if match:
            return match.group("path")
    return ""


def corrects(subtask: SubtaskSpec) -> bool:
    """Whether a text-editor subtask asks for its file's text to be corrected."""
    return subtask.app == "text_editor" and bool(FIXES.search(subtask.description))


def selected_all(history: Sequence[str]) -> bool:
    """Whether the subtask's latest step selected all the text (Ctrl+A), whatever Reflection
    made of it: a selection changes no text, and often nothing the listing shows."""
    return bool(history) and ": hotkey(keys=('ctrl', 'a')) -> " in history[-1]


def select_all_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """For a subtask that corrects its file, once the file is open in the editor in front and
    before anything was typed, the step that selects its whole text; once."""
    if not corrects(subtask) or front_app != "text_editor" or "hotkey" not in role.kinds:
        return None
    if not opened_path(history):
        return None
    if any("hotkey(keys=('ctrl', 'a'))" in line or ": type(" in line for line in history):
        return None
    return Decision(
        reasoning="[run] the subtask corrects the file's text: selecting all of it first",
        action=act.Hotkey(keys=list(SELECT_ALL)),
    )
