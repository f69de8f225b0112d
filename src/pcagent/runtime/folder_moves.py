"""Making a folder and moving files into it, where the words leave no choice: "In the file
manager, create a folder Quarterly in the Documents folder and move guest_list.txt and
rota_week2.txt into it".

A small model made the folder, then made it again until the run took the repeated, checked
effect for the subtask's end, and the files stayed where they were. Here the run makes the
folder, then moves each named file into it (finding the file in HOME by its name), and the
subtask is done once every named file was moved there (:func:`filed`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.runtime.named_files import file_names

MAKE_KIND = "files_make_folder"
MOVE_KIND = "files_move"

#: "create a folder Quarterly in the Documents folder", "make a new folder named 'Trips'".
_MAKE = re.compile(
    r"\b(?:create|make|add)\s+(?:a\s+(?:new\s+)?|the\s+)?folder\s+(?:named\s+|called\s+)?"
    r"[\"'“]?(?P<name>[\w\-]+(?:/[\w\-]+)*)[\"'”]?"
    r"(?:\s+in\s+(?:the\s+|my\s+)?(?P<parent>[\w\-]+(?:/[\w\-]+)*)\s+folder)?",
    re.I,
)
#: "move a.txt and b.txt into it", "move report.docx into that folder".
_INTO_IT = re.compile(
    r"\bmove\b(?P<what>(?:[^.;]|\.(?=\w))*?)\binto\s+(?:it|that\s+folder|the\s+(?:new\s+)?folder)\b",
    re.I,
)

#: A move's line in a subtask's history that succeeded.
_MOVED = re.compile(
    rf"{MOVE_KIND}\(source='(?P<source>[^']+)', target='(?P<target>[^']+)'\) -> success$"
)


def folder_plan(description: str) -> tuple[str, list[str]] | None:
    """The folder to make (a path in HOME) and the names of the files to move into it, when
    the words say both; None otherwise."""
    made, into = _MAKE.search(description), _INTO_IT.search(description)
    if made is None or into is None or into.start() < made.end():
        return None
    name, parent = made.group("name"), made.group("parent")
    folder = f"{parent}/{name}" if parent else name
    files = file_names(into.group("what"))
    return (folder, files) if files else None


def _succeeded(text: str, history: Sequence[str]) -> bool:
    return any(text in line and line.endswith("-> success") for line in history)


def _tried(text: str, history: Sequence[str]) -> bool:
    return any(text in line for line in history)


def _move_text(source: str, folder: str) -> str:
    return f"{MOVE_KIND}(source={source!r}, target={folder!r})"


def folder_move(
    subtask: SubtaskSpec,
    role: Role,
    history: Sequence[str],
    documents: Callable[[], Mapping[str, str]],
) -> Decision | None:
    """The next step of making the folder and moving the named files into it; None when the
    words do not say so, the subtask is not the file manager's, everything is moved, a step of
    it failed (the model takes over), or a named file is not in HOME."""
    plan = folder_plan(subtask.description)
    # the file manager's own actions work on HOME whether or not its window is in front (a
    # one-subtask plan may never open it)
    if plan is None or subtask.app != "file_manager" or role.name != "file_manager":
        return None
    if not {MAKE_KIND, MOVE_KIND} <= role.kinds:
        return None
    folder, names = plan
    make = f"{MAKE_KIND}(path={folder!r})"
    if not _succeeded(make, history):
        if _tried(make, history):
            return None
        return Decision(
            reasoning=f"[run] the subtask makes the folder {folder}",
            action=act.ACTION_TYPES[MAKE_KIND].model_validate({"kind": MAKE_KIND, "path": folder}),
        )
    found = documents()
    for name in names:
        source = found.get(PurePosixPath(name).name, "")
        if source and str(PurePosixPath(source).parent) == folder:
            continue  # moved already
        if not source or _tried(_move_text(source, folder), history):
            return None  # not in HOME, or its move failed: the model decides
        return Decision(
            reasoning=f"[run] the subtask moves {source} into {folder}",
            action=act.ACTION_TYPES[MOVE_KIND].model_validate(
                {"kind": MOVE_KIND, "source": source, "target": folder}
            ),
        )
    return None


def filed(description: str, history: Sequence[str]) -> bool:
    """Whether the subtask made its folder and moved every file its words name into it (each
    with success): nothing is left to do."""
    plan = folder_plan(description)
    if plan is None:
        return False
    folder, names = plan
    if not _succeeded(f"{MAKE_KIND}(path={folder!r})", history):
        return False
    moved = {
        PurePosixPath(line.group("source")).name
        for line in map(_MOVED.search, history)
        if line is not None and line.group("target") == folder
    }
    return all(PurePosixPath(name).name in moved for name in names)
