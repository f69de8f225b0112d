"""Checking a subtask's ``done`` against the desktop instead of believing it.

A small model says ``done`` when it has typed something, or when it has given up on a step; the
run then ends "finished" with nothing achieved. Before a subtask counts as done:

1. every value it must report has been reported;
2. where the subtask asks for a named file to be saved or written ("save it as report.docx"),
   the file exists in HOME and no open window holds unsaved changes to it — read off the disk
   and the applications, not asked of a model;
3. otherwise, when the step before ``done`` was an application action that read its effect back
   and found it done, that check supports it;
4. otherwise, when a Progress agent keeps the subtask's account, its judgement of the ``done``
   step must say the subtask is complete.

A refused ``done`` goes back to the Decision agent with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from pcagent.env.protocol import UnsavedDocument

#: A file name with an extension that starts with a letter ("report.docx", "a_b-2.py").
_FILE_NAME = re.compile(
    r"(?<![\w.])((?:[\w\-]+/)*[\w\-]*[A-Za-z][\w\-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b"
)
#: Words with which a subtask asks for a file to end up on disk.
_WRITE_WORDS = re.compile(r"\b(save|saved|saving|write|written|create|store|export)\b", re.I)


def files_to_save(description: str) -> list[str]:
    """The file names (no folder) a subtask asks to be saved or written; [] when it asks for
    none."""
    if not _WRITE_WORDS.search(description):
        return []
    names = [PurePosixPath(match).name for match in _FILE_NAME.findall(description)]
    return list(dict.fromkeys(names))


def unsaved_in(name: str, unsaved: Sequence[UnsavedDocument]) -> bool:
    """Whether an open window holds unsaved changes to the file called ``name``."""
    for document in unsaved:
        if document.document and PurePosixPath(document.document).name == name:
            return True
        if not document.document and name in document.title:
            return True
    return False


def file_problem(
    description: str, documents: Mapping[str, str], unsaved: Sequence[UnsavedDocument]
) -> str | None:
    """Why the files the subtask asks to save are not saved; None when they are (or it names
    none). ``documents`` maps the file names in HOME to their paths."""
    for name in files_to_save(description):
        if name not in documents:
            return f"{name} is not saved anywhere in HOME yet"
        if unsaved_in(name, unsaved):
            return f"{name} has unsaved changes in its window; save it first"
    return None


def done_problem(
    description: str,
    missing_outputs: Sequence[str],
    documents: Mapping[str, str] | None,
    unsaved: Sequence[UnsavedDocument],
    progress_completed: bool | None,
    *,
    verified_effect: str = "",
) -> str | None:
    """Why ``done`` is not accepted for a subtask; None to accept it. ``documents`` is None
    when the desktop has no HOME to look at, ``progress_completed`` None without a Progress
    agent; ``verified_effect`` the verified application action just before, if any."""
    if missing_outputs:
        return f"report {', '.join(missing_outputs)} with an answer action first"
    if documents is not None and files_to_save(description):
        return file_problem(description, documents, unsaved)
    if verified_effect:
        return None
    if progress_completed is False:
        return "the account of the subtask says it is not complete; finish what remains"
    return None
