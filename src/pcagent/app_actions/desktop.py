"""The application actions of the desktop's own programs: the text editor, the file manager,
the calculator and the clocks."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from pcagent import applications
from pcagent.app_actions.base import AppAction, HomePath, OpenedPath, OpensFile, ReadsFront

# --- text editor ---------------------------------------------------------------------------------


class EditorOpen(OpensFile, application=applications.TEXT_EDITOR):
    """Open a text file in the text editor by its path (a new file if it does not exist)."""

    kind: Literal["editor_open"] = "editor_open"


class EditorSaveAs(AppAction, application=applications.TEXT_EDITOR):
    """Save the text in the editor in front under a path (save as)."""

    kind: Literal["editor_save_as"] = "editor_save_as"
    path: OpenedPath


class EditorNew(AppAction, application=applications.TEXT_EDITOR):
    """Bring the text editor to the front on a document of no file: the one in front where it
    has none, else a new one (a file open in it is left as it is)."""

    kind: Literal["editor_new"] = "editor_new"
    only_looks: ClassVar[bool] = True


# --- file manager --------------------------------------------------------------------------------


class FilesList(ReadsFront, application=applications.FILE_MANAGER):
    """List the files and folders of a folder in HOME."""

    kind: Literal["files_list"] = "files_list"
    path: HomePath = Field("", description='Folder in HOME, e.g. "Documents"; empty: HOME.')


class FilesMakeFolder(AppAction, application=applications.FILE_MANAGER):
    """Create a folder (and missing parents) in HOME."""

    kind: Literal["files_make_folder"] = "files_make_folder"
    path: HomePath = Field(min_length=1, description='Folder to create, e.g. "Documents/Trips".')


class FilesCopy(AppAction, application=applications.FILE_MANAGER):
    """Copy a file or folder; target may be a folder to copy into."""

    kind: Literal["files_copy"] = "files_copy"
    source: HomePath = Field(min_length=1, description="What to copy, a path in HOME.")
    target: HomePath = Field(min_length=1, description="New path, or a folder to copy into.")


class FilesMove(AppAction, application=applications.FILE_MANAGER):
    """Move a file or folder; target may be a folder to move into."""

    kind: Literal["files_move"] = "files_move"
    source: HomePath = Field(min_length=1, description="What to move, a path in HOME.")
    target: HomePath = Field(min_length=1, description="New path, or a folder to move into.")


class FilesRename(AppAction, application=applications.FILE_MANAGER):
    """Rename a file or folder in place."""

    kind: Literal["files_rename"] = "files_rename"
    path: HomePath = Field(min_length=1, description="What to rename, a path in HOME.")
    new_name: str = Field(
        min_length=1, pattern=r"^[^/\x00]{1,255}$", description="The new name alone, no folder."
    )


class FilesOpen(OpensFile, application=applications.FILE_MANAGER):
    """Open a file with the application that handles its type (a .docx in the word processor)."""

    kind: Literal["files_open"] = "files_open"


# --- calculator and clocks -----------------------------------------------------------------------


class CalculatorEvaluate(AppAction, application=applications.CALCULATOR):
    """Compute an expression with the calculator's keys (clear, type it, =) and read the result."""

    kind: Literal["calculator_evaluate"] = "calculator_evaluate"
    expression: str = Field(
        min_length=1, max_length=200, pattern=r"^[0-9+\-*/().^ ]{1,200}$",
        description='Arithmetic, e.g. "12 * 7 + 5"; a date YYYY-MM-DD counts only minus another '
        'one: "2025-03-03 - 2025-02-18" is the days between them.',
    )  # fmt: skip


class ClockAddAlarm(AppAction, application=applications.CLOCK):
    """Add an alarm to Clocks at a time of day (24-hour HH:MM), with an optional name."""

    kind: Literal["clock_add_alarm"] = "clock_add_alarm"
    time: str = Field(pattern=r"^([01]?[0-9]|2[0-3]):[0-5][0-9]$", description='e.g. "07:30".')
    name: str = Field("", max_length=200, description="The alarm's name.")


class ClockAddWorldClock(AppAction, application=applications.CLOCK):
    """Add a city's clock to the world clocks of Clocks."""

    kind: Literal["clock_add_world_clock"] = "clock_add_world_clock"
    city: str = Field(min_length=1, max_length=200, description='e.g. "Tokyo".')
