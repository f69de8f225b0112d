"""Skills in the file manager: folders made, files moved or copied, folders listed, a file
opened; each checked afterwards (on disk, or by the opened file's window in front)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Annotated, Any

from pydantic import Field, model_validator

from pcagent.app_actions import FilesCopy, FilesList, FilesMakeFolder, FilesMove, FilesOpen
from pcagent.applications import FILE_MANAGER
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, StepFailed, skill
from pcagent.skills.common import GIVEN_FILE, do, given, home_file

APP = FILE_MANAGER.name


class ListFolder(SkillParameters):
    folder: str = Field("", max_length=400, description='In HOME, e.g. "Documents"; "": HOME.')


@skill("List the files and folders of a folder.", apps=(APP,), returns="the names")
def list_folder(context: SkillContext, parameters: ListFolder) -> SkillResult:
    listed = do(context, FilesList(path=parameters.folder))
    return SkillResult(True, listed.output or "", evidence=f"{parameters.folder or 'HOME'} listed")


class MoveFiles(SkillParameters):
    files: list[str] = Field(
        default_factory=list, max_length=200, description='Paths in HOME, e.g. ["Documents/a.txt"].'
    )
    from_folder: str = Field(
        "", max_length=400, description="Or: every file of this folder whose name ends with suffix."
    )
    suffix: str = Field("", max_length=20, description='e.g. ".txt" (with from_folder).')
    into: str = given("folder", "Folder to put them in.")
    keep_originals: bool = Field(False, description="true: copy instead of move.")
    make_folder: bool = Field(True, description="true: create the folder when missing.")

    @model_validator(mode="after")
    def _some_files(self) -> MoveFiles:
        if not self.files and not self.from_folder:
            raise ValueError(
                "it names no file to move: give the files, or a folder and a name ending "
                "(from_folder, suffix); leave the step out where nothing is to be moved"
            )
        return self


def _moved(args: Mapping[str, Any]) -> dict[str, str]:
    """The named files a ``move_files`` call moves and where to (a folder's files by their
    ending are known only when it runs; copies leave the originals where they are)."""
    into = args.get("into")
    if args.get("keep_originals") or not isinstance(into, str) or not into:
        return {}
    files = args.get("files")
    named = [path for path in files if isinstance(path, str)] if isinstance(files, list) else []
    return {path: str(PurePosixPath(into) / PurePosixPath(path).name) for path in named}


@skill(
    "Move (or copy) files into a folder, creating it when missing: named files, or every file "
    "of a folder with a name ending.",
    apps=(APP,),
    returns="the paths now in the folder",
    gives_list=True,
    reads=("files",),
    moves=_moved,
)
def move_files(context: SkillContext, parameters: MoveFiles) -> SkillResult:
    chosen = list(parameters.files)
    if parameters.from_folder:
        source = home_file(context, parameters.from_folder)
        if source is None or not source.is_dir():
            return SkillResult.failed(f"{parameters.from_folder} is not a folder in HOME")
        chosen += [
            str(PurePosixPath(parameters.from_folder) / entry.name)
            for entry in sorted(source.iterdir())
            if entry.is_file() and entry.name.endswith(parameters.suffix)
        ]
    if not chosen:
        return SkillResult.failed("no file matches; name the files or a folder and suffix")
    moved = []
    try:
        target = home_file(context, parameters.into)
        if parameters.make_folder and (target is None or not target.is_dir()):
            do(context, FilesMakeFolder(path=parameters.into))
        for path in chosen:
            kind = FilesCopy if parameters.keep_originals else FilesMove
            do(context, kind(source=path, target=parameters.into))
            moved.append(str(PurePosixPath(parameters.into) / PurePosixPath(path).name))
    except StepFailed as failure:
        return SkillResult.failed(f"{failure} (done before it: {moved or 'nothing'})")
    missing = [path for path in moved if (f := home_file(context, path)) and not f.exists()]
    if missing:
        return SkillResult.failed(f"not in the folder afterwards: {missing}")
    return SkillResult(True, moved, evidence=f"{len(moved)} files in {parameters.into}")


class MakeFolder(SkillParameters):
    path: str = given("folder", 'e.g. "Documents/Trips".')


@skill("Create a folder in HOME.", apps=(APP,))
def make_folder(context: SkillContext, parameters: MakeFolder) -> SkillResult:
    do(context, FilesMakeFolder(path=parameters.path))
    folder = home_file(context, parameters.path)
    if folder is not None and not folder.is_dir():
        return SkillResult.failed(f"{parameters.path} is not a folder afterwards")
    return SkillResult(True, parameters.path, evidence=f"{parameters.path} exists")


class OpenFile(SkillParameters):
    path: Annotated[
        str,
        Field(min_length=1, max_length=400, description='A file in HOME, e.g. "Documents/a.docx".'),
        GIVEN_FILE,
    ]


_OPENS = (
    "Open a file from the file manager: it comes up in the application for its kind (a "
    "document in the word processor, a text file in the text editor), as a double click on it "
    "in the file manager opens it. For an instruction that asks to open a file there; it "
    "changes nothing."
)


@skill(_OPENS, apps=(APP,), returns="the file's text", reads=("path",))
def open_file(context: SkillContext, parameters: OpenFile) -> SkillResult:
    """Why a skill: "open it from the file manager" is a step the user asked for, and with no
    skill of the file manager's that opens, a small planner reached for the one it had seen
    (moving files) and a screen step after that renamed the user's document (a rewording of
    pc13, 2026-11-28). The action opens with the application the file manager would use and
    fails unless a window with the file's name is in front."""
    opened = do(context, FilesOpen(path=parameters.path))
    # The action reads back the window's title, then the file's text: the value is the text
    # alone (a translation of "report.docx - LibreOffice Writer" and the text came back as
    # the text itself), the title stays in the evidence.
    title, _, text = (opened.output or "").partition("\n")
    return SkillResult(True, text, evidence=f"{opened.message}; in front: {title}")
