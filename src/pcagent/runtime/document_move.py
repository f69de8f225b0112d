"""A subtask that says to open a named file starts with that file open, by rule.

"In the text editor, open the file memo.txt in the Documents folder and find ..." names the file
and the application; the application's own open action (``editor_open``, ``writer_open``,
``sheet_open``, ``files_open``) opens it in one step. The 1.5B model, with the empty editor in
front, instead clicked the File menu, claimed the memo was already open, and gave up; the run
re-planned twice before it used ``editor_open``. So, once the subtask's application is in
front, the run opens the named file itself (recorded like any step, its thought marked
``[run]``) unless the window in front already shows it or the subtask already tried.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role

#: "open the file memo.txt", "Open test_doc1.docx", "opens notes.md": an opening verb, then
#: (within the same clause) a file name with an extension that starts with a letter.
_OPENS_FILE = re.compile(
    r"\bopen(?:s|ing)?\b[^.;,]*?(?<![\w./-])((?:[\w-]+/)*[\w-]*[A-Za-z][\w-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b",
    re.I,
)


def named_file(description: str) -> str:
    """The file name a subtask says to open; "" when it names none."""
    match = _OPENS_FILE.search(description)
    return match.group(1) if match else ""


def open_action_kind(app: str, kinds: frozenset[str]) -> str:
    """The kind of ``app``'s own action that opens a file by its path, among ``kinds``; ""
    when the application has none (or the role may not use it)."""
    for kind in sorted(kinds):
        action_type = act.ACTION_TYPES.get(kind)
        belongs_to = getattr(action_type, "belongs_to", None)
        fields = getattr(action_type, "model_fields", {})
        if belongs_to == app and kind.endswith("_open") and set(fields) == {"kind", "path"}:
            return kind
    return ""


def document_move(
    subtask: SubtaskSpec, role: Role, front_app: str, front_title: str, history: Sequence[str]
) -> Decision | None:
    """The step that opens the file the subtask names, with the application's own action,
    once the application is in front; None when a model should decide (no file named, no
    open action, the file already in front, or the subtask already opened something)."""
    name = named_file(subtask.description)
    if not name or subtask.app != front_app:
        return None
    kind = open_action_kind(subtask.app, role.kinds)
    if not kind or PurePosixPath(name).name in front_title:
        return None
    if any(f"{kind}(" in line for line in history):
        return None
    action = act.ACTION_TYPES[kind].model_validate({"kind": kind, "path": name})
    return Decision(
        reasoning=f"[run] the subtask opens {name}: opening it with {kind}",
        action=action,
    )
